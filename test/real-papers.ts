/**
 * The real exam papers (WAEC/NECO Markdown, the ICAN PDF) live in an optional folder beside
 * the checkout, `../shared/fixtures/real/`, as in CI. They are
 * read in place, never copied in. On a clone with nothing beside it the tests that need
 * them are skipped: their describe block's name carries `REAL_PAPERS_SKIP`, and
 * test/global-setup.ts prints one line saying so. Every other test uses only files in
 * this repository.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';

/** Absolute path of `../shared/fixtures/real` beside the checkout. */
export const REAL_PAPERS_DIR = join(new URL('..', import.meta.url).pathname, '..', 'shared', 'fixtures', 'real');

/** True when the real papers are there (the directory and the papers the tests read). */
export const realPapers: boolean = ['WAEC_Physics_2023.md', 'WAEC_Mathematics_2023.md', 'NECO_Mathematics_2023.md', 'ICAN_Foundation_Nov_2023.pdf'].every((f) => existsSync(join(REAL_PAPERS_DIR, f)));

/** Why real-paper tests are skipped, and how to include them (one line). */
export const REAL_PAPERS_SKIP = '../shared/fixtures/real not found beside the checkout: put that optional folder of real exam papers beside the checkout to run these';

/**
 * `describe` for tests that read the real papers: runs them when present, otherwise
 * reports the block as skipped under a name that says why.
 */
export function describeReal(name: string, fn: () => void): void {
  if (realPapers) describe(`real exam papers: ${name}`, fn);
  // the skip carries its reason in its name (and global-setup prints it once): no silent skip
  else describe.skip(`real exam papers (${REAL_PAPERS_SKIP}): ${name}`, fn);
}

/**
 * vitest globalSetup: runs once per `npm test`, in the main process. Prints the one line
 * that says the real-paper tests are skipped and why (test/real-papers.ts).
 */
import { REAL_PAPERS_DIR, REAL_PAPERS_SKIP, realPapers } from './real-papers.js';

export default function setup(): void {
  if (!realPapers) console.log(`\n[hallcbt] Real exam paper tests SKIPPED — ${REAL_PAPERS_SKIP} (looked in ${REAL_PAPERS_DIR}).\n`);
}

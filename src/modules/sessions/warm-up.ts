/**
 * The papers candidates may open, made ready when the hall starts (issue 37's start
 * surge, issue 40 §3): every published exam whose window has not closed gets its paper
 * built and its questions rendered in the render thread (render-cache.ts), in both maths
 * forms — MathML first, which current browsers ask for, then KaTeX HTML. Without this the
 * first starts after a (re)start of the hall — a whole hall resuming after a power cut, or
 * an exam's first minute — wait for the rendering of the whole paper: on the 225-question
 * UTME paper that was the slowest 1 % of a 1,000-candidate start surge (docs/benchmarks.md,
 * "A UTME paper"). The render thread runs at low priority, so serving goes first.
 */
import type { Sqlite } from '../../db/index.js';
import type { MathForm } from '../../core/rich-text.js';
import { renderPaper } from './paper.js';
import type { SessionCache } from './session-cache.js';

/** At most this many exams are made ready (the ones created last): a hall runs a few at a time. */
export const WARM_UP_MAX_EXAMS = 20;
const FORMS: MathForm[] = ['mathml', 'html'];

/**
 * Builds and renders the papers of the published exams not yet closed at `now` (ms since
 * the epoch), the last created first, at most WARM_UP_MAX_EXAMS, one exam and form after
 * another (the render thread does one question at a time anyway).
 * @returns the number of papers made ready; a paper that fails to render is passed to
 *   `failed` and skipped (its first start renders it, and reports the problem, as before)
 */
export async function warmUpOpenPapers(sqlite: Sqlite, sessions: SessionCache, now: number, failed: (examId: string, error: unknown) => void): Promise<number> {
  const open = sqlite
    .prepare('SELECT id FROM exams WHERE is_published = 1 AND (ends_at IS NULL OR ends_at > ?) ORDER BY created_at DESC LIMIT ?')
    .all(now, WARM_UP_MAX_EXAMS) as { id: string }[];
  let ready = 0;
  for (const { id } of open) {
    try {
      for (const form of FORMS) {
        // the paper of this moment: a change meanwhile builds a new one, whose questions the render cache then holds
        const paper = sessions.paper(id);
        if (paper) await renderPaper(paper, form);
      }
      ready++;
    } catch (e) {
      failed(id, e);
    }
  }
  return ready;
}

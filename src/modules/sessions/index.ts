/**
 * Candidate sessions as the hot path holds them (docs/design.md §7, issue 8): the session
 * cache of attempt states and exam papers, so a save touches no database
 * (session-cache.ts), and the paper itself — built once per exam, the candidate's view
 * without any answer-key field (paper.ts), each question's text rendered once per version
 * in a render thread and cached (render-cache.ts, render-thread.ts, rendered-question.ts;
 * the thread's entry file, render-thread-entry.ts, is loaded by URL, not through this
 * door), and written straight to JSON bytes (paper-json.ts); the open exams' papers made
 * ready when the hall starts (warm-up.ts). It reads no request and
 * holds no route; the hall's dependencies hold the cache (src/hall/deps.ts).
 * This file is the module's only door for other code (test/architecture/house.test.ts).
 */
export { SessionCache, type AttemptState } from './session-cache.js';
export { attemptPaper, instructionsHtml, isSectioned, layoutSections, newLayout, renderPaper, type Layout, type Paper } from './paper.js';
export { candidateQuestionsJson } from './paper-json.js';
export { warmUpOpenPapers, WARM_UP_MAX_EXAMS } from './warm-up.js';

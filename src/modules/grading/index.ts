/**
 * The examiner's marking in the hall (issue 7 "Examiner workflow", docs/design.md §7/§10):
 * the essay review queue of an exam and approving or adjusting an essay's score, which
 * re-grades the completed attempt in one transaction (essay-review.ts), one question's
 * calibrated review with group approval (calibrated-review.ts), and their routes
 * (routes.ts). The score rules are the core's (src/core/grading).
 * This file is the module's only door for other code (test/architecture/house.test.ts).
 */
export { essayReviewRoutes } from './routes.js';

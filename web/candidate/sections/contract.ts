/**
 * What passes between the page's script and the subject tabs' own script (issue 37 item 8,
 * "a page built for 180 questions"): the tabs are a separate bundle (scripts/build-web.mjs),
 * fetched only for a paper of two or more sections (exam-pane.ts), which leaves its install
 * function on `window.hallcbtSections`. Until it has arrived, and if it never does, the
 * page shows the paper as one list, as for a paper without sections.
 */
import type { NavItemState } from '../screens/navigator.js';
import type { SectionScore, Session } from '../types.js';

/** What the exam screen gives the tabs. */
export interface SectionsHost {
  /** the session (its questions, in the candidate's order, and `sections` when the server sends them) */
  session: Session;
  /** shows question `index` (0-based, in the paper's order) */
  go(index: number): void;
}

/** What the exam screen keeps of the tabs once installed. */
export interface SectionsHandle {
  /** redraws tabs, the subject's navigator and the question's heading ("Mathematics 1 of 40") */
  update(states: NavItemState[], current: number): void;
}

/**
 * Puts the tabs on the exam screen (#screen-exam of screens/exam-view.ts): the tabs under the
 * top bar, Submit beside the timer, a navigator of the current subject, a layout that keeps
 * the top bar in view, and the submit dialog's lists per subject (filled in when it opens);
 * its stylesheet is linked by the bundle itself.
 */
export type InstallSections = (host: SectionsHost) => SectionsHandle;

/**
 * The result screen's table of scores per subject (`#section-scores`), for a result with
 * `sectionScores` (issue 37's leftovers): in this bundle, so a page without sections never
 * fetches it. `provisional`: essays not marked yet.
 */
export type SectionScoresTable = (scores: SectionScore[], provisional: boolean) => HTMLElement;

/** The window as the tabs' bundle leaves it. */
export interface SectionsWindow {
  hallcbtSections?: InstallSections;
  hallcbtSectionScores?: SectionScoresTable;
}

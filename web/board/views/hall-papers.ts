/**
 * Which version of a paper a hall holds, in the board's words (GET /hub/v1/halls, `exams`;
 * docs/hub.md, "Editing after publication"): an edit before release re-seals the paper for
 * every hall at once, and each hall takes the new package when it next syncs (or from a
 * package file on a USB stick); this says where each hall is and what to do when it lags.
 * Used by the Halls screen and the paper's Publish tab.
 */
import { h } from '../../admin/dom.js';
import type { HallPaperVersion } from '../types.js';

/**
 * The state of one paper at one hall: a short sentence, and whether the board should act.
 * @param onPublishTab true where the sentence sits on the paper's Publish tab (which holds the package files)
 */
export function paperVersionState(x: HallPaperVersion, onPublishTab = false): { text: string; lagging: boolean } {
  const v = (n: number) => `version ${n}`;
  const where = onPublishTab ? 'this tab' : 'Publish & release codes';
  if (x.releasedVersion !== null) return { text: `${v(x.releasedVersion)} released`, lagging: false };
  if (x.sentVersion < x.currentVersion) return { text: `only ${v(x.sentVersion)} was sealed for it; the paper is at ${v(x.currentVersion)}: publish again (${where})`, lagging: true };
  // what the hall reported holding, or a newer one it fetched since its last heartbeat
  const has = x.heldVersion === null && x.deliveredVersion === null ? null : Math.max(x.heldVersion ?? 0, x.deliveredVersion ?? 0);
  if (has === null) return { text: `${v(x.sentVersion)} waiting: the hall has not fetched it yet (it does when online, or load its package file from a USB stick)`, lagging: false };
  if (has < x.currentVersion) return { text: `${x.heldVersion === has ? 'has' : 'fetched'} ${v(has)}, not ${v(x.currentVersion)} yet: it takes the newest when next online; without internet, carry its package file (${onPublishTab ? 'on this row' : where}) on a USB stick`, lagging: true };
  return { text: x.heldVersion === has ? `has ${v(has)} (current)` : `fetched ${v(has)} (current)`, lagging: false };
}

/** How many papers a hall's row lists (the newest by start time); the others are counted. */
const SHOWN = 3;

/** The papers cell of a hall's row: one line per paper, newest last, a lagging one marked. */
export function hallPapersCell(exams: HallPaperVersion[]): HTMLElement {
  if (!exams.length) return h('span', { class: 'muted' }, 'none yet');
  const shown = exams.slice(-SHOWN);
  return h('ul', { class: 'plain hall-papers' },
    exams.length > SHOWN ? h('li', { class: 'muted small' }, `${exams.length - SHOWN} earlier not shown`) : null,
    shown.map((x) => {
      const s = paperVersionState(x);
      return h('li', { 'data-exam-id': x.examId, class: s.lagging ? 'warn' : null }, h('strong', null, x.title), `: ${s.text}`);
    }));
}

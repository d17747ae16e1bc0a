/**
 * One paper: its title and state, and tabs — Questions (the hall's editor and preview),
 * Import (every import the hub reads), Candidates (assignment to halls), Publish (halls,
 * release codes and their printable sheet) and Results (across halls, item analysis,
 * exports). Tabs a role cannot use are not shown.
 */
import { h, replace } from '../../admin/dom.js';
import { formatDateTime } from '../../admin/time.js';
import type { BoardCtx } from '../session.js';
import type { Paper, Role } from '../types.js';
import { renderPaperQuestions } from './paper-questions.js';
import { renderPaperImport } from './paper-import.js';
import { renderCandidates } from './paper-candidates.js';
import { renderPublish } from './paper-publish.js';
import { renderResults } from './paper-results.js';

type Dispose = (() => void) | void;
const TABS: Array<[string, string, Role]> = [['questions', 'Questions', 'viewer'], ['import', 'Import', 'author'], ['candidates', 'Candidates', 'viewer'], ['publish', 'Publish & release codes', 'publisher'], ['results', 'Results', 'viewer']];

/**
 * What the board does when the hub says `republishNeeded` (GET /hub/v1/exams/{id}: the paper
 * changed after its newest publication and the change was not sealed for the halls — edits
 * re-seal at once, so only a paper changed before they did; docs/hub.md, "Editing after
 * publication"), in the board's words: publish again, the codes stay.
 */
export function republishAdvice(paper: Paper, publisher: boolean): string {
  const who = publisher ? 'Open Publish & release codes and press Publish again' : 'Ask a publisher to publish it again';
  return `The halls still have version ${paper.publishedVersion}; this paper is now version ${paper.version}. ${who} before the start time: each hall then gets version ${paper.version} at its next sync (or by a USB package file). The release codes stay the same, so codes already handed out still open it.`;
}

/** Draws the paper `id` with its `tab` into `host`. */
export async function renderPaper(ctx: BoardCtx, host: HTMLElement, id: string, tab: string): Promise<Dispose> {
  const paper = await ctx.api.get<Paper>(`/hub/v1/exams/${encodeURIComponent(id)}`);
  const body = h('div', { id: 'paper-body' });
  const tabs = TABS.filter(([, , role]) => ctx.can(role));
  const state = paper.publishedVersion === null ? 'not published yet' : paper.republishNeeded ? `version ${paper.version}, not yet sent to the halls (they have version ${paper.publishedVersion})` : `version ${paper.version}, published`;
  replace(host,
    h('div', { class: 'page-head' },
      h('div', null, h('p', { class: 'muted' }, h('a', { href: '#/papers' }, '← Papers')), h('h1', { id: 'paper-title' }, paper.title),
        h('p', { class: 'muted' }, `Starts ${formatDateTime(paper.startsAt)} · ${paper.durationMins} minutes · ${paper.questions.length} questions · ${paper.roster.length} candidates · ${state}`),
        paper.republishNeeded ? h('p', { class: 'notice', id: 'republish-needed', role: 'status' }, republishAdvice(paper, ctx.can('publisher'))) : null)),
    h('nav', { class: 'tabs', 'aria-label': 'Paper' }, tabs.map(([t, label]) => h('a', { href: `#/papers/${encodeURIComponent(id)}/${t}`, class: t === tab ? 'tab active' : 'tab', 'data-tab': t, 'aria-current': t === tab ? 'page' : null }, label))),
    body);
  const reload = () => ctx.navigate(`#/papers/${encodeURIComponent(id)}/${tab}`);
  switch (tab) {
    case 'import':
      return renderPaperImport(ctx, body, paper);
    case 'candidates':
      return renderCandidates(ctx, body, paper, reload);
    case 'publish':
      return renderPublish(ctx, body, paper);
    case 'results':
      return renderResults(ctx, body, paper);
    default:
      return renderPaperQuestions(ctx, body, paper, reload);
  }
}

/**
 * Results across halls (GET /hub/v1/exams/{id}/results?offset&limit): received (`received`,
 * every current result, from the API) against expected, per hall (count and mean) and the
 * candidates 100 a page with previous / next (the hub's own marking; a hall's differing claim
 * flagged), the item analysis over every hall (the hall admin page's analysis view on
 * GET …/analysis: "computing…" while the hub computes it, never holding up the results, and
 * asked again only when more results are in) and the exports (results.csv, results.xlsx, whole
 * files). Refreshed every 10 s while open, so results show as halls send them (issue #38 §7).
 */
import { HubPathApi } from '../hub-api.js';
import { h, hiddenHeader, replace } from '../../admin/dom.js';
import type { Ctx } from '../../admin/session.js';
import type { Exam, Workspace } from '../../admin/types.js';
import { errorText, toast } from '../../admin/ui.js';
import { renderAnalysis } from '../../admin/views/analysis.js';
import type { BoardCtx } from '../session.js';
import type { Paper } from '../types.js';
import { pager } from './pager.js';

/** Candidates a page (issue #38 §7: 20,000 candidates a paper). */
const PAGE_SIZE = 100;

interface Results {
  expected: number;
  received: number;
  halls: { hallId: string; hallName: string; results: number; mean: number }[];
  candidates: { hallName: string; studentId: string; candidateName: string; status: string; score: number; maxScore: number; percentage: number; grade: string; pendingReview: boolean; hallClaim: unknown }[];
}

/** Draws the results tab of `paper` into `host`; returns the stop of its refresh. */
export async function renderResults(ctx: BoardCtx, host: HTMLElement, paper: Paper): Promise<() => void> {
  const base = `/hub/v1/exams/${encodeURIComponent(paper.id)}`;
  const summary = h('section', { class: 'card', id: 'results-summary' });
  const analysis = h('section', { class: 'card', id: 'analysis', hidden: true });
  const hallCtx: Ctx = { api: new HubPathApi(ctx.api.apiKey), workspace: { id: '', name: '' } as Workspace, refreshWorkspace: async () => ({}) as Workspace, navigate: ctx.navigate, signOut: ctx.signOut };
  let offset = 0;
  let asked = 0;
  let analysed: number | null = null;
  let analysing = false;
  /** The analysis, unless it is being computed or is of the same count of results already. */
  const analyse = async (received: number) => {
    if (analysing || analysed === received) return;
    analysing = true;
    if (analysed === null) {
      replace(analysis, h('h2', null, 'Item analysis'), h('p', { class: 'muted', id: 'analysis-computing' }, 'Computing… (a paper of many thousand candidates takes some seconds, once for each count of results)'));
      analysis.hidden = false;
    }
    try {
      await renderAnalysis(hallCtx, analysis, { id: paper.id } as Exam);
      analysed = received;
    } finally {
      analysing = false;
      if (analysis.querySelector('#analysis-computing')) analysis.hidden = true; // no analysis (an error): hidden, as before
    }
  };
  const draw = async () => {
    const mine = ++asked;
    const r = await ctx.api.get<Results>(`${base}/results?offset=${offset}&limit=${PAGE_SIZE}`);
    if (mine !== asked) return; // another page was asked for meanwhile
    if (r.received && offset >= r.received) {
      offset = Math.floor((r.received - 1) / PAGE_SIZE) * PAGE_SIZE;
      return draw();
    }
    const received = r.received;
    const go = (to: number) => { offset = to; void draw().catch((e) => toast(errorText(e), 'error')); };
    replace(summary,
      h('div', { class: 'page-head' },
        h('h2', null, 'Results across halls'),
        h('div', { class: 'actions' },
          h('button', { type: 'button', class: 'secondary', id: 'export-csv', onclick: () => void ctx.api.download(`${base}/results.csv`, 'results.csv').catch((e) => toast(errorText(e), 'error')) }, 'Export CSV'),
          h('button', { type: 'button', class: 'secondary', id: 'export-xlsx', onclick: () => void ctx.api.download(`${base}/results.xlsx`, 'results.xlsx').catch((e) => toast(errorText(e), 'error')) }, 'Export Excel'))),
      h('p', { id: 'results-count' }, `${received} of ${r.expected} results in.`),
      r.halls.length
        ? h('table', { class: 'table', id: 'results-halls' },
          h('thead', null, h('tr', null, ['Hall', 'Results', 'Mean %'].map((t) => h('th', null, t)))),
          h('tbody', null, r.halls.map((x) => h('tr', null, h('td', null, x.hallName), h('td', { class: 'num' }, String(x.results)), h('td', { class: 'num' }, String(x.mean))))))
        : h('p', { class: 'empty' }, 'No results yet: they arrive as each hall sends them.'),
      r.candidates.length ? pager('results-pager', offset, PAGE_SIZE, received, go) : null,
      r.candidates.length
        ? h('table', { class: 'table compact', id: 'results-candidates' },
          h('thead', null, h('tr', null, ['Hall', 'Student ID', 'Name', 'Status', 'Score', '%', 'Grade'].map((t) => h('th', null, t)), hiddenHeader('Notes'))),
          h('tbody', null, r.candidates.map((c) => h('tr', null,
            h('td', null, c.hallName), h('td', null, c.studentId), h('td', null, c.candidateName), h('td', null, c.status),
            h('td', { class: 'num' }, `${c.score} / ${c.maxScore}`), h('td', { class: 'num' }, String(c.percentage)), h('td', null, c.grade),
            h('td', { class: 'small' }, [c.pendingReview ? 'essay marks pending' : '', c.hallClaim ? 'the hall’s figures differ' : ''].filter(Boolean).join('; '))))))
        : null);
    void analyse(received).catch(() => undefined);
  };
  await draw();
  replace(host, summary, analysis);
  const timer = window.setInterval(() => void draw().catch(() => undefined), 10_000);
  return () => clearInterval(timer);
}

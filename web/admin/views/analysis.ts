/**
 * Item analysis on the results screen (GET /exams/:id/analysis): per exam the number of
 * candidates, mean, standard deviation and KR-20 reliability; per question the facility
 * index (share correct), the discrimination index (upper vs lower 27%), the point-biserial
 * correlation, the share choosing each option and the examiner hints the server flags
 * (a possibly wrong key, a distractor nobody picks). Hidden when the route is missing.
 */
import { h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam } from '../types.js';

interface OptionShare { optionId: string; keyLabel: string; isCorrect: boolean; count: number; share: number }
interface ItemStatistics {
  questionId: string; number: number; type: string; marks: number;
  facilityIndex: number | null; discriminationIndex: number | null; pointBiserial: number | null;
  options: OptionShare[]; omitted: { count: number; share: number }; flags: string[];
}
/** The analysis document of GET /exams/:id/analysis (members the screen shows). */
export interface ExamAnalysis {
  candidates: number; items: number; maxScore: number;
  mean: number | null; standardDeviation: number | null; kr20: number | null; groupSize: number | null;
  questions: ItemStatistics[];
}

const num = (v: number | null | undefined, d = 2): string => (v === null || v === undefined ? '—' : String(Math.round(v * 10 ** d) / 10 ** d));
const pct = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/** Fetches and draws the analysis into `host` (left hidden on 404 or any error). */
export async function renderAnalysis(ctx: Ctx, host: HTMLElement, exam: Exam): Promise<void> {
  let a: ExamAnalysis;
  try {
    a = await ctx.api.get<ExamAnalysis>(`/exams/${encodeURIComponent(exam.id)}/analysis`);
  } catch {
    return;
  }
  const stat = (label: string, value: string, key: string) => [h('dt', null, label), h('dd', { 'data-stat': key }, value)];
  replace(host,
    h('h2', null, 'Item analysis'),
    h('dl', { class: 'facts inline' },
      stat('Candidates', String(a.candidates), 'candidates'),
      stat('Mean', a.mean === null ? '—' : `${num(a.mean)} / ${num(a.maxScore)}`, 'mean'),
      stat('Std dev', num(a.standardDeviation), 'standardDeviation'),
      stat('KR-20', num(a.kr20, 3), 'kr20')),
    a.questions?.length
      ? h('table', { class: 'table compact', id: 'analysis-table' },
        h('thead', null, h('tr', null, ['#', 'Type', 'Facility', 'Discrimination', 'Point-biserial', 'Chosen by', 'Omitted', 'Notes'].map((t) => h('th', null, t)))),
        h('tbody', null, a.questions.map((q) => h('tr', { 'data-question-id': q.questionId, class: q.flags?.length ? 'row-warn' : null },
          h('td', null, String(q.number)),
          h('td', null, q.type),
          h('td', { class: 'num', 'data-field': 'facility' }, num(q.facilityIndex)),
          h('td', { class: 'num', 'data-field': 'discrimination' }, num(q.discriminationIndex)),
          h('td', { class: 'num' }, num(q.pointBiserial)),
          h('td', { class: 'small' }, (q.options ?? []).map((o, i) => h('span', { class: o.isCorrect ? 'share key-share' : 'share' }, i ? ' · ' : '', `${o.keyLabel} ${pct(o.share)}`, o.isCorrect ? ' ✓' : ''))),
          h('td', { class: 'num' }, q.omitted ? pct(q.omitted.share) : '—'),
          h('td', { class: 'small' }, (q.flags ?? []).join('; '))))))
      : h('p', { class: 'muted' }, 'No marked attempts to analyse yet.'),
    h('p', { class: 'muted small' }, 'Facility = share of candidates scoring the item; discrimination compares the top and bottom 27% of candidates (0.2 or more is good); a negative value or a popular wrong option suggests a wrong key. KR-20 near 0.7 or above means the paper ranks candidates consistently.'));
  host.hidden = false;
}

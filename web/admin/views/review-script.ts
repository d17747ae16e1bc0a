/**
 * One script on the calibrated review screen (review-question.ts): the candidate, the
 * script as text (never as markup), the recommendation with its confidence in words and
 * colour (never colour alone), and the examiner's marks per criterion, approved through
 * POST /attempts/:id/essay-scores/:questionId (the single approval, audited). A script to
 * mark first shows no recommendation: the examiner marks it unprompted, and the engine
 * learns that examiner's scale from it (docs/decisions.md, "The review screen marks one
 * question at a time, calibrated").
 */
import { field, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Criterion } from '../types.js';
import { errorBlock, toast } from '../ui.js';

export type Confidence = 'high' | 'medium' | 'low';

/** A recommendation of GET /exams/:id/essay-review/:questionId/recommendations. */
export interface Recommendation {
  attemptId: string;
  totalScore: number;
  criteriaScores: Array<{ criterionId: string; score: number; maxMarks: number; feedback: string }>;
  confidence: Confidence;
  calibrated: boolean;
}

/** A script of that response (its text comes from the essay queue). */
export interface ScriptRow {
  attemptId: string;
  studentId: string;
  candidateName: string;
  wordCount: number;
  awardedMarks: number | null;
}

/** What a card shows and does. */
export interface ScriptCardOptions {
  script: ScriptRow;
  text: string;
  questionId: string;
  criteria: Criterion[];
  marks: number;
  engine: string | null;
  /** the recommendation (none for a script to mark first) */
  rec: Recommendation | null;
  /** place in the "Mark these first" list (1-based) */
  markFirstPlace?: number;
  markFirstCount?: number;
  /** the "Read" box of a high-confidence recommendation: its state and what ticking it does */
  read?: { checked: boolean; onChange: (checked: boolean) => void };
  /** after the approval is stored (the screen re-asks for recommendations) */
  onApproved: () => void;
}

/** The confidence badge: colour plus the word. */
export function confidenceBadge(c: Confidence): HTMLElement {
  return h('span', { class: `badge conf conf-${c}`, 'data-confidence': c }, `${c} confidence`);
}

/** What a group approval (or the single one) sends for a recommendation taken as it is. */
export function recommendedMarks(rec: Recommendation, criteria: Criterion[], engine: string | null): Record<string, unknown> {
  const recommended = { engine, totalScore: rec.totalScore, confidence: rec.confidence, calibrated: rec.calibrated };
  return criteria.length
    ? { criteriaScores: rec.criteriaScores.map((c) => ({ criterionId: c.criterionId, score: c.score })), recommended }
    : { score: rec.totalScore, recommended };
}

/** One script card with its marking form. */
export function scriptCard(ctx: Ctx, o: ScriptCardOptions): HTMLElement {
  const { script, rec, criteria } = o;
  const byId = new Map((rec?.criteriaScores ?? []).map((c) => [c.criterionId, c.score]));
  const scoreInputs = criteria.map((c) => h('input', { type: 'number', class: 'criterion-score', min: 0, max: c.maxMarks, step: 0.5, required: true, 'data-criterion-id': c.id ?? '', 'aria-label': `${c.title} (max ${c.maxMarks})`, value: byId.get(c.id ?? '') ?? '' }));
  const whole = h('input', { type: 'number', class: 'criterion-score', name: 'score', min: 0, max: o.marks, step: 0.5, required: true, value: rec && !criteria.length ? rec.totalScore : '' });
  const total = h('strong', { class: 'review-total' });
  const sum = () => (criteria.length ? scoreInputs.reduce((s, i) => s + (Number(i.value) || 0), 0) : Number(whole.value) || 0);
  const updateTotal = () => replace(total, `${sum()} / ${o.marks}`);
  [...scoreInputs, whole].forEach((i) => i.addEventListener('input', updateTotal));
  updateTotal();
  const errorHost = h('div');
  const approve = h('button', { type: 'submit', class: 'primary', 'data-action': 'approve' }, rec ? 'Approve' : 'Save my mark');

  const form = h('form', { class: 'stack script-form' },
    criteria.length
      ? h('table', { class: 'table compact' }, h('thead', null, h('tr', null, h('th', null, 'Criterion'), h('th', null, 'Score'))),
        h('tbody', null, criteria.map((c, i) => h('tr', null, h('td', null, c.title, h('br'), h('small', { class: 'muted' }, `max ${c.maxMarks}`)), h('td', null, scoreInputs[i])))))
      : field(`Score (0–${o.marks})`, whole),
    errorHost,
    h('div', { class: 'actions' }, h('span', null, 'Total ', total), approve));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    approve.disabled = true;
    try {
      const body: Record<string, unknown> = criteria.length
        ? { criteriaScores: criteria.map((c, i) => ({ criterionId: c.id ?? c.title, score: Number(scoreInputs[i]!.value) })) }
        : { score: Number(whole.value) };
      if (rec) body.recommended = recommendedMarks(rec, criteria, o.engine).recommended;
      const r = await ctx.api.post<{ awardedMarks: number; score: number; maxScore: number; grade: string }>(`/attempts/${encodeURIComponent(script.attemptId)}/essay-scores/${encodeURIComponent(o.questionId)}`, body);
      toast(`${script.candidateName}: ${r.awardedMarks} / ${o.marks} approved; now ${r.score} / ${r.maxScore}, grade ${r.grade}.`);
      o.onApproved();
    } catch (err) {
      replace(errorHost, errorBlock(err));
      approve.disabled = false;
    }
  });

  const readBox = o.read
    ? h('label', { class: 'read-check' },
      h('input', { type: 'checkbox', checked: o.read.checked, 'data-action': 'read', onchange: (ev: Event) => o.read!.onChange((ev.target as HTMLInputElement).checked) }),
      ' Read: I have read this script and agree with its recommendation')
    : null;
  const recLine = rec
    ? h('p', { class: 'rec-line' }, confidenceBadge(rec.confidence), h('strong', { 'data-field': 'recommended' }, `Recommended ${rec.totalScore} / ${o.marks}`),
      h('span', { class: 'muted' }, rec.calibrated ? ' · fitted to your marks on this question' : ' · the engine alone, not yet fitted to your marks'))
    : null;
  return h('article', { class: `review-item script-card${rec ? ` rec-${rec.confidence}` : ''}`, 'data-attempt-id': script.attemptId },
    h('header', { class: 'q-head' },
      o.markFirstPlace ? h('span', { class: 'badge mark-first' }, `Mark first: ${o.markFirstPlace} of ${o.markFirstCount}`) : null,
      h('span', null, h('strong', null, script.candidateName), ` · ${script.studentId}`),
      h('span', { class: 'muted' }, `${script.wordCount} words`)),
    recLine,
    h('div', { class: 'review-grid' },
      h('div', { class: 'essay-answer', tabindex: 0, role: 'group', 'aria-label': `${script.candidateName}’s answer` }, o.text),
      h('div', { class: 'stack' }, form, readBox)));
}

/**
 * Essay review (docs/design.md §10): the queue of essay answers of an exam
 * (GET /exams/:id/essay-reviews?status=pending|reviewed|all). For each answer: the
 * question, model answer and rubric, the candidate's text (shown as text, never as
 * markup) with its word count, a recommended score per criterion from
 * POST /api/cbt/ai/grade-essay (its notes shown to the examiner apart from the comments
 * the candidate sees, which it never fills in), and the examiner's approved or adjusted score, sent to
 * POST /attempts/:id/essay-scores/:questionId, which re-scores the attempt (audited).
 * Links at the top open one question's calibrated review (review-question.ts).
 */
import { field, h, replace, rich } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Criterion, Exam, Rubric } from '../types.js';
import { errorBlock, errorText, toast } from '../ui.js';

interface QueueItem {
  attemptId: string; studentId: string; candidateName: string; completedAt: string | null;
  questionId: string; prompt: string; marks: number; minWords: number | null; maxWords: number | null;
  modelAnswer: string | null; rubric: Rubric | null; text: string; wordCount: number;
  review: { awardedMarks: number | null; criteriaScores?: Array<{ criterionId: string; score: number; feedback?: string }>; feedback?: string } | null;
}
interface Evaluation {
  criteriaScores: Array<{ criterionId: string; score: number; maxMarks: number; feedback: string }>;
  totalScore: number; maxScore: number; overallComment: string; strengths: string[]; areasForImprovement: string[];
}

type Filter = 'pending' | 'reviewed' | 'all';

/** Draws the review tab. */
export async function renderReview(ctx: Ctx, host: HTMLElement, exam: Exam, filter: Filter = 'pending'): Promise<void> {
  const queue = await ctx.api.get<QueueItem[]>(`/exams/${encodeURIComponent(exam.id)}/essay-reviews?status=${filter}`);
  const select = h('select', { id: 'review-filter', 'aria-label': 'Show' }, (['pending', 'reviewed', 'all'] as Filter[]).map((f) => h('option', { value: f, selected: f === filter }, f === 'pending' ? 'Awaiting review' : f === 'reviewed' ? 'Reviewed' : 'All')));
  select.addEventListener('change', () => void renderReview(ctx, host, exam, select.value as Filter).catch((err) => toast(errorText(err), 'error')));
  const order = new Map((exam.questions ?? []).map((q, i) => [q.id, i + 1]));
  const essays = (exam.questions ?? []).filter((q) => q.id && (q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY'));
  replace(host,
    essays.length
      ? h('nav', { class: 'review-by-question', 'aria-label': 'Mark one question with recommendations' },
        h('span', null, 'Mark one question at a time, with recommendations that learn from your marks: '),
        essays.map((q) => h('a', { href: `#/exams/${encodeURIComponent(exam.id)}/review/${encodeURIComponent(q.id!)}`, 'data-question-id': q.id, class: 'link-button' }, `Question ${order.get(q.id) ?? ''}`)))
      : null,
    h('div', { class: 'page-head' }, h('p', { class: 'muted', id: 'review-summary' }, `${queue.length} essay answer${queue.length === 1 ? '' : 's'} ${filter === 'pending' ? 'awaiting review' : filter === 'reviewed' ? 'reviewed' : 'in all'}.`), h('label', { class: 'inline-form' }, 'Show ', select)),
    queue.length ? queue.map((it) => reviewItem(ctx, exam, it, order.get(it.questionId) ?? 0, () => void renderReview(ctx, host, exam, filter))) : h('p', { class: 'empty' }, filter === 'pending' ? 'Nothing to review.' : 'No essays here.'));
}

/**
 * The engine's recommendation as notes for the examiner, apart from the comment the
 * candidate sees: the total, each criterion's note, strengths and what to improve.
 */
function engineNotes(e: Evaluation, engine: string, criteria: Criterion[]): HTMLElement {
  const title = new Map(criteria.map((c) => [c.id ?? c.title, c.title]));
  const notes = e.criteriaScores.filter((c) => c.feedback.trim());
  return h('div', { class: 'engine-notes', role: 'note' },
    h('p', null, h('strong', null, 'Notes for the examiner'), ' (not shown to the candidate). ', h('strong', null, `Recommended ${e.totalScore} / ${e.maxScore}`), ` by ${engine}. `, e.overallComment),
    notes.length ? h('ul', null, notes.map((c) => h('li', null, h('strong', null, `${title.get(c.criterionId) ?? c.criterionId} (${c.score} / ${c.maxMarks}): `), c.feedback))) : null,
    e.strengths.length ? h('p', null, h('strong', null, 'Strengths: '), e.strengths.join('; ')) : null,
    e.areasForImprovement.length ? h('p', null, h('strong', null, 'To improve: '), e.areasForImprovement.join('; ')) : null);
}

/** One answer with its scoring form. */
function reviewItem(ctx: Ctx, exam: Exam, it: QueueItem, number: number, reload: () => void): HTMLElement {
  const criteria: Criterion[] = it.rubric?.criteria ?? [];
  const prior = new Map((it.review?.criteriaScores ?? []).map((c) => [c.criterionId, c]));
  let recommended: Evaluation | null = null;
  const scoreInputs = criteria.map((c) => h('input', { type: 'number', class: 'criterion-score', min: 0, max: c.maxMarks, step: 0.5, required: true, 'data-criterion-id': c.id ?? '', value: prior.get(c.id ?? '')?.score ?? '' }));
  const feedbackInputs = criteria.map((c) => h('input', { type: 'text', class: 'criterion-feedback', value: prior.get(c.id ?? '')?.feedback ?? '', 'aria-label': `Feedback on ${c.title}` }));
  const whole = h('input', { type: 'number', class: 'criterion-score', name: 'score', min: 0, max: it.marks, step: 0.5, required: true, value: it.review?.awardedMarks ?? '' });
  const feedback = h('textarea', { name: 'feedback', rows: 2, placeholder: 'Comment for the candidate (optional; you write it)' }, it.review?.feedback ?? '');
  const total = h('strong', { class: 'review-total' });
  const sum = () => (criteria.length ? scoreInputs.reduce((s, i) => s + (Number(i.value) || 0), 0) : Number(whole.value) || 0);
  const updateTotal = () => replace(total, `${sum()} / ${it.marks}`);
  [...scoreInputs, whole].forEach((i) => i.addEventListener('input', updateTotal));
  const recHost = h('div', { class: 'recommendation' });
  const errorHost = h('div');

  const recommend = h('button', { type: 'button', class: 'secondary small', 'data-action': 'recommend' }, 'Recommend a score');
  recommend.addEventListener('click', async () => {
    replace(errorHost);
    recommend.disabled = true;
    try {
      const rubricCriteria = criteria.length
        ? criteria.map((c) => ({ id: c.id ?? c.title, title: c.title, maxMarks: c.maxMarks, ...(c.description ? { description: c.description } : {}) }))
        : [{ id: 'overall', title: 'Overall quality', maxMarks: it.marks }];
      const res = await ctx.api.post<{ engine: string; evaluation: Evaluation }>('/api/cbt/ai/grade-essay', {
        questionPrompt: it.prompt, studentResponse: it.text, modelAnswer: it.modelAnswer || it.prompt, rubricCriteria, maxMarks: it.marks,
        ...(it.minWords ? { minWords: it.minWords } : {}), ...(it.maxWords ? { maxWords: it.maxWords } : {}),
      });
      recommended = res.evaluation;
      const byId = new Map(recommended.criteriaScores.map((c) => [c.criterionId, c]));
      // the scores are filled in; the engine's words stay in the examiner's notes, never in the candidate's comments
      criteria.forEach((c, i) => {
        const r = byId.get(c.id ?? c.title);
        if (r) scoreInputs[i]!.value = String(r.score);
      });
      if (!criteria.length) whole.value = String(recommended.totalScore);
      updateTotal();
      replace(recHost, engineNotes(recommended, res.engine, criteria));
    } catch (err) {
      replace(errorHost, errorBlock(err));
    } finally {
      recommend.disabled = false;
    }
  });

  const form = h('form', { class: 'stack' },
    criteria.length
      ? h('table', { class: 'table compact' }, h('thead', null, h('tr', null, ['Criterion', 'Score', 'Feedback'].map((t) => h('th', null, t)))),
        h('tbody', null, criteria.map((c, i) => h('tr', null, h('td', null, c.title, h('br'), h('small', { class: 'muted' }, `max ${c.maxMarks}`)), h('td', null, scoreInputs[i]), h('td', null, feedbackInputs[i])))))
      : field(`Score (0–${it.marks})`, whole),
    field('Comment', feedback),
    recHost, errorHost,
    h('div', { class: 'actions' }, h('span', null, 'Total ', total), recommend, h('button', { type: 'submit', class: 'primary', 'data-action': 'approve' }, it.review ? 'Save new score' : 'Approve score')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    try {
      const body: Record<string, unknown> = criteria.length
        ? { criteriaScores: criteria.map((c, i) => ({ criterionId: c.id ?? c.title, score: Number(scoreInputs[i]!.value), ...(feedbackInputs[i]!.value ? { feedback: feedbackInputs[i]!.value } : {}) })) }
        : { score: Number(whole.value) };
      if (feedback.value.trim()) body.feedback = feedback.value.trim();
      if (recommended) body.recommended = recommended;
      const r = await ctx.api.post<{ score: number; maxScore: number; grade: string }>(`/attempts/${encodeURIComponent(it.attemptId)}/essay-scores/${encodeURIComponent(it.questionId)}`, body);
      toast(`${it.candidateName}: now ${r.score} / ${r.maxScore}, grade ${r.grade}.`);
      reload();
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  });
  updateTotal();

  const bounds = it.minWords || it.maxWords ? ` (asked for ${it.minWords ?? 0}–${it.maxWords ?? '∞'})` : '';
  return h('article', { class: 'review-item', 'data-attempt-id': it.attemptId, 'data-question-id': it.questionId },
    h('header', { class: 'q-head' }, h('span', { class: 'q-number' }, `Question ${number}`), h('span', null, `${it.candidateName} · ${it.studentId}`), h('span', { class: 'q-marks' }, `${it.marks} marks`),
      it.review ? h('span', { class: 'badge ok' }, `reviewed: ${it.review.awardedMarks}`) : h('span', { class: 'badge warn' }, 'awaiting review')),
    h('div', { class: 'q-prompt' }, rich(it.prompt)),
    h('div', { class: 'review-grid' },
      h('div', null,
        h('div', { class: 'field-label' }, `Candidate’s answer — ${it.wordCount} words${bounds}`),
        h('div', { class: 'essay-answer' }, it.text),
        it.modelAnswer ? h('details', null, h('summary', null, 'Model answer'), rich(it.modelAnswer)) : null),
      form));
}

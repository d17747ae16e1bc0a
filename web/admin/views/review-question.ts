/**
 * One essay question marked with calibrated recommendations (issue 39 §1; docs/decisions.md,
 * "The review screen marks one question at a time, calibrated"), at
 * #/exams/:id/review/:questionId. GET /exams/:id/essay-review/:questionId/recommendations
 * gives the question's scripts, the ones to mark first and a recommendation per unmarked
 * script; the scripts' texts come from the essay queue (GET /exams/:id/essay-reviews?questionId=).
 * The screen asks for the "Mark these first" scripts in order, shows every other script's
 * recommendation with its confidence, asks again after every approval (an "Updating"
 * state meanwhile), and offers "Approve all N high-confidence recommendations" once the
 * examiner has ticked "Read" on each of them, after a confirmation stating how many and
 * the marks in all (POST …/approve: one request, one audit row per script).
 */
import { h, replace, rich } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam } from '../types.js';
import { confirmDialog, errorBlock, errorText, toast } from '../ui.js';
import { recommendedMarks, scriptCard, type Recommendation, type ScriptRow } from './review-script.js';

interface QuestionReview {
  engine: string | null;
  maxMarks: number;
  markFirst: string[];
  scripts: ScriptRow[];
  recommendations: Recommendation[];
}

const RANK = { high: 0, medium: 1, low: 2 } as const;
/** Marks after which the scripts to mark are "next" rather than "first" (the engine's markFirst asks for three to begin). */
const FIRST = 3;

/** Draws the screen for `questionId` of `exam`. */
export async function renderQuestionReview(ctx: Ctx, host: HTMLElement, exam: Exam, questionId: string): Promise<void> {
  const index = (exam.questions ?? []).findIndex((q) => q.id === questionId && (q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY'));
  const back = h('a', { href: `#/exams/${encodeURIComponent(exam.id)}/review`, class: 'back' }, '← All essay answers');
  if (index < 0) {
    replace(host, back, h('p', { class: 'empty' }, 'This exam has no such essay question.'));
    return;
  }
  const q = exam.questions![index]!;
  const criteria = q.rubric?.criteria ?? [];
  const base = `/exams/${encodeURIComponent(exam.id)}/essay-review/${encodeURIComponent(questionId)}`;
  const texts = new Map<string, string>();
  const loadTexts = async () => {
    const items = await ctx.api.get<Array<{ attemptId: string; questionId: string; text: string }>>(`/exams/${encodeURIComponent(exam.id)}/essay-reviews?status=all&questionId=${encodeURIComponent(questionId)}`);
    for (const it of items) if (it.questionId === questionId) texts.set(it.attemptId, it.text);
  };
  // a tick stands for the script and the recommendation read: a changed recommendation must be read again
  const read = new Set<string>();
  const readKey = (r: Recommendation) => `${r.attemptId}@${r.totalScore}`;

  const updating = h('p', { id: 'review-updating', class: 'updating', role: 'status', hidden: true }, 'Updating recommendations…');
  const progress = h('p', { id: 'review-progress' });
  const lists = h('div', { id: 'review-lists' });
  const groupHost = h('div', { id: 'group-approve', class: 'group-approve' });

  let asked = 0;
  const refresh = async () => {
    const mine = ++asked;
    updating.hidden = false;
    lists.setAttribute('aria-busy', 'true');
    lists.classList.add('is-updating');
    for (const b of Array.from(lists.querySelectorAll('button'))) b.disabled = true;
    try {
      const d = await ctx.api.get<QuestionReview>(`${base}/recommendations`);
      if (d.scripts.some((s) => !texts.has(s.attemptId))) await loadTexts();
      if (mine !== asked) return; // a later approval asked again: its answer counts
      const y = window.scrollY;
      draw(d);
      window.scrollTo(0, y);
    } catch (err) {
      if (mine === asked) replace(lists, errorBlock(err));
    } finally {
      if (mine === asked) {
        updating.hidden = true;
        lists.removeAttribute('aria-busy');
        lists.classList.remove('is-updating');
      }
    }
  };
  const approved = () => void refresh();

  /** The group bar: the button is live once every high-confidence recommendation is ticked read. */
  const drawGroup = (high: Recommendation[], d: QuestionReview) => {
    if (!high.length) {
      replace(groupHost, h('p', { class: 'muted' }, 'No high-confidence recommendation yet: they come once you have marked five scripts and a script is close to one you marked.'));
      return;
    }
    const done = high.filter((r) => read.has(readKey(r))).length;
    // the marks the approvals store: the criteria's scores where the question has a rubric
    const marks = high.reduce((s, r) => s + (criteria.length ? r.criteriaScores.reduce((t, c) => t + c.score, 0) : r.totalScore), 0);
    const button = h('button', { type: 'button', class: 'primary', id: 'approve-group', disabled: done < high.length }, high.length === 1 ? 'Approve the 1 high-confidence recommendation' : `Approve all ${high.length} high-confidence recommendations`);
    button.addEventListener('click', async () => {
      const ok = await confirmDialog(`Approve ${high.length} recommendation${high.length === 1 ? '' : 's'}?`,
        h('p', { id: 'group-confirm-text' }, `This approves the recommended marks of ${high.length} script${high.length === 1 ? '' : 's'}: ${marks} marks in all, out of ${high.length * d.maxMarks}. Each candidate’s attempt is re-graded and each approval is written to the audit log.`),
        `Approve ${high.length}`, false);
      if (!ok) return;
      button.disabled = true;
      try {
        await ctx.api.post(`${base}/approve`, { approvals: high.map((r) => ({ attemptId: r.attemptId, ...recommendedMarks(r, criteria, d.engine) })), reason: 'High-confidence recommendations read and approved as a group' });
        toast(`${high.length} script${high.length === 1 ? '' : 's'} approved, ${marks} marks in all.`);
        await refresh();
      } catch (err) {
        toast(errorText(err), 'error');
        button.disabled = false;
      }
    });
    replace(groupHost, button,
      h('span', { class: 'muted', id: 'group-read-count' }, done < high.length ? ` Tick “Read” on each high-confidence script first: ${done} of ${high.length} read.` : ` All ${high.length} read: ${marks} marks in all.`));
  };

  const draw = (d: QuestionReview) => {
    const recs = new Map(d.recommendations.map((r) => [r.attemptId, r]));
    const known = new Set(d.scripts.map((s) => s.attemptId));
    const first = d.markFirst.filter((id) => known.has(id));
    const marked = d.scripts.filter((s) => s.awardedMarks !== null);
    const open = d.scripts.filter((s) => s.awardedMarks === null && !first.includes(s.attemptId) && recs.has(s.attemptId))
      .sort((a, b) => RANK[recs.get(a.attemptId)!.confidence] - RANK[recs.get(b.attemptId)!.confidence]);
    const high = open.map((s) => recs.get(s.attemptId)!).filter((r) => r.confidence === 'high');
    const card = (s: ScriptRow, extra: { place?: number; rec?: Recommendation }) => scriptCard(ctx, {
      script: s, text: texts.get(s.attemptId) ?? '', questionId, criteria, marks: d.maxMarks, engine: d.engine, rec: extra.rec ?? null,
      markFirstPlace: extra.place, markFirstCount: first.length, onApproved: approved,
      read: extra.rec?.confidence === 'high'
        ? { checked: read.has(readKey(extra.rec)), onChange: (v) => { if (v) read.add(readKey(extra.rec!)); else read.delete(readKey(extra.rec!)); drawGroup(high, d); } }
        : undefined,
    });
    replace(progress, h('strong', null, `${marked.length} of ${d.scripts.length} scripts marked. `),
      marked.length ? `The recommendations are fitted to your ${marked.length} mark${marked.length === 1 ? '' : 's'} and change after each approval.` : 'The recommendations learn your scale from the scripts you mark first.');
    drawGroup(high, d);
    replace(lists,
      !d.scripts.length ? h('p', { class: 'empty' }, 'No candidate has answered this question yet.') : null,
      first.length
        ? h('section', { id: 'mark-first', 'aria-labelledby': 'mark-first-title' },
          h('h2', { id: 'mark-first-title' }, marked.length < FIRST ? 'Mark these first' : 'Mark these next'),
          h('p', { class: 'muted' }, marked.length < FIRST
            ? `Mark these ${first.length} yourself, in this order: a strong, a middling and a weak script teach the recommendations your scale. No recommendation is shown for them.`
            : `The recommendations know least about these ${first.length}: your marks on them improve the rest. No recommendation is shown for them.`),
          first.map((id, i) => card(d.scripts.find((s) => s.attemptId === id)!, { place: i + 1 })))
        : null,
      open.length
        ? h('section', { id: 'recommended', 'aria-labelledby': 'recommended-title' },
          h('h2', { id: 'recommended-title' }, `Recommendations (${open.length})`),
          groupHost,
          open.map((s) => card(s, { rec: recs.get(s.attemptId)! })))
        : null,
      d.scripts.length && !first.length && !open.length ? h('p', { class: 'empty', id: 'all-marked' }, 'Every script of this question is marked.') : null,
      marked.length
        ? h('section', { id: 'marked', 'aria-labelledby': 'marked-title' },
          h('h2', { id: 'marked-title' }, `Marked (${marked.length})`),
          h('ul', { class: 'marked-list' }, marked.map((s) => h('li', { 'data-attempt-id': s.attemptId }, `${s.candidateName} · ${s.studentId}: `, h('strong', null, `${s.awardedMarks} / ${d.maxMarks}`)))),
          h('p', { class: 'muted' }, 'To change a mark, use ', h('a', { href: `#/exams/${encodeURIComponent(exam.id)}/review` }, 'all essay answers'), ' (Show: Reviewed).'))
        : null);
  };

  replace(host,
    h('div', { class: 'page-head' }, back, updating),
    h('section', { class: 'review-question', 'data-question-id': questionId },
      h('header', { class: 'q-head' }, h('span', { class: 'q-number' }, `Question ${index + 1}`), h('span', { class: 'q-marks' }, `${q.marks} marks`)),
      h('div', { class: 'q-prompt' }, rich(q.prompt)),
      q.modelAnswer ? h('details', null, h('summary', null, 'Model answer'), rich(q.modelAnswer)) : null,
      criteria.length ? h('details', null, h('summary', null, 'Marking guide'), h('ul', null, criteria.map((c) => h('li', null, h('strong', null, `${c.title} (${c.maxMarks}): `), c.description ?? '')))) : null),
    progress,
    lists);
  await loadTexts();
  await refresh();
}

/**
 * A question drawn the way the candidate page shows it (prompt, marks, lettered options,
 * essay box with its word guidance), all question text through renderRich. In the
 * examiner's view the correct option is marked; candidates never receive that flag.
 */
import { h, rich } from './dom.js';
import type { Question } from './types.js';

/** Default essay word bounds (docs/design.md §6). */
export const ESSAY_WORDS = { SHORT_ESSAY: [20, 100], LONG_ESSAY: [150, 800] } as const;

/** Labels A, B, C… for option positions. */
export function keyLabel(i: number): string {
  return String.fromCharCode(65 + i);
}

/** Word guidance for an essay ("Write 20–100 words."). */
export function wordGuidance(q: Question): string {
  const d = q.type === 'LONG_ESSAY' ? ESSAY_WORDS.LONG_ESSAY : ESSAY_WORDS.SHORT_ESSAY;
  return `Write ${q.minWords ?? d[0]}–${q.maxWords ?? d[1]} words.`;
}

/**
 * Renders one question. `number` is the 1-based position; `showKey` marks the correct
 * option (examiner view).
 */
export function questionView(q: Question, number: number, showKey = true): HTMLElement {
  const marks = `${q.marks} mark${q.marks === 1 ? '' : 's'}`;
  const isEssay = q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY';
  return h('article', { class: 'question-card q-preview' },
    h('header', { class: 'q-head' }, h('span', { class: 'q-number' }, `Question ${number}`), q.section ? h('span', { class: 'q-section' }, q.section) : null, h('span', { class: 'q-marks' }, marks)),
    h('div', { class: 'q-prompt' }, rich(q.prompt)),
    isEssay
      ? h('div', { class: 'q-essay' }, h('div', { class: 'essay-box', 'aria-hidden': 'true' }), h('small', { class: 'muted' }, wordGuidance(q)))
      : h('ol', { class: 'q-options' }, (q.options ?? []).map((o, i) => {
        const correct = showKey && o.isCorrect;
        return h('li', { class: correct ? 'q-option correct' : 'q-option', 'data-correct': correct ? 'true' : null },
          h('span', { class: 'key' }, o.keyLabel || keyLabel(i)),
          rich(o.text, true),
          correct ? h('span', { class: 'correct-mark', title: 'Correct answer' }, '✓ correct') : null);
      })));
}

/** Examiner-only extras: explanation, model answer and rubric of a question. */
export function questionExtras(q: Question): HTMLElement | null {
  const parts: HTMLElement[] = [];
  if (q.explanation) parts.push(h('div', { class: 'q-extra' }, h('strong', null, 'Explanation: '), rich(q.explanation)));
  if (q.modelAnswer) parts.push(h('div', { class: 'q-extra' }, h('strong', null, 'Model answer: '), rich(q.modelAnswer)));
  if (q.rubric?.criteria?.length) {
    parts.push(h('div', { class: 'q-extra' }, h('strong', null, `Rubric: ${q.rubric.name} (${q.rubric.totalMarks} marks)`),
      h('ul', null, q.rubric.criteria.map((c) => h('li', null, `${c.title} — ${c.maxMarks}`, c.description ? h('span', { class: 'muted' }, ` · ${c.description}`) : null)))));
  }
  if (q.difficulty || q.citation) parts.push(h('p', { class: 'muted small' }, [q.difficulty, q.citation].filter(Boolean).join(' · ')));
  return parts.length ? h('div', { class: 'q-extras' }, parts) : null;
}

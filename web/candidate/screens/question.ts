/**
 * One question on screen (issue 4 point 3): the prompt and options as the server rendered
 * them from Markdown + LaTeX, sanitised (`promptHtml`, option `html`: src/core/rich-text.ts,
 * issue 26; the page ships no renderer and no sanitiser, and a question without them, from a
 * session kept by an older release, shows its text as plain text), MCQ/TRUE_FALSE options as large radio targets labelled A, B, C…, essays as a
 * text area with a live word count against minWords/maxWords, and the save state
 * ("saved" / "saving…" / "offline — kept on this computer").
 */
import type { SaveState } from '../answers.js';
import { countWords, h } from '../dom.js';
import type { SessionQuestion } from '../types.js';

export interface QuestionContext {
  index: number;
  total: number;
  answer: { optionId?: string | null; text?: string | null } | undefined;
  flagged: boolean;
  onChoose(optionId: string): void;
  onText(text: string): void;
  /** the text area lost focus: send at once */
  onTextDone(): void;
}

const SAVE_TEXT: Record<SaveState, string> = {
  none: 'Not answered',
  saved: 'Saved',
  saving: 'Saving…',
  offline: 'Offline — kept on this computer',
};

/** Updates the save-state badge of the question on screen. */
export function showSaveState(el: HTMLElement | null, state: SaveState): void {
  if (!el || el.getAttribute('data-state') === state) return;
  el.setAttribute('data-state', state);
  el.textContent = SAVE_TEXT[state];
}

function isEssay(q: SessionQuestion): boolean {
  return q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY';
}

/** Word-count line for an essay: count, the asked range, and whether it is met. */
export function wordCountText(words: number, min?: number | null, max?: number | null): { text: string; state: 'ok' | 'under' | 'over' } {
  const range = min && max ? `${min}–${max} words` : min ? `at least ${min} words` : max ? `at most ${max} words` : '';
  const label = `${words} word${words === 1 ? '' : 's'}`;
  if (max && words > max) return { text: `${label} — over the limit of ${max}`, state: 'over' };
  if (min && words < min) return { text: `${label} — write ${range}`, state: 'under' };
  return { text: range ? `${label} — within ${range}` : label, state: 'ok' };
}

/** Builds the question section. */
export function renderQuestion(q: SessionQuestion, ctx: QuestionContext): HTMLElement {
  const marks = Number(q.marks) || 0;
  const head = h(
    'div.qhead',
    {},
    h('h2', { id: 'q-title', tabindex: '-1' }, `Question ${ctx.index + 1}`, h('span.of', {}, ` of ${ctx.total}`)),
    h('span.marks', {}, `${marks} mark${marks === 1 ? '' : 's'}`),
    q.section ? h('span.section-name', {}, String(q.section)) : null,
    ctx.flagged ? h('span.flag-badge', {}, 'Flagged for review') : null,
    h('span.save-state', { id: 'save-state', role: 'status', 'data-state': '' }),
  );
  const prompt = typeof q.promptHtml === 'string' ? h('div.prompt.rich', { id: 'q-prompt', html: q.promptHtml }) : h('div.prompt.rich', { id: 'q-prompt' }, h('p', {}, q.prompt || ''));
  const body = isEssay(q) ? essayArea(q, ctx) : optionList(q, ctx);
  return h('section.question', { 'aria-labelledby': 'q-title', 'data-question-id': q.id, 'data-type': q.type }, head, prompt, body);
}

function optionList(q: SessionQuestion, ctx: QuestionContext): HTMLElement {
  const chosen = ctx.answer && ctx.answer.optionId;
  const fieldset = h('fieldset.options', {}, h('legend.visually-hidden', {}, `Choose one answer for question ${ctx.index + 1}`));
  for (const o of q.options || []) {
    const input = h('input', { type: 'radio', name: 'answer', id: 'opt-' + o.id, value: o.id, checked: o.id === chosen }) as HTMLInputElement;
    input.addEventListener('change', () => {
      if (input.checked) {
        markChosen(fieldset, o.id);
        ctx.onChoose(o.id);
      }
    });
    fieldset.appendChild(
      h(
        'label.option',
        { for: 'opt-' + o.id, 'data-key': o.keyLabel, 'data-option-id': o.id, class: o.id === chosen ? 'chosen' : '' },
        input,
        h('span.key', { 'aria-hidden': 'true' }, o.keyLabel),
        h('span.visually-hidden', {}, `Option ${o.keyLabel}: `),
        typeof o.html === 'string' ? h('span.otext.rich', { html: o.html }) : h('span.otext.rich', {}, o.text || ''),
      ),
    );
  }
  return fieldset;
}

/** Moves the "chosen" styling to one option (also used by keyboard shortcuts). */
export function markChosen(container: HTMLElement, optionId: string): void {
  const labels = container.querySelectorAll('label.option');
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as HTMLElement;
    const on = l.getAttribute('data-option-id') === optionId;
    l.classList.toggle('chosen', on);
    const input = l.querySelector('input') as HTMLInputElement | null;
    if (input) input.checked = on;
  }
}

function essayArea(q: SessionQuestion, ctx: QuestionContext): HTMLElement {
  const text = (ctx.answer && ctx.answer.text) || '';
  const count = h('p.wordcount', { id: 'essay-count' });
  const area = h('textarea', { id: 'essay', rows: q.type === 'LONG_ESSAY' ? 16 : 8, 'aria-describedby': 'essay-count', spellcheck: 'false' }) as HTMLTextAreaElement;
  area.value = text;
  let lastState = '';
  const update = () => {
    const wc = wordCountText(countWords(area.value), q.minWords, q.maxWords);
    count.textContent = wc.text;
    if (wc.state !== lastState) count.setAttribute('data-state', wc.state);
    lastState = wc.state;
  };
  area.addEventListener('input', () => {
    update();
    ctx.onText(area.value);
  });
  area.addEventListener('blur', () => ctx.onTextDone());
  update();
  return h('div.essay', {}, h('label', { for: 'essay' }, 'Your answer'), area, count);
}

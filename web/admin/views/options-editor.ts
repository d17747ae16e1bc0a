/**
 * Option rows of an objective question: text (Markdown/LaTeX), a radio for the correct
 * one, add/remove. TRUE_FALSE keeps exactly the two options True and False (docs/design.md §6);
 * MCQ allows 2–10. Nothing is marked correct until the examiner marks it (issue 36: no
 * silent key; the editor refuses to save without one). Edits go straight into the shared
 * draft and call `changed`.
 */
import { h, replace } from '../dom.js';
import { keyLabel } from '../question-view.js';
import type { OptionInput, Question } from '../types.js';

/** The two fixed options of a TRUE_FALSE question, keeping which one was marked correct (none when neither was). */
export function trueFalseOptions(prev?: OptionInput[]): OptionInput[] {
  const marked = (word: RegExp) => prev?.find((o) => word.test(o.text.trim()))?.isCorrect === true;
  return [
    { keyLabel: 'A', text: 'True', isCorrect: marked(/^true$/i) },
    { keyLabel: 'B', text: 'False', isCorrect: marked(/^false$/i) },
  ];
}

/** Whether an objective question's options have their correct answer marked. */
export function hasKey(options: OptionInput[] | undefined): boolean {
  return (options ?? []).some((o) => o.isCorrect);
}

/** Draws the option rows for `draft` into a container; redraws itself on add/remove. */
export function optionsEditor(draft: Question, changed: () => void): HTMLElement {
  const host = h('div', { class: 'options-editor', id: 'options-editor' });
  const draw = () => {
    const opts = (draft.options ??= []);
    opts.forEach((o, i) => (o.keyLabel = keyLabel(i)));
    const fixed = draft.type === 'TRUE_FALSE';
    replace(host,
      h('div', { class: 'field-label' }, fixed ? 'Correct answer' : 'Options (mark the correct one)'),
      opts.map((o, i) => {
        const text = h('input', { type: 'text', class: 'option-text', 'data-option': i, value: o.text, readOnly: fixed, required: true, placeholder: `Option ${keyLabel(i)} (Markdown, $LaTeX$)` });
        text.addEventListener('input', () => {
          o.text = text.value;
          changed();
        });
        const radio = h('input', { type: 'radio', name: 'correct-option', class: 'option-correct', 'data-option': i, checked: o.isCorrect, 'aria-label': `Option ${keyLabel(i)} is correct` });
        radio.addEventListener('change', () => {
          opts.forEach((x, j) => (x.isCorrect = j === i));
          changed();
        });
        return h('div', { class: o.isCorrect ? 'option-row correct' : 'option-row' },
          h('span', { class: 'key' }, keyLabel(i)),
          text,
          h('label', { class: 'check' }, radio, ' correct'),
          fixed ? null : h('button', { type: 'button', class: 'link small', disabled: opts.length <= 2, 'aria-label': `Remove option ${keyLabel(i)}`, onclick: () => {
            // removing the correct option leaves none marked: the examiner marks another
            opts.splice(i, 1);
            draw();
            changed();
          } }, 'Remove'));
      }),
      fixed ? null : h('button', { type: 'button', class: 'secondary small', id: 'add-option', disabled: opts.length >= 10, onclick: () => {
        opts.push({ text: '', isCorrect: false });
        draw();
        changed();
        (host.querySelector(`input.option-text[data-option="${opts.length - 1}"]`) as HTMLInputElement | null)?.focus();
      } }, 'Add option'));
    // radios only re-style their row; keep the highlight in step without a full redraw
    host.querySelectorAll('.option-correct').forEach((r) => r.addEventListener('change', () => {
      host.querySelectorAll('.option-row').forEach((row, j) => row.classList.toggle('correct', Boolean(opts[j]?.isCorrect)));
    }));
  };
  draw();
  return host;
}

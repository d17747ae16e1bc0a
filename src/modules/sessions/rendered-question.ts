/**
 * One question's text rendered for the candidate page, in both shapes a start needs: the
 * HTML strings (src/core/rich-text.ts `renderRich`), and the same fields already written
 * as JSON, UTF-8 (the start response carries up to a few MB of them: written once per
 * question version, a start only copies bytes; paper-json.ts). Made in the render thread
 * (render-thread-entry.ts) or, as a fallback, on the event loop. Pure but for rendering.
 */
import { renderRich, type MathForm } from '../../core/rich-text.js';

/** What one question's rendering takes: its prompt and its options' texts, in order. */
export interface QuestionText {
  prompt: string;
  options: string[];
  form: MathForm;
}

/** Rendered HTML of a question, and its JSON fragments. */
export interface RenderedText {
  promptHtml: string;
  /** per option, in the order given */
  optionHtml: string[];
  /** `"prompt":…,"promptHtml":…` as JSON.stringify writes those two members, UTF-8 */
  promptJson: Uint8Array;
  /** per option: `"text":…,"html":…}` as JSON.stringify writes the end of an option object, UTF-8 */
  optionJson: Uint8Array[];
}

/** Renders a question's text (see RenderedText). */
export function renderQuestionText(q: QuestionText): RenderedText {
  const promptHtml = renderRich(q.prompt || '', false, q.form);
  const optionHtml = q.options.map((t) => renderRich(t || '', true, q.form));
  const promptJson = Buffer.from(JSON.stringify({ prompt: q.prompt, promptHtml }).slice(1, -1), 'utf8');
  const optionJson = q.options.map((text, i) => Buffer.from(JSON.stringify({ text, html: optionHtml[i] }).slice(1), 'utf8'));
  return { promptHtml, optionHtml, promptJson, optionJson };
}

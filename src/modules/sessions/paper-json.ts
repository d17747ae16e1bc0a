/**
 * The candidate's questions written straight to JSON bytes (issue #34 §3): the same text as
 * `JSON.stringify(candidateQuestions(paper, layout, form))` (paper.ts), byte for byte, but
 * each question's rendered prompt and options are copied from the UTF-8 fragments made once
 * per question version (rendered-question.ts), so a start of a large paper costs a copy of
 * its bytes, not a JSON.stringify and UTF-8 encoding of megabytes of HTML on the event loop.
 */
import type { MathForm } from '../../core/rich-text.js';
import { RawJson } from '../../platform/compress.js';
import { renderedQuestion, shownOrder, type Layout, type Paper } from './paper.js';

const LABELS = 'ABCDEFGHIJ';
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/**
 * The questions of `candidateQuestions(paper, layout, form)` as JSON (see there for the
 * order rules); call after `renderPaper(paper, form)`.
 * @returns the question ids in the order sent, and the JSON array as a RawJson
 */
export function candidateQuestionsJson(paper: Paper, layout: Layout, form: MathForm = 'html'): { ids: string[]; json: RawJson } {
  const parts: Uint8Array[] = [utf8('[')];
  const ids: string[] = [];
  for (const { q, opts } of shownOrder(paper, layout)) {
    const r = renderedQuestion(q, form);
    if (ids.length) parts.push(utf8(','));
    ids.push(q.id);
    // {"id","type", then "prompt","promptHtml" (cached), then "marks","section","minWords","maxWords","options":[…]}
    parts.push(utf8(`${JSON.stringify({ id: q.id, type: q.type }).slice(0, -1)},`), r.promptJson);
    parts.push(utf8(`,${JSON.stringify({ marks: q.marks, section: q.section, minWords: q.minWords, maxWords: q.maxWords }).slice(1, -1)},"options":[`));
    opts.forEach((o, i) => {
      parts.push(utf8(`${i ? ',' : ''}${JSON.stringify({ id: o.id, keyLabel: LABELS[i] ?? String(i + 1) }).slice(0, -1)},`));
      parts.push(r.optionJson.get(o.id) ?? utf8(JSON.stringify({ text: o.text, html: renderedQuestion({ ...q, prompt: '', options: [o] }, form).optionHtml.get(o.id) }).slice(1)));
    });
    parts.push(utf8(']}'));
  }
  parts.push(utf8(']'));
  return { ids, json: new RawJson(parts) };
}

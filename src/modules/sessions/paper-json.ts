/**
 * The candidate's questions written straight to JSON bytes (issue #34 §3): the same text as
 * `JSON.stringify(candidateQuestions(paper, layout, form))` (paper.ts), byte for byte, but
 * each question's rendered prompt and options are copied from the UTF-8 fragments made once
 * per question version (rendered-question.ts), so a start of a large paper costs a copy of
 * its bytes, not a JSON.stringify and UTF-8 encoding of megabytes of HTML on the event loop.
 *
 * Everything of a question's JSON but its options' order and key labels is the same for
 * every candidate, so it is written once per question of a cached paper and form (issue 40
 * §3: the per-start fragments were most of a start's CPU and garbage) and a start copies
 * those blocks straight into the response's body.
 */
import type { MathForm } from '../../core/rich-text.js';
import { RawJson } from '../../platform/compress.js';
import type { RenderedQuestion } from './render-cache.js';
import { renderedQuestion, shownOrder, type Layout, type Paper, type PaperQuestion } from './paper.js';

const LABELS = 'ABCDEFGHIJ';
const utf8 = (s: string) => Buffer.from(s, 'utf8');
/** an option's key label as the bytes inside its JSON string: A–J, then "11", "12"… (only letters and digits: nothing to escape) */
const labelBytes = (i: number): Buffer => utf8(LABELS[i] ?? String(i + 1));
const SHORT_LABELS = Array.from({ length: LABELS.length }, (_, i) => labelBytes(i));

/** One question's fixed JSON blocks in one maths form. */
interface QuestionBlocks {
  /** the rendering they were written from (a new rendering of the version writes them again) */
  from: RenderedQuestion;
  /** `{"type":…,"prompt":…,"promptHtml":…,"marks":…,"section":…,"minWords":…,"maxWords":…,"id":…,"options":[` */
  head: Buffer;
  /** per option id: `",` and the option's `"text":…,"html":…,"id":…}` (after `{"keyLabel":"` and the label) */
  optionTail: Map<string, Buffer>;
}

const blocks: Record<MathForm, WeakMap<PaperQuestion, QuestionBlocks>> = { html: new WeakMap(), mathml: new WeakMap() };

/** The question's fixed JSON blocks in `form`, written at its first start (kept as long as the paper holds the question). */
function questionBlocks(q: PaperQuestion, form: MathForm): QuestionBlocks {
  const r = renderedQuestion(q, form);
  const known = blocks[form].get(q);
  if (known && known.from === r) return known;
  const head = Buffer.concat([
    utf8(`${JSON.stringify({ type: q.type }).slice(0, -1)},`),
    r.promptJson,
    utf8(`,${JSON.stringify({ marks: q.marks, section: q.section, minWords: q.minWords, maxWords: q.maxWords, id: q.id }).slice(1, -1)},"options":[`),
  ]);
  const optionTail = new Map<string, Buffer>();
  for (const o of q.options) {
    // an option the rendering does not hold (not expected: the rendering is keyed by the option ids) is rendered alone
    const text = r.optionJson.get(o.id) ?? utf8(JSON.stringify({ text: o.text, html: renderedQuestion({ ...q, prompt: '', options: [o] }, form).optionHtml.get(o.id) }).slice(1));
    // the rendered `"text":…,"html":…}` without its closing brace, then the id
    optionTail.set(o.id, Buffer.concat([utf8('",'), text.subarray(0, text.length - 1), utf8(`,"id":${JSON.stringify(o.id)}}`)]));
  }
  const made = { from: r, head, optionTail };
  blocks[form].set(q, made);
  return made;
}

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const COMMA = 0x2c; // ,
const END_QUESTION = utf8(']}');
const OPTION_HEAD = utf8('{"keyLabel":"');

/**
 * The questions of `candidateQuestions(paper, layout, form)` as JSON (see there for the
 * order rules); call after `renderPaper(paper, form)`.
 * @returns the question ids in the order sent, and the JSON array as a RawJson (its bytes are
 *   copied from the blocks when the response is written)
 */
export function candidateQuestionsJson(paper: Paper, layout: Layout, form: MathForm = 'html'): { ids: string[]; json: RawJson } {
  const shown = shownOrder(paper, layout);
  const ids: string[] = new Array(shown.length);
  const parts: { b: QuestionBlocks; optionIds: string[] }[] = new Array(shown.length);
  // sizes first, then one buffer of exactly that size
  let size = 2 + Math.max(0, shown.length - 1);
  for (let i = 0; i < shown.length; i++) {
    const { q, opts } = shown[i]!;
    const b = questionBlocks(q, form);
    ids[i] = q.id;
    const optionIds = opts.map((o) => o.id);
    parts[i] = { b, optionIds };
    size += b.head.length + END_QUESTION.length + Math.max(0, optionIds.length - 1);
    for (let k = 0; k < optionIds.length; k++) size += OPTION_HEAD.length + (SHORT_LABELS[k] ?? labelBytes(k)).length + b.optionTail.get(optionIds[k]!)!.length;
  }
  // written by the response, straight into its body (platform/compress.ts)
  const write = (out: Buffer, from: number): number => {
    let at = from;
    out[at++] = OPEN;
    for (let i = 0; i < parts.length; i++) {
      const { b, optionIds } = parts[i]!;
      if (i) out[at++] = COMMA;
      at += b.head.copy(out, at);
      for (let k = 0; k < optionIds.length; k++) {
        if (k) out[at++] = COMMA;
        at += OPTION_HEAD.copy(out, at);
        at += (SHORT_LABELS[k] ?? labelBytes(k)).copy(out, at);
        at += b.optionTail.get(optionIds[k]!)!.copy(out, at);
      }
      at += END_QUESTION.copy(out, at);
    }
    out[at++] = CLOSE;
    return at - from;
  };
  return { ids, json: new RawJson(size, write) };
}

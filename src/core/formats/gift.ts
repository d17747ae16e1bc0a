/**
 * GIFT reader (Moodle Docs, "GIFT format"). Mapped to our types:
 * - multiple choice `{=right ~wrong …}` → MCQ (exactly one right answer);
 * - `{T}` / `{TRUE}` / `{F}` / `{FALSE}` → TRUE_FALSE (options True, False);
 * - short answer `{=accepted =also accepted}` → SHORT_ESSAY with the accepted answers
 *   as modelAnswer (our short essays are marked by an examiner, not by string match);
 * - essay `{}` → LONG_ESSAY;
 * - general feedback `####…` → explanation; `$CATEGORY: a/b/Section` → section "Section";
 * - missing-word questions (text after the block) keep a `_____` gap in the prompt.
 * Skipped, with the reason: matching, numerical, multiple-answer (partial-credit
 * weights), descriptions (no answer block), and anything malformed.
 *
 * HallCBT's own export adds a `// hallcbt: {json}` comment above each question carrying
 * what GIFT cannot say (marks, section, essay word bounds, rubric); Moodle ignores
 * comments, this reader applies them.
 */
import { ResultBuilder, labelledOptions } from './checks.js';
import { excerpt, textLines } from './aiken.js';
import { protectEscapes, restoreEscapes, splitAnswers, stripFormatMarker, type GiftAnswer } from './gift-syntax.js';
import { ESSAY_WORDS, type ImportedQuestion, type ParseResult } from './types.js';
import { giftMetaSchema, type GiftMeta } from './gift-meta.js';

interface Block {
  line: number;
  text: string;
  meta?: GiftMeta;
  category?: string;
}

/** Groups lines into question blocks (blank lines separate questions; comments are dropped). */
function blocks(text: string, out: ResultBuilder): Block[] {
  const found: Block[] = [];
  let cur: { line: number; lines: string[] } | null = null;
  let meta: GiftMeta | undefined;
  let category: string | undefined;
  const close = () => {
    if (cur) found.push({ line: cur.line, text: cur.lines.join('\n'), meta, category });
    if (cur) meta = undefined;
    cur = null;
  };
  textLines(text).forEach((raw, i) => {
    const t = raw.trim();
    if (!t) return close();
    const m = /^\/\/\s*hallcbt:\s*(\{.*\})\s*$/.exec(t);
    if (m) {
      const parsed = safeJson(m[1]!);
      const res = giftMetaSchema.safeParse(parsed);
      if (res.success) meta = res.data;
      else out.note('A "// hallcbt:" comment could not be read and was ignored.', i + 1);
      return;
    }
    if (t.startsWith('//')) return;
    const cat = /^\$CATEGORY:\s*(.*)$/i.exec(t);
    if (cat) {
      close();
      const segments = cat[1]!.split('/').map((s) => s.trim()).filter((s) => s && !/^\$\w+\$$/.test(s) && s !== 'top');
      category = segments.at(-1);
      return;
    }
    if (!cur) cur = { line: i + 1, lines: [] };
    cur.lines.push(raw);
  });
  close();
  return found;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

const clean = (s: string) => stripFormatMarker(restoreEscapes(s).trim()).text.trim();

/** Parses GIFT text. @returns questions, warnings (duplicates, images, missing answers), skipped items */
export function parseGift(text: string): ParseResult {
  const out = new ResultBuilder();
  for (const b of blocks(text, out)) {
    const r = parseBlock(b);
    if (typeof r === 'string') {
      out.skip(r, b.line);
      const text = clean(protectEscapes(b.text).split('{')[0]!.replace(/^\s*::.*?::/s, ''));
      if (r.startsWith('missing answer')) out.note(`Question "${excerpt(text)}" has a missing answer; it was skipped.`, b.line);
    } else {
      out.add(r, b.line);
    }
  }
  return out.result;
}

/** One block → a question, or the reason it cannot be imported. */
function parseBlock(b: Block): ImportedQuestion | string {
  let src = protectEscapes(b.text);
  const title = /^\s*::(.*?)::/s.exec(src);
  if (title) src = src.slice(title[0].length);
  const open = src.indexOf('{');
  const close = open >= 0 ? src.indexOf('}', open) : -1;
  if (open < 0) return 'description item (no answer block): nothing to answer';
  if (close < 0) return 'malformed: "{" without a closing "}"';
  const before = src.slice(0, open).trim();
  const after = src.slice(close + 1).trim();
  const prompt = clean(after ? `${before} _____${/^[.,;:!?)]/.test(after) ? '' : ' '}${after}` : before);
  if (!prompt) return 'question text is empty';
  const { lead, answers, generalFeedback } = splitAnswers(src.slice(open + 1, close));
  const explanation = generalFeedback ? clean(generalFeedback) : undefined;
  const meta = b.meta;
  const common = {
    prompt,
    marks: meta?.marks ?? 1,
    ...(explanation ? { explanation } : {}),
    ...((meta ? meta.section : b.category) ? { section: meta ? meta.section : b.category } : {}),
  };
  const leadT = lead.trim();

  if (leadT.startsWith('#')) return 'numerical question: not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)';
  if (/^(T|TRUE|F|FALSE)(#|$)/i.test(leadT) && !answers.length) {
    const isTrue = /^T/i.test(leadT);
    return { ...common, type: 'TRUE_FALSE', options: labelledOptions(['True', 'False'], isTrue ? 0 : 1) };
  }
  if (leadT) return `malformed answer block: unexpected "${excerpt(restoreEscapes(leadT), 30)}"`;
  if (!answers.length) {
    const type = meta?.type === 'SHORT_ESSAY' ? 'SHORT_ESSAY' : 'LONG_ESSAY';
    return { ...common, type, ...essayFields(type, meta) };
  }
  if (answers.some((a) => a.text.includes('->'))) return 'matching question: not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)';
  if (answers.every((a) => a.kind === '=')) return shortAnswer(common, answers, meta);
  return multipleChoice(common, answers, meta);
}

function essayFields(type: 'SHORT_ESSAY' | 'LONG_ESSAY', meta?: GiftMeta) {
  const d = ESSAY_WORDS[type];
  return {
    minWords: meta?.minWords ?? d.minWords,
    maxWords: meta?.maxWords ?? d.maxWords,
    ...(meta?.rubric ? { rubric: meta.rubric } : {}),
  };
}

function shortAnswer(common: Omit<ImportedQuestion, 'type'>, answers: GiftAnswer[], meta?: GiftMeta): ImportedQuestion | string {
  const accepted = answers.filter((a) => a.weight === undefined || a.weight >= 100).map((a) => clean(a.text)).filter(Boolean);
  if (!accepted.length) return 'short answer with no fully correct answer';
  const type = meta?.type === 'LONG_ESSAY' ? 'LONG_ESSAY' : 'SHORT_ESSAY';
  return { ...common, type, modelAnswer: accepted.join(' / '), ...essayFields(type, meta) };
}

function multipleChoice(common: Omit<ImportedQuestion, 'type'>, answers: GiftAnswer[], meta?: GiftMeta): ImportedQuestion | string {
  if (answers.some((a) => a.weight !== undefined && a.weight > 0 && a.weight < 100)) {
    return 'multiple-answer question with partial-credit weights: not supported (MCQ has exactly one correct option)';
  }
  const correct = answers.map((a, i) => (a.kind === '=' || (a.weight ?? 0) >= 100 ? i : -1)).filter((i) => i >= 0);
  if (correct.length === 0) return 'missing answer: multiple choice with no correct option ("=")';
  if (correct.length > 1) return 'multiple choice with more than one correct option: not supported';
  if (answers.length > 10) return `multiple choice with ${answers.length} options: at most 10 are allowed`;
  const type = meta?.type === 'TRUE_FALSE' ? 'TRUE_FALSE' : 'MCQ';
  return { ...common, type, options: labelledOptions(answers.map((a) => clean(a.text)), correct[0]!) };
}

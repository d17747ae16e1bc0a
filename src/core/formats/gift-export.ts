/**
 * Writes questions as GIFT (Moodle Docs, "GIFT format") for GET /exams/:id/questions.gift.
 * Texts are marked `[markdown]` (our prompts are Markdown with LaTeX) and escaped;
 * explanations become general feedback (`####`); sections become `$CATEGORY:` lines.
 * Each question is preceded by a `// hallcbt: {json}` comment with what GIFT cannot
 * carry (type, marks, section, word bounds, rubric), so parseGift(toGift(qs)) gives
 * the same questions back; Moodle ignores the comment.
 */
import { escapeGift } from './gift-syntax.js';
import type { GiftMeta } from './gift-meta.js';
import type { ImportedQuestion } from './types.js';

/** True when the options are exactly [True, False] in that order (GIFT `{T}`/`{F}` can say it). */
function isPlainTrueFalse(q: ImportedQuestion): boolean {
  const o = q.options ?? [];
  return o.length === 2 && o[0]!.text.trim() === 'True' && o[1]!.text.trim() === 'False';
}

function metaOf(q: ImportedQuestion): GiftMeta {
  return {
    type: q.type,
    marks: q.marks,
    ...(q.section ? { section: q.section } : {}),
    ...(q.minWords !== undefined && q.minWords !== null ? { minWords: q.minWords } : {}),
    ...(q.maxWords !== undefined && q.maxWords !== null ? { maxWords: q.maxWords } : {}),
    ...(q.rubric ? { rubric: q.rubric } : {}),
  };
}

function answerBlock(q: ImportedQuestion): string {
  const lines: string[] = [];
  if (q.type === 'TRUE_FALSE' && isPlainTrueFalse(q)) {
    lines.push(q.options![0]!.isCorrect ? 'T' : 'F');
  } else if (q.type === 'MCQ' || q.type === 'TRUE_FALSE') {
    for (const o of q.options ?? []) lines.push(`${o.isCorrect ? '=' : '~'}${escapeGift(o.text)}`);
  } else if (q.modelAnswer) {
    lines.push(`=${escapeGift(q.modelAnswer)}`);
  }
  if (q.explanation) lines.push(`####[markdown]${escapeGift(q.explanation)}`);
  return lines.length ? `{\n${lines.map((l) => `  ${l}`).join('\n')}\n}` : '{}';
}

/**
 * GIFT text for questions in exam order.
 * @param title written as a leading comment (e.g. the exam title)
 */
export function toGift(questions: ImportedQuestion[], title?: string): string {
  const parts: string[] = [];
  if (title) parts.push(`// ${title.replace(/\s+/g, ' ')}\n// Exported by HallCBT. Marks, sections and essay settings are in the "// hallcbt:" comments.`);
  let category: string | undefined;
  questions.forEach((q, i) => {
    if (q.section && q.section !== category) {
      parts.push(`$CATEGORY: $course$/top/${q.section.replace(/[\r\n/]+/g, ' ')}`);
      category = q.section;
    }
    parts.push(`// hallcbt: ${JSON.stringify(metaOf(q))}\n::Q${i + 1}::[markdown]${escapeGift(q.prompt)}${answerBlock(q)}`);
  });
  return `${parts.join('\n\n')}\n`;
}

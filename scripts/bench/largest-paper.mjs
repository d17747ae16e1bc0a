/**
 * The largest paper the authoring limits allow (src/core/questions/limits.ts; docs/decisions.md,
 * "Paper size limits"), built to cost the most to render and to send: 10 MCQs whose prompts
 * use the whole exam's 100,000 characters of text and 10,000 characters of TeX, as `\sqrt`
 * spans (KaTeX's costliest HTML per character measured, ~155 bytes) between Markdown
 * emphasis (the costliest Markdown per character measured). Deterministic. Used by
 * test/reliability/paper-bomb.test.ts, test/timed/paper-bomb.test.ts and scripts/bench/paper-bomb.ts.
 */

/** Questions of the paper, as POST /questions/bulk takes them. */
export function largestPaper() {
  const out = [];
  for (let i = 0; i < 10; i++) {
    // 125 spans of 8 characters of TeX: 1,000 per question, 10,000 in the exam
    let prompt = `Question ${i + 1}. ` + Array.from({ length: 125 }, () => '$\\sqrt{x}$').join(' ');
    let k = 0;
    while (prompt.length < 9_990 - 8) prompt += ` **w${k++ % 10}**`;
    out.push({ prompt, type: 'MCQ', marks: 1, options: [{ text: 'A', isCorrect: true }, { text: 'B', isCorrect: false }] });
  }
  return out;
}

/**
 * The benchmark's exam paper: real past-paper questions from ../shared/fixtures/real/*.md
 * (WAEC/NECO Mathematics, Physics, Biology), parsed into QuestionInput objects of
 * docs/api-overview.md. The Markdown layout is `**N.** prompt`, option lines `A) …`,
 * `**Answer: X**`, then an optional multi-line `*Explanation: …*` (Markdown with inline
 * HTML such as <sup>, Unicode maths, and `$` amounts).
 *
 * `benchQuestions(count)` takes the first valid questions of each paper in turn (round
 * robin) so the paper mixes subjects; it throws when fewer than `count` are valid.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../shared/fixtures/real/', import.meta.url));

/**
 * Parses one past paper.
 * @param {string} markdown
 * @param {string} section  section name stored with each question (the paper's name)
 * @returns {object[]} QuestionInput[] (MCQ, 1 mark, exactly one correct option)
 */
export function parsePaper(markdown, section) {
  const out = [];
  const blocks = markdown.split(/\r?\n(?=\*\*\d+\.\*\*)/);
  for (const block of blocks) {
    const head = /^\*\*(\d+)\.\*\*\s*/.exec(block);
    if (!head) continue;
    const lines = block.slice(head[0].length).split(/\r?\n/);
    const prompt = [];
    const options = [];
    let answer = null;
    let explanation = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      const opt = /^([A-E])\)\s*(.*)$/.exec(line);
      const ans = /^\*\*Answer:\s*([A-E])\*\*/.exec(line);
      if (explanation !== null) explanation.push(lines[i]);
      else if (ans) answer = ans[1];
      else if (/^\*Explanation:/.test(line)) explanation = [line.replace(/^\*Explanation:\s*/, '')];
      else if (opt && answer === null) options.push({ keyLabel: opt[1], text: opt[2].trim() || '(blank)' });
      else if (options.length === 0 && line) prompt.push(line);
    }
    if (!answer || options.length < 2 || !options.some((o) => o.keyLabel === answer) || !prompt.length) continue;
    out.push({
      prompt: prompt.join('\n'),
      type: 'MCQ',
      marks: 1,
      section,
      options: options.map((o) => ({ keyLabel: o.keyLabel, text: o.text, isCorrect: o.keyLabel === answer })),
      explanation: explanation ? explanation.join('\n').trim().replace(/\*\s*$/, '').slice(0, 20_000) || null : null,
    });
  }
  return out;
}

/**
 * Why the benchmark cannot run, or null: the real papers must be beside the checkout
 * (`../shared/fixtures/real`, as in CI); a clone with nothing beside it gets this one line.
 */
export function missingFixtures(dir = FIXTURES_DIR) {
  if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.md'))) return null;
  return `the benchmark's exam paper is made of the real past papers in ${dir} (../shared/fixtures/real beside the checkout, as in CI), which is not there: put that folder of real papers beside this checkout and run it again.`;
}

/** `count` questions mixed from every *.md paper (round robin). Throws a clear message when the papers are absent. */
export function benchQuestions(count = 60, dir = FIXTURES_DIR) {
  const missing = missingFixtures(dir);
  if (missing) throw new Error(missing);
  const papers = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => parsePaper(readFileSync(join(dir, f), 'utf8'), f.replace(/\.md$/, '').replace(/_/g, ' ')));
  const out = [];
  for (let i = 0; out.length < count; i++) {
    let took = false;
    for (const p of papers) {
      if (i < p.length && out.length < count) {
        out.push(p[i]);
        took = true;
      }
    }
    if (!took) throw new Error(`only ${out.length} valid questions in ${dir}; need ${count}`);
  }
  return out;
}

/** Content figures of a question set, for the report: characters, and how many use maths/markup. */
export function describeQuestions(qs) {
  const text = (q) => [q.prompt, q.explanation ?? '', ...q.options.map((o) => o.text)].join('\n');
  return {
    questions: qs.length,
    chars: qs.reduce((s, q) => s + text(q).length, 0),
    withHtmlOrMarkdown: qs.filter((q) => /<sup>|<sub>|\*\*|\$|\\\(/.test(text(q))).length,
    withMathSymbols: qs.filter((q) => /[√∑∫×÷≤≥πθ⁻²³α]/.test(text(q))).length,
    subjects: [...new Set(qs.map((q) => q.section))],
  };
}

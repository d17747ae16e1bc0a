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
  const out = mixedQuestions(count, dir);
  if (out.length < count) throw new Error(`only ${out.length} valid questions in ${dir}; need ${count}`);
  return out;
}

/** Up to `count` valid questions from every *.md paper, round robin (all of them when there are fewer). */
function mixedQuestions(count, dir) {
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
    if (!took) break;
  }
  return out;
}

/**
 * The report's figures of a paper (benchPaper): its name, sections (name, draw, questions
 * held), questions each candidate is given, the real papers it comes from, and the content
 * figures of describeQuestions; for two papers in one hall (`A+B`), `{name, mix: [each]}`.
 */
export function describePaper(name = 'flat', dir = FIXTURES_DIR) {
  // two papers in one hall (plan.mjs --paper=A+B): each described on its own
  if (name.includes('+')) return { name, mix: name.split('+').map((n) => describePaper(n, dir)) };
  const p = benchPaper(name, dir);
  const sections = p.sections?.map((s) => ({ ...s, questions: p.questions.filter((q) => q.section === s.name).length })) ?? null;
  const sources = [...new Set(mixedQuestions(p.questions.length, dir).map((q) => q.section))];
  return { name: p.name, perCandidate: p.perCandidate, sections, sources, ...describeQuestions(p.questions) };
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

/**
 * The UTME-style paper's sections (issue 37; docs/api-overview.md "sections"): Use of English
 * and three subjects, every one compulsory, so every candidate sits 60 + 3 × 40 = 180 of 225.
 */
export const UTME_SECTIONS = [
  { name: 'Use of English', draw: 60, compulsory: true, has: 75 },
  { name: 'Mathematics', draw: 40, compulsory: true, has: 50 },
  { name: 'Physics', draw: 40, compulsory: true, has: 50 },
  { name: 'Biology', draw: 40, compulsory: true, has: 50 },
];

/** The papers `npm run bench -- --paper=NAME` can seed (scripts/bench/plan.mjs). */
export const PAPERS = ['flat', 'flat180', 'utme'];

/**
 * The benchmark's paper by name.
 * - `flat`: 60 questions of the real papers, no sections; every candidate sits all 60.
 * - `flat180`: 180 questions of the real papers, no sections; every candidate sits all 180:
 *   the UTME paper's length as a paper was before sections and draws (issue 37's opening:
 *   "a 180-question paper" with a `section` label on each question and nothing else), so
 *   the UTME paper's start can be compared with a start that sends as many questions.
 * - `utme`: 225 questions (benchQuestions cycled: the real papers hold fewer valid
 *   questions than that, and the load does not depend on the text being unique), the first 75 in
 *   "Use of English", then 50 in each subject section, each question's `section` set;
 *   the exam's sections draw 60/40/40/40, so every candidate sits 180 (the real papers have
 *   no English paper: that section's questions are other subjects' questions of the same size).
 * @returns {{name: string, sections: {name, draw, compulsory}[] | null, questions: object[], perCandidate: number}}
 * @throws Error on an unknown name, or when the real papers are absent
 */
export function benchPaper(name = 'flat', dir = FIXTURES_DIR) {
  if (name === 'flat') return { name, sections: null, questions: benchQuestions(60, dir), perCandidate: 60 };
  if (name === 'flat180') return { name, sections: null, questions: benchQuestions(180, dir), perCandidate: 180 };
  if (name !== 'utme') throw new Error(`unknown paper ${name}; one of ${PAPERS.join(', ')}`);
  const total = UTME_SECTIONS.reduce((s, x) => s + x.has, 0);
  const pool = mixedQuestions(total, dir);
  if (pool.length < 60) throw new Error(`only ${pool.length} valid questions in ${dir}; need 60`);
  const questions = [];
  for (const s of UTME_SECTIONS) for (let i = 0; i < s.has; i++) questions.push({ ...pool[questions.length % pool.length], section: s.name });
  return {
    name,
    sections: UTME_SECTIONS.map(({ name: n, draw, compulsory }) => ({ name: n, draw, compulsory })),
    questions,
    perCandidate: UTME_SECTIONS.reduce((s, x) => s + x.draw, 0),
  };
}

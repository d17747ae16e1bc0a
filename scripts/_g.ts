import { readFileSync, readdirSync } from 'node:fs';
import { parseGuidance } from '../src/core/grading/essay/guidance.js';
const dir = 'test/fixtures/quality/essay-marking/';
for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const q = JSON.parse(readFileSync(dir + f, 'utf8'));
  for (const c of q.rubric.criteria) { const g = parseGuidance(c.description, c.maxMarks); console.log(f.slice(0, 14), c.title.slice(0, 25), JSON.stringify({ ...g, alternatives: g.alternatives.length, marked: g.marked.map((m) => `${m.text.slice(0, 40)}=${m.marks}`) })); }
}

/**
 * QTI 3.0 test material shared by the hall's and the hub's tests: the hand-written content
 * package of test/fixtures/imports/qti3/package zipped at run time (never committed as a zip),
 * what its import must give, a paper of every question type for round trips, and a question
 * reduced to what an export must carry (no ids, positions or dates).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import JSZip from 'jszip';
import { expect } from 'vitest';
import { ROOT } from '../harness.js';

export const QTI_DIR = join(ROOT, 'test', 'fixtures', 'imports', 'qti3');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** The fixture package as a .zip; `edit` may change or add files (path → text) first. */
export async function fixturePackage(edit?: (files: Map<string, string>) => void): Promise<Buffer> {
  const base = join(QTI_DIR, 'package');
  const files = new Map(filesUnder(base).map((f) => [relative(base, f).split('\\').join('/'), readFileSync(f, 'utf8')]));
  edit?.(files);
  const zip = new JSZip();
  for (const [p, t] of files) zip.file(p, t);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The single-item fixture's text. */
export const singleItem = () => readFileSync(join(QTI_DIR, 'single-item.xml'), 'utf8');

/** Checks an import of the fixture package: five questions of every type, two items refused by name. */
export function expectFixtureImport(body: any): void {
  expect(body).toMatchObject({ format: 'qti', created: 5 });
  const qs = body.questions;
  const A = 'Section A: Objective';
  const B = 'Section B: Theory';
  expect(qs[0]).toMatchObject({ type: 'MCQ', marks: 1, section: A, prompt: 'The movement of water molecules across a *selectively permeable* membrane from a dilute solution to a concentrated one is called' });
  expect(qs[0].options.map((o: any) => [o.keyLabel, o.text, o.isCorrect])).toEqual([['A', 'diffusion', false], ['B', 'plasmolysis', false], ['C', 'osmosis', true], ['D', 'active transport', false]]);
  // multiple response with one correct choice → a single-key MCQ, marks from the mapping, MathML → LaTeX
  expect(qs[1]).toMatchObject({ type: 'MCQ', marks: 2, section: A, prompt: 'Tick every even prime number $p<3^2$.' });
  expect(qs[1].options.filter((o: any) => o.isCorrect).map((o: any) => o.text)).toEqual(['2']);
  expect(body.warnings.some((w: any) => w.index === 1 && /multiple-response item with one correct choice/.test(w.message))).toBe(true);
  // true/false as two choices; MAXSCORE as marks; modal feedback as the explanation
  expect(qs[2]).toMatchObject({ type: 'TRUE_FALSE', marks: 2, section: A, prompt: 'The equator passes through Nigeria.', explanation: 'Nigeria lies between latitudes **4°N** and 14°N.' });
  expect(qs[2].options.map((o: any) => [o.text, o.isCorrect])).toEqual([['True', false], ['False', true]]);
  // extended text with "[points] criterion" scorer lines → a rubric; other scorer text → model answer
  expect(qs[3]).toMatchObject({ type: 'LONG_ESSAY', marks: 6, section: B, minWords: 150, maxWords: 800, prompt: 'Describe photosynthesis in green plants.\n\n- State where it takes place.\n- Give the word equation.', modelAnswer: 'Accept "sugar" for glucose.' });
  expect(qs[3].rubric).toMatchObject({ name: 'Rubric', totalMarks: 6 });
  expect(qs[3].rubric.criteria.map((c: any) => [c.title, c.maxMarks])).toEqual([
    ['Names the chloroplasts (chlorophyll) in the leaf as the site', 2],
    ['Word equation: carbon dioxide + water → glucose + oxygen, in light', 2],
    ['Explains that light energy is changed to chemical energy', 2],
  ]);
  expect(qs[4]).toMatchObject({ type: 'SHORT_ESSAY', marks: 3, section: B, prompt: 'Define **density** and give its SI unit.', modelAnswer: 'Density is mass per unit volume.', minWords: 20, maxWords: 100 });
  expect(body.skipped).toHaveLength(2);
  expect(body.skipped[0].reason).toMatch(/item "primes-mr" \("Primes below ten"\).*2 correct choices.*not imported/);
  expect(body.skipped[1].reason).toMatch(/item "capital-entry".*qti-text-entry-interaction is not supported/);
}

/** A paper of every question type with sections, Markdown and maths, for round trips. */
export const ROUND_TRIP_QUESTIONS = [
  { type: 'MCQ', prompt: 'Simplify $\\frac{6x^2}{3x}$ when **x ≠ 0**.', marks: 2, section: 'Algebra', explanation: 'Divide: $\\frac{6}{3} = 2$ and $\\frac{x^2}{x} = x$.', options: [{ keyLabel: 'A', text: '$2x$', isCorrect: true }, { keyLabel: 'B', text: '$3x$' }, { keyLabel: 'C', text: '$2x^2$' }, { keyLabel: 'D', text: 'x & y < 3' }] },
  { type: 'TRUE_FALSE', prompt: 'Water boils at 100 °C at sea level.', marks: 1, section: 'Algebra', options: [{ keyLabel: 'A', text: 'True', isCorrect: true }, { keyLabel: 'B', text: 'False' }] },
  { type: 'MCQ', prompt: 'Which gas turns lime water milky?\n\nChoose *one*.', marks: 1, options: [{ keyLabel: 'A', text: 'Oxygen' }, { keyLabel: 'B', text: 'Carbon(IV) oxide', isCorrect: true }, { keyLabel: 'C', text: 'Nitrogen' }] },
  { type: 'SHORT_ESSAY', prompt: 'Define an *acid*.', marks: 3, section: 'Theory', minWords: 10, maxWords: 60, modelAnswer: 'A substance that gives hydrogen ions in water.' },
  {
    type: 'LONG_ESSAY',
    prompt: 'Describe the water cycle.\n\n- Evaporation\n- Condensation',
    marks: 10,
    section: 'Theory',
    minWords: 150,
    maxWords: 600,
    modelAnswer: 'Water evaporates, condenses into clouds and falls as rain.',
    explanation: 'See chapter 4.',
    rubric: { name: 'Water cycle', totalMarks: 10, criteria: [{ title: 'Processes named', maxMarks: 4, description: 'Evaporation, condensation, precipitation' }, { title: 'Sequence', maxMarks: 6 }] },
  },
];

/** A stored question reduced to what an export carries. */
export function comparable(q: any) {
  return {
    type: q.type,
    prompt: q.prompt,
    marks: q.marks,
    section: q.section ?? null,
    explanation: q.explanation || null,
    options: (q.options ?? []).map((o: any) => ({ keyLabel: o.keyLabel, text: o.text, isCorrect: o.isCorrect })),
    minWords: q.minWords ?? null,
    maxWords: q.maxWords ?? null,
    modelAnswer: q.modelAnswer || null,
    rubric: q.rubric ? { name: q.rubric.name, totalMarks: q.rubric.totalMarks, criteria: q.rubric.criteria.map((c: any) => ({ title: c.title, maxMarks: c.maxMarks, description: c.description || '' })) } : null,
  };
}

/**
 * An exam's sections (issue 37 items 1–3; docs/decisions.md, "Sections, draws and subject
 * combinations"): which sections a candidate sits, the questions drawn for them from the
 * attempt's seed, and the checks a sectioned exam must pass before candidates start.
 * Pure: the seed arrives as a number (the hall draws it once per attempt and keeps it).
 */
import { mulberry32 } from '../random.js';

export { mulberry32 };

/** One section of an exam, in the exam's order; `draw` null: every question of the section. */
export interface ExamSection {
  /** 1–60 characters, unique on the exam case-insensitively */
  name: string;
  /** questions each candidate is given from the section, drawn at random; null: all of them */
  draw: number | null;
  /** every candidate sits it (true), or only those who list it among their subjects */
  compulsory: boolean;
}

/** The part of a question the draw reads: its id and the section it names (paper order). */
export interface SectionedQuestion {
  id: string;
  section: string | null;
}

/** One section a candidate sits and the ids of its questions the candidate was given, in paper order. */
export interface SittingSection {
  name: string;
  questionIds: string[];
}

/** Case- and space-insensitive key of a section or subject name. */
export const sectionKey = (name: string): string => name.trim().toLowerCase();

/** An integer in [0, n) from a generator of 32-bit integers, without modulo bias (rejection). */
function below(next: () => number, n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  for (;;) {
    const x = next();
    if (x < limit) return x % n;
  }
}

/** FNV-1a hash of a string (32-bit): mixes a section's name into the attempt's seed. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * `k` of `items`, each k-subset equally likely (a partial Fisher–Yates shuffle driven by
 * `next`), returned in their original order.
 */
export function drawSubset<T>(items: readonly T[], k: number, next: () => number): T[] {
  const idx = new Uint32Array(items.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  const n = Math.min(k, idx.length);
  for (let i = 0; i < n; i++) {
    const j = i + below(next, idx.length - i);
    const t = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = t;
  }
  // a typed array sorts numerically
  return Array.from(idx.subarray(0, n).sort(), (i) => items[i]!);
}

/**
 * The sections a candidate sits: every compulsory one plus those named in `subjects`
 * (matched case-insensitively), in the exam's order; with no subjects listed (null or []),
 * every section. Names that are not sections of the exam are ignored here (the roster
 * refuses them when they are written).
 */
export function sittingSections(sections: readonly ExamSection[], subjects: readonly string[] | null): ExamSection[] {
  if (!subjects || subjects.length === 0) return [...sections];
  const chosen = new Set(subjects.map(sectionKey));
  return sections.filter((s) => s.compulsory || chosen.has(sectionKey(s.name)));
}

/**
 * The questions one candidate is given: for each section they sit (sittingSections), its
 * questions (those whose `section` is the section's name) — all of them, or with `draw: n`
 * n of them drawn uniformly from the generator seeded by `seed` mixed with the section's
 * name, so a section's draw does not depend on which other sections the candidate sits.
 * The same arguments give the same result, on any machine.
 * @param questions the exam's questions in paper order
 * @param seed the attempt's 32-bit seed
 * @returns the sections in the exam's order, each with its question ids in paper order
 */
export function drawSitting(sections: readonly ExamSection[], questions: readonly SectionedQuestion[], subjects: readonly string[] | null, seed: number): SittingSection[] {
  const bySection = idsBySection(questions);
  return sittingSections(sections, subjects).map((s) => {
    const ids = bySection.get(s.name) ?? [];
    return { name: s.name, questionIds: s.draw === null ? [...ids] : drawSubset(ids, s.draw, mulberry32((seed ^ fnv1a(s.name)) >>> 0)) };
  });
}

/** Question ids by section name, in paper order; kept per questions array (a cached paper's), so a start groups nothing. */
const grouped = new WeakMap<readonly SectionedQuestion[], Map<string, string[]>>();
function idsBySection(questions: readonly SectionedQuestion[]): Map<string, string[]> {
  let m = grouped.get(questions);
  if (!m) {
    m = new Map();
    for (const q of questions) {
      if (q.section === null) continue;
      let ids = m.get(q.section);
      if (!ids) m.set(q.section, (ids = []));
      ids.push(q.id);
    }
    grouped.set(questions, m);
  }
  return m;
}

/**
 * What stops candidates from starting a sectioned exam: a section that draws more
 * questions than it has.
 * @returns one sentence per such section (empty when the exam can start)
 */
export function drawProblems(sections: readonly ExamSection[], questions: readonly SectionedQuestion[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    if (s.draw === null) continue;
    const n = questions.filter((q) => q.section === s.name).length;
    if (s.draw > n) out.push(`Section "${s.name}" draws ${s.draw} question${s.draw === 1 ? '' : 's'} for each candidate but has ${n}.`);
  }
  return out;
}

/**
 * Questions whose `section` is not one of `sections` (with sections set, every question
 * must name one of them).
 * @returns the offending questions with a sentence each
 */
export function questionsOutsideSections<Q extends SectionedQuestion>(sections: readonly ExamSection[], questions: readonly Q[]): { question: Q; message: string }[] {
  const names = new Set(sections.map((s) => s.name));
  const list = sections.map((s) => `"${s.name}"`).join(', ');
  return questions
    .filter((q) => q.section === null || !names.has(q.section))
    .map((q) => ({
      question: q,
      message: q.section === null ? `The exam has sections (${list}); the question must name one of them in "section".` : `The exam has no section "${q.section}" (its sections: ${list}).`,
    }));
}

/**
 * Roster subject names that are not sections of the exam (compared case-insensitively).
 * @returns the unknown names, as given
 */
export function unknownSubjects(sections: readonly ExamSection[], subjects: readonly string[]): string[] {
  const names = new Set(sections.map((s) => sectionKey(s.name)));
  return subjects.filter((s) => !names.has(sectionKey(s)));
}

/**
 * Subjects as stored: each spelled as the exam's section is, duplicates dropped, in the
 * exam's order. Call after `unknownSubjects` found none.
 */
export function canonicalSubjects(sections: readonly ExamSection[], subjects: readonly string[]): string[] {
  const chosen = new Set(subjects.map(sectionKey));
  return sections.filter((s) => chosen.has(sectionKey(s.name))).map((s) => s.name);
}

/**
 * Sections as stored (the exams row's `sections_json`, written by the hall from validated
 * input) → the list; null when the exam has none (no column value, or an empty list).
 */
export function parseSections(json: string | null): ExamSection[] | null {
  if (!json) return null;
  const list = JSON.parse(json) as ExamSection[];
  return list.length ? list.map((s) => ({ name: s.name, draw: s.draw ?? null, compulsory: s.compulsory !== false })) : null;
}

/**
 * How many questions a candidate with `subjects` is given: for each section they sit, its
 * draw, or all of its questions (at most the section's count).
 */
export function sittingQuestionCount(sections: readonly ExamSection[], questions: readonly SectionedQuestion[], subjects: readonly string[] | null): number {
  let n = 0;
  for (const s of sittingSections(sections, subjects)) {
    const has = questions.filter((q) => q.section === s.name).length;
    n += s.draw === null ? has : Math.min(s.draw, has);
  }
  return n;
}

/**
 * The subjects of a paper as the tabs show them (issue 37 item 8): the server's `sections`
 * (name and question ids, in order) when the start/resume response has them, else the
 * questions grouped by their own `section` name in the order each name first appears; a
 * question in no section goes to a last group, "Other questions". Pure.
 */
import type { SessionQuestion, SessionSection } from '../types.js';

/** One subject: its name and its questions' 0-based positions in the candidate's paper, in order. */
export interface Subject {
  name: string;
  indices: number[];
}

const OTHER = 'Other questions';

/** The subjects of `questions` (see the module's description). */
export function subjectsOf(questions: SessionQuestion[], sections?: SessionSection[]): Subject[] {
  const out: Subject[] = [];
  // Maps, not objects: a section may be called "constructor"
  const byName = new Map<string, Subject>();
  const add = (name: string, i: number) => {
    let s = byName.get(name);
    if (!s) {
      s = { name, indices: [] };
      byName.set(name, s);
      out.push(s);
    }
    s.indices.push(i);
  };
  if (sections && sections.length) {
    const at = new Map<string, number>();
    questions.forEach((q, i) => at.set(q.id, i));
    const seen: Record<number, boolean> = {};
    for (const s of sections) {
      for (const id of s.questionIds || []) {
        const i = at.get(id);
        if (i === undefined || seen[i]) continue;
        seen[i] = true;
        add(String(s.name || OTHER), i);
      }
    }
    questions.forEach((_q, i) => {
      if (!seen[i]) add(OTHER, i);
    });
  } else questions.forEach((q, i) => add(q.section ? String(q.section) : OTHER, i));
  // a question of the other group after its earlier ones: keep each subject's positions ascending
  for (const s of out) s.indices.sort((a, b) => a - b);
  return out;
}

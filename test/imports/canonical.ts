/**
 * Test helper: the comparable content of a question, whatever its source (parser
 * output, stored examiner view from the API): type, prompt, marks, options (key
 * label, text, correctness), explanation, section, word bounds, model answer, rubric.
 * Ids, positions and null/absent fields are dropped so two sources compare equal.
 */
type Loose = Record<string, unknown>;

function clean(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clean);
  if (v && typeof v === 'object') {
    const out: Loose = {};
    for (const k of Object.keys(v as Loose).sort()) {
      const x = (v as Loose)[k];
      if (x !== null && x !== undefined) out[k] = clean(x);
    }
    return out;
  }
  return v;
}

/** Canonical form of a list of questions. */
export function canonical(questions: unknown[]): unknown[] {
  return questions.map((raw) => {
    const q = raw as Loose;
    const options = (q.options as Loose[] | undefined) ?? [];
    const rubric = q.rubric as Loose | null | undefined;
    return clean({
      type: q.type,
      prompt: q.prompt,
      marks: q.marks,
      options: options.length ? options.map((o) => ({ keyLabel: o.keyLabel, text: o.text, isCorrect: o.isCorrect })) : undefined,
      explanation: q.explanation || undefined,
      section: q.section || undefined,
      minWords: q.minWords,
      maxWords: q.maxWords,
      modelAnswer: q.modelAnswer || undefined,
      rubric: rubric
        ? { name: rubric.name, totalMarks: rubric.totalMarks, criteria: (rubric.criteria as Loose[]).map((c) => ({ title: c.title, maxMarks: c.maxMarks, description: c.description || undefined })) }
        : undefined,
    });
  });
}

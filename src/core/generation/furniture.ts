/**
 * Page furniture removal (issue 21 §3): running heads and footers that repeat on many
 * pages, page numbers, and exam-paper apparatus ("SECTION A MCQ - SOLUTIONS", "DO NOT
 * TURN OVER UNTIL YOU ARE TOLD TO DO SO", "Examiner's report", "(Total 20 Marks)") are
 * dropped line by line before paragraphs and sentences are formed, so they can never
 * become stems, keys or distractors. Pure functions over page texts.
 */

/** Lines that are furniture wherever they occur (matched on the trimmed line). */
const ALWAYS = [
  /^(?:page\s*)?[-–—(]?\s*\d{1,4}\s*[-–—)]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i, // page numbers: "12", "- 12 -", "Page 3 of 10"
  /\bturn\s+over\b/i,
  /^section\s+[a-e\d]{1,2}\b[^.]{0,60}$/i, // "SECTION A: MULTIPLE-CHOICE QUESTIONS (30 MARKS)", "SECTION A MCQ - SOLUTIONS"
  /^(?:mcq|multiple[- ]choice)\b.*\bsolutions?$/i,
  /^(?:examiner[’'`]?s?[’'`]?\s+reports?|marking\s+guide|suggested\s+solutions?|solutions?\s*\d*|question\s*\d+[a-z]?|required:?|you are required to:?)$/i,
  /^\(?\s*total\s+\d+\s*marks?\s*\)?$/i,
  /^\(?\s*\d+\s*marks?\s*\)?$/i,
  /^(?:marks\s*)+$/i,
  /^time\s+allowed\b/i,
  /^(?:examination\s+)?instructions?\s*:?$/i,
  /\b(?:attempt|answer)\s+(?:all|any\s+\w+)\s+questions?\b/i,
  /^please read these instructions\b/i,
  /^\d+\.\s*[A-E]$/, // answer-key rows "12. D"
];

/** Key under which a line counts as "the same line" on different pages: case, digits and spacing ignored. */
export function furnitureKey(line: string): string {
  return line.toLowerCase().replace(/\d+/g, '#').replace(/[\s\u00a0]+/g, ' ').trim();
}

/** True when `line` is furniture by its form alone (page numbers, exam apparatus). */
export function isFurnitureLine(line: string): boolean {
  const t = line.replace(/[\s\u00a0]+/g, ' ').trim();
  return ALWAYS.some((re) => re.test(t));
}

/**
 * Keys of short lines (at most 12 words) repeated on at least three pages: running heads
 * and footers, which may appear on only some pages (a paper's title on each section's
 * first page). Material with fewer than four pages has none (a repeat there may be content).
 */
export function repeatedLines(pages: string[]): Set<string> {
  const out = new Set<string>();
  if (pages.length < 4) return out;
  const onPages = new Map<string, number>();
  for (const page of pages) {
    for (const key of new Set(page.split(/\r?\n/).map(furnitureKey).filter((k) => k && k.split(' ').length <= 12))) onPages.set(key, (onPages.get(key) ?? 0) + 1);
  }
  for (const [key, n] of onPages) if (n >= 3) out.add(key);
  return out;
}

/**
 * Removes furniture lines from each page, keeping line structure (blank lines stay, so
 * paragraph detection still works). Returns one string per input page, same order.
 */
export function stripFurniture(pages: string[]): string[] {
  const repeated = repeatedLines(pages);
  return pages.map((page) =>
    page
      .split(/\r?\n/)
      .filter((line) => !line.trim() || (!isFurnitureLine(line) && !repeated.has(furnitureKey(line))))
      .join('\n'),
  );
}

/**
 * Sentences from examiners' reports and rubrics rather than subject content
 * ("Candidates were expected to…", "Most candidates…", "Commendably, …"), and a teacher's notes
 * on what the textbooks say ("Some textbooks use referendum and plebiscite as if they mean the same
 * thing": issue 39 §2, round 53): rejected as question material by the sentence filter.
 */
export const EXAMINER_TALK =
  /\b(?:some|many|most|other|older|certain|different|a few)\s+(?:textbooks?|text books?|books|authors|writers)\b|\btextbooks?\s+(?:differ|disagree|vary)\b|\bcandidates?['’]?(?=\W)|\bexaminees?\b|\bcommendabl|\bpitfalls?\b|\bperformance (?:was|of)\b|\bwas attempted\b|\bthe question (?:tests?|required|requires|was)\b|\bexpected to (?:state|explain|list|define|discuss|know|demonstrate|compute|calculate|prepare)\b|\bmarking (?:guide|scheme)\b|\bexaminer|\baward (?:a maximum|\d)|\bthey could not\b|\bfor future examinations?\b|\bstudy text\b/i;

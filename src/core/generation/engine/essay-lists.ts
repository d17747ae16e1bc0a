/**
 * A sentence that lists things of one named kind about a term ("Crop improvement in Nigeria
 * faces problems such as poor funding, few trained staff and scarcity of improved seeds.",
 * "The functions of a bank include accepting deposits, granting loans and …"): a defined-term
 * essay can then ask for a named number of them ("Define crop improvement and state two
 * problems of crop improvement in Nigeria.") instead of "one other important point", which
 * every blind judge of rounds 12–19 called too vague to answer (docs/decisions.md, "A
 * generated essay names what it asks for").
 */

/** Kinds of thing a syllabus asks candidates to state (plural nouns). */
const LIST_KINDS = [
  'aims', 'objectives', 'functions', 'features', 'characteristics', 'types', 'kinds', 'methods', 'uses', 'advantages',
  'disadvantages', 'problems', 'causes', 'effects', 'examples', 'properties', 'components', 'factors', 'principles',
  'sources', 'merits', 'demerits', 'benefits', 'roles', 'stages', 'qualities', 'symptoms', 'signs',
  'limitations', 'challenges', 'duties', 'powers', 'forms', 'classes', 'agents', 'parts', 'products',
] as const;
const KIND = `(?:main\\s+|major\\s+|chief\\s+|important\\s+|common\\s+|basic\\s+|key\\s+)?(${LIST_KINDS.join('|')})`;

/** What a list sentence gives: the kind ("problems"), its items, and the place the sentence limits them to (" in Nigeria", or ""). */
export interface ListPoint {
  kind: string;
  items: string[];
  place: string;
}

/** Singular of a kind ("problems" → "problem", "properties" → "property"). */
export function singularKind(kind: string): string {
  return kind.endsWith('ies') ? `${kind.slice(0, -3)}y` : kind.replace(/s$/, '');
}

/** The list's items: split at commas and a final "and"/"or", "etc." dropped; null when an item is no short noun phrase. */
function listItems(list: string): string[] | null {
  const body = list.replace(/[.;:]+\s*$/, '').replace(/,?\s*(?:etc\.?|and so on|among others)\s*$/i, '');
  if (/[;:()]/.test(body)) return null;
  const items = body
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[^,]*$)/)
    .map((x) => x.trim())
    .filter(Boolean);
  // (items are short phrases, not clauses: "poor funding", "resistance to pests and diseases")
  if (items.some((x) => x.split(/\s+/).length > 6 || /\b(?:is|are|was|were|has|have|will|can|must|should)\b/i.test(x))) return null;
  return items;
}

/**
 * Reads `sentence` as a list of a named kind about `term`: "TERM … KIND such as / like /
 * including / include A, B and C" (the term in the subject) or "The KIND of TERM include / are
 * A, B and C". Null when the sentence is no such list, its kind is not one a syllabus asks
 * for, or it names fewer than `minItems` items.
 */
export function listPoint(sentence: string, term: string, minItems: number): ListPoint | null {
  const t = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ofForm = new RegExp(`^(?:The|Its|Their)\\s+${KIND}\\s+of\\s+(?:(?:the|a|an)\\s+)?${t}(?:s|es)?((?:\\s+in\\s+[A-Z][\\w-]*)?)\\s+(?:include|includes|are)\\s*:?\\s+(.+)$`, 'i');
  const m1 = ofForm.exec(sentence);
  if (m1) {
    const items = listItems(m1[3]!);
    return items && items.length >= minItems ? { kind: m1[1]!.toLowerCase(), items, place: m1[2] ?? '' } : null;
  }
  const subjectForm = new RegExp(`^(?:(?:The|A|An)\\s+)?${t}(?:s|es)?((?:\\s+in\\s+[A-Z][\\w-]*)?)\\s+(?:has|have|faces|face|performs|perform|serves|serve|offers|offer|includes|include|provides|provide)\\s+(?:many\\s+|several\\s+|some\\s+|various\\s+|a\\s+number\\s+of\\s+)?${KIND}\\s*(?:,\\s*)?(?:such\\s+as|like|including|:)\\s+(.+)$`, 'i');
  const m2 = subjectForm.exec(sentence);
  if (!m2) return null;
  const items = listItems(m2[3]!);
  return items && items.length >= minItems ? { kind: m2[2]!.toLowerCase(), items, place: m2[1] ?? '' } : null;
}

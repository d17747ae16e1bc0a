/**
 * Where a material poses problems rather than states facts (issue 39 §2): the headings of
 * worked examples, exercises and recaps, and the scope of a worked example led by a label in
 * its own paragraph ("**Worked Example 8:** Acidified KMnO₄ oxidises …", then its equations,
 * "Solution:", its steps and an "N.B." about it). Sentences in these scopes are never question
 * sources (docs/decisions.md, "A worked example's label opens its scope"). Pure.
 */

/**
 * A heading of a worked example, an exercise or a set of questions (issue 39 §2, round 14: a worked
 * example's setup, "A 2 Ω resistor is in series with …", and "… has resistance 2.2 Ω. Find its
 * resistivity." given as statements): what is under it poses a problem, it states no fact.
 */
export const EXERCISE_HEADING = /\b(?:worked\s+(?:examples?|ex\b)|examples?\s+\d|exercises?|class\s+exercise|classwork|(?:class|group)\s+(?:activity|activities|work|task)|practice\s+questions?|homework|assignment|evaluation(?:\s+questions?)?|revision\s+questions?|quiz|test\s+yourself|try\s+these|calculations?)\b/i;

/** A slide or section that goes over an earlier lesson ("RECAP – Last Week (International Trade)"): not this lesson's content (round 31). */
export const RECAP_HEADING = /^(?:\W*)(?:recap\b|revision\s+of\s+(?:the\s+)?(?:last|previous)\s+(?:lesson|class|week)|(?:last|previous)\s+(?:week|lesson|class)\b)/i;

/**
 * A paragraph that opens with a worked example's label: "Worked Example 8:", "Example 2.",
 * "Worked example (the 10% rule):" — not "Examples of weeds include …", nor a bare "Example:",
 * which mostly leads an illustration whose facts are the lesson's ("Example: the Tenera oil palm is
 * a hybrid of Dura and Pisifera …").
 */
const EXAMPLE_LABEL = /^(?:worked\s+(?:example|ex\.)\s*(?:\d{1,2}[a-z]?)?|(?:example|ex\.)\s*\d{1,2}[a-z]?)\s*(?:\([^)]{0,60}\))?\s*(?:[:.–—-]|$)/i;

/** Whether the paragraph `plain` (Markdown marks dropped) opens with a worked example's label (`EXAMPLE_LABEL`). */
export function isExampleLabel(plain: string): boolean {
  return EXAMPLE_LABEL.test(plain.trim());
}

/**
 * A line of a worked example's working: it holds a figure or a formula's sign, or opens with a
 * working's word ("Solution:", "Step 2", "N.B.", "Hence", "Check …").
 */
const WORKING = /\d|[=→⇒+×÷∴√]|^(?:solution|answer|working|steps?|n\.?\s?b\.?|note|check|hence|therefore|thus|adding|subtracting|substituting|given|data|required)\b/i;

/**
 * Whether a worked example's labelled scope is open after the paragraph `plain` (Markdown marks
 * dropped): a label opens it; it stays open over the example's working (`WORKING`) and ends at a
 * heading of words alone (`heading`: the line reads as a heading; a section's number before it is
 * no figure) or at a paragraph of plain prose. Issue 39 §2, rounds 34 and 35: a label in the
 * example's paragraph, not a heading of its own, left the example's statement and its note as
 * question sources ("Worked Example 8: Acidified KMnO₄ oxidises iron(II) ions …").
 * @param open whether the scope was open before this paragraph
 */
export function inLabelledExample(open: boolean, plain: string, heading: boolean, sectionNumber: RegExp): boolean {
  const text = plain.trim();
  if (isExampleLabel(text)) return true;
  if (!open) return false;
  if (heading && !WORKING.test(text.replace(sectionNumber, ''))) return false;
  return WORKING.test(text);
}

/**
 * What a statement is about (its subject's words), and which statements may stand together in a
 * two-statement true/false item (issue 39 §2, rounds 6 and 23).
 */
import { contentStems } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';

/** The content stems of a statement's subject: its words before the first finite verb, after an opening "In X, …". */
export function subjectStems(text: string): Set<string> {
  const body = text.replace(/^(?:in|at|on|for|during|under|with|by|after|before|when|if|as)\b[^,]{1,60},\s*/i, '');
  const tags = tagSentence(body);
  // (a participle after a determiner is an adjective: "the silvered walls")
  // ("called", "named", "known" after a noun name it: "a scientist called Robert Hooke looked …")
  const k = tags.findIndex((t, i) => t.pos === 'AUX' || (t.pos === 'VERB' && !/ing$/i.test(t.text) && tags[i - 1]?.pos !== 'DET' && !/^(?:called|named|known)$/i.test(t.text)));
  // (no verb found, the tagger having read it as a noun, "The resistance of a wire increases …": the first five words)
  return new Set(contentStems(k > 0 ? body.slice(0, tags[k]!.start) : tags.slice(0, 5).map((t) => t.text).join(' ')));
}

/**
 * Whether statements are about one subject (issue 39 §2, round 6: "two unrelated sentences glued" as a
 * two-statement item): for each statement after the first, the subject of one of the two (its words
 * before the first verb) is named in the other ("Carbon dioxide enters the leaf …" with "The raw
 * materials … are carbon dioxide and water"; not "Overgrazing removes the grass cover …" with "Sheet
 * erosion removes a thin layer …").
 */
export function sameSubject(facts: readonly { sentence: { text: string } }[]): boolean {
  const first = facts[0]!.sentence.text;
  const named = (subjectOf: string, other: string) => {
    const words = new Set(contentStems(other));
    return [...subjectStems(subjectOf)].some((x) => words.has(x));
  };
  return facts.slice(1).every((f) => named(first, f.sentence.text) || named(f.sentence.text, first));
}

/** A word that negates what follows it (a token: the tagger gives "n't" and "not" of "cannot" their own). */
const NEGATION_WORD = /^(?:no|not|never|neither|nor|none|without|cannot|n['’]t)$/i;

/** The head of what each negation in a statement negates: its noun phrase's last noun or its verb ("No gametes are formed" → gamete; "no cell wall" → wall; "cannot reproduce" → reproduc). */
function negated(text: string): Set<string> {
  const tags = tagSentence(text);
  const out = new Set<string>();
  tags.forEach((t, i) => {
    if (!NEGATION_WORD.test(t.text)) return;
    let k = tags.findIndex((x, j) => j > i && (x.pos === 'NOUN' || x.pos === 'VERB'));
    if (k < 0) return;
    while (tags[k]!.pos === 'NOUN' && tags[k + 1]?.pos === 'NOUN') k++;
    for (const x of contentStems(tags[k]!.text)) out.add(x);
  });
  return out;
}

/**
 * Whether statements make one two-statement item: about one subject (sameSubject); each a fact of its own, not the
 * same definition said twice (after their subjects' words, at most half of the shorter one's words in the other); and
 * no statement negating what another affirms — "No gametes are formed" beside "Each parent produces … gametes" hold
 * in different parts of the material and read as a contradiction (issue 39 §2, round 23).
 */
export function pairable(facts: readonly { sentence: { text: string } }[]): boolean {
  if (!sameSubject(facts)) return false;
  const texts = facts.map((f) => f.sentence.text);
  const subject = new Set(texts.flatMap((t) => [...subjectStems(t)]));
  const own = texts.map((t) => new Set(contentStems(t).filter((x) => !subject.has(x))));
  for (let i = 0; i < own.length; i++)
    for (let j = i + 1; j < own.length; j++) {
      const shared = [...own[i]!].filter((x) => own[j]!.has(x)).length;
      if (shared * 2 >= Math.min(own[i]!.size, own[j]!.size)) return false;
    }
  const stems = texts.map((t) => new Set(contentStems(t)));
  return texts.every((t, i) => [...negated(t)].every((x) => stems.every((st, j) => j === i || !st.has(x))));
}

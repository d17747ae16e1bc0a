/**
 * Whether a teacher's description reads as a noun phrase, what a definition needs after "is" (issue 39 §2): no verb of
 * its own outside its relative clause, however the tagger read the words. Used by the repairs that turn glossary lines
 * and arrows into definitions (repair.ts, arrow-definitions.ts). Pure.
 */
import { tagSentence } from '../text/pos.js';

/** Irregular past forms that are participles too: active only with an object after them ("Made Nigeria a true federation."). */
export const AMBIGUOUS_PAST = /^(?:made|held|led|set|brought|built|sent|won|lost|had|paid|laid|kept|left|found|put|cut|struck|sold|taught|fought|bought|caught)$/i;

/** A word that opens a relative clause, which has a verb and a pronoun of its own ("place where goods are stored"). */
export const RELATIVE_WORD = /^(?:which|that|who|whom|whose|where|when)$/i;

/**
 * Whether a description reads as a noun phrase: no finite verb or auxiliary before its first
 * relative word or comma ("compound which … conducts electricity" is one; "more concentrated ion
 * may be discharged" is not). A participle ("prepared by", "broken down", "living") may stand there.
 */
export function isNounPhrase(desc: string): boolean {
  // (a verb of change before "as", "when" or "if" is the clause's verb, though the tagger takes it for a plural noun: "the
  // solubility of a gas in water decreases as temperature increases"; round 49)
  if (CHANGE_CLAUSE.test(desc)) return false;
  const tags = tagSentence(desc);
  if (hasClause(tags) || mainVerbAfterRelative(tags)) return false;
  const end = tags.findIndex((t) => t.text === ',' || RELATIVE_WORD.test(t.text) || /^(?:through|by|in|with|of|for)$/i.test(t.text));
  // (an auxiliary after the preposition still makes a clause: "prices of most goods and services must be rising"; round 33)
  const clauseEnd = tags.findIndex((t) => t.text === ',' || RELATIVE_WORD.test(t.text));
  if (tags.slice(0, clauseEnd < 0 ? tags.length : clauseEnd).some((t) => t.pos === 'AUX')) return false;
  // (a word before "of" is a noun however it is tagged: "act of storing goods"; round 29)
  // (and an infinitive is part of the phrase: "person named to receive payment")
  return !tags.slice(0, end < 0 ? tags.length : end).some((t, i) => t.pos === 'AUX' || (t.pos === 'VERB' && !/(?:ed|en|ing)$/i.test(t.text) && !AMBIGUOUS_PAST.test(t.text) && !/^of$/i.test(tags[i + 1]?.text ?? '') && !/^to$/i.test(tags[i - 1]?.text ?? '')));
}

/** A verb of change and the condition it changes under: "… decreases as temperature increases", "… rises when …". */
const CHANGE_CLAUSE = /\b(?:increases|decreases|rises|falls|drops|reduces|changes|grows|varies|doubles|halves)\s+(?:as|when|whenever|if|because|with)\b/i;

/** Words that open a clause of their own inside a description (`mainVerbAfterRelative`). */
const SUBORDINATOR = /^(?:until|unless|because|since|while|whenever|after|before|if|so|as|than|once)$/i;

/**
 * A second verb after a relative clause's own, with nothing to join them: the phrase before it is a sentence's subject
 * ("an ion which is present in high concentration may be discharged …", round 39's unusable "The concentration of the ions
 * is an ion which … may be discharged …"). An infinitive, and verbs joined by "and", "or", a comma or another relative
 * word, are the clause's own ("a compound which … conducts electricity and is decomposed by it").
 */
function mainVerbAfterRelative(tags: ReturnType<typeof tagSentence>): boolean {
  const at = tags.findIndex((t) => RELATIVE_WORD.test(t.text));
  if (at < 0) return false;
  let groups = 0;
  let inVerb = false;
  for (const [i, t] of tags.slice(at + 1).entries()) {
    const verb = t.pos === 'AUX' || (t.pos === 'VERB' && !/ing$/i.test(t.text) && !/^to$/i.test(tags[at + i]?.text ?? ''));
    // (a clause of its own starts at a conjunction, a relative word or a pronoun: "… stored until they are needed")
    if (t.text === ',' || /^(?:CCONJ|SCONJ|PRON)$/.test(t.pos) || RELATIVE_WORD.test(t.text) || SUBORDINATOR.test(t.text)) groups = 0;
    else if (verb && !inVerb && ++groups === 2) return true;
    // ("was not presented", "is usually made": one verb)
    inVerb = verb || (inVerb && /^(?:ADV|PART)$/.test(t.pos));
  }
  return false;
}

/**
 * A subject and its verb inside what should be a noun phrase, however the tagger read them (round 38's development
 * data): a noun, a verb and a determiner ("… of demand and supply fix the prices of shares"), or a plural-looking noun
 * after its adjective or noun with an adverb in "-ly" after it ("solid changes directly to vapour"). Before a relative
 * word only: what follows one is its own clause.
 */
export function hasClause(tags: ReturnType<typeof tagSentence>): boolean {
  const end = tags.findIndex((t) => RELATIVE_WORD.test(t.text));
  return tags.slice(0, end < 0 ? tags.length : end).some((t, i) => {
    const before = tags[i - 1]?.pos ?? '';
    const after = tags[i + 1];
    if (t.pos === 'VERB' && /^(?:NOUN|PROPN)$/.test(before) && after?.pos === 'DET' && !/(?:ed|en|ing)$/i.test(t.text) && !AMBIGUOUS_PAST.test(t.text)) return true;
    return t.pos === 'NOUN' && /[^s]s$/i.test(t.text) && /^(?:ADJ|NOUN)$/.test(before) && after?.pos === 'ADV' && /ly$/i.test(after.text);
  });
}

/**
 * Whether a description is a list of examples, not a definition: two or more short parts (three words at most) parted by
 * commas, none with an article or a preposition ("street hawking, bus conductors, begging"; "forced prostitution,
 * pornography"). "Mixture of sand, silt and clay" and "a grey powder, made from …" define.
 */
function isExampleList(desc: string): boolean {
  if (!desc.includes(',')) return false;
  const parts = desc.replace(/[.!]$/, '').split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).filter(Boolean);
  return parts.length >= 2 && parts.every((p) => p.split(/\s+/).length <= 3 && !/\b(?:a|an|the|of|in|from|by|to|with|for|on|at|into|which|that|who)\b/i.test(p));
}

/**
 * How a glossary line's term joins a description written without an article ("Direct labour –
 * wages of workers who …", "Barter – exchange of goods for goods"): "are" for plural things
 * described by plural things, "refers to" for one thing described by plural things ("Direct
 * labour refers to wages of workers …"), "is the" for one thing described by one thing; null
 * when the description is no defining noun phrase. Besides "are" for a plural noun straight
 * after the dash (as before), the description must open with at most two adjectives and its
 * noun, then a preposition, a relative word or a participle ("goods started but not …"), and
 * have no finite verb before its relative clause: "makes eggs", "completed and ready for sale",
 * "farmers", "tractors, hire services", "tax revenue rises as …" and "burning for hunting
 * destroys …" are notes (round 45's development run). `person`: whether a noun names a person
 * in a role ("agent"), which takes no "is the". Issue 39 §2.
 */
export function bareDescriptionLink(desc: string, pluralTerm: boolean, plural: (word: string) => boolean, person: (word: string) => boolean): 'are' | 'refers to' | 'is the' | null {
  const tags = tagSentence(desc);
  const finite = (t: { text: string; pos: string }) => t.pos === 'AUX' || (t.pos === 'VERB' && !/(?:ed|en|ing)$/i.test(t.text) && !AMBIGUOUS_PAST.test(t.text));
  // (as before round 45: plural things described by a plural noun, "Standing orders – instructions given …")
  const [first, second] = tags;
  if (pluralTerm && first?.pos === 'NOUN' && plural(first.text) && !(second && finite(second))) return 'are';
  // (shorthand is a note's: "&", arrows, "damage to other ships/ports"; and a list of examples is none: "street hawking, bus
  // conductors, begging" of child labour, round 59)
  if (/[&→=+/]/.test(desc) || isExampleList(desc)) return null;
  let at = 0;
  while (tags[at]?.pos === 'ADJ') at++;
  const head = tags[at];
  const next = tags[at + 1];
  if (head?.pos !== 'NOUN' || at > 2 || !next || !isNounPhrase(desc)) return null;
  if (!(next.pos === 'ADP' || RELATIVE_WORD.test(next.text) || (next.pos === 'VERB' && !finite(next)))) return null;
  const clause = tags.findIndex((t) => t.text === ',' || RELATIVE_WORD.test(t.text));
  if (tags.slice(0, clause < 0 ? tags.length : clause).some(finite)) return null;
  if (plural(head.text)) return pluralTerm ? 'are' : 'refers to';
  // (a person in a role is one of many, "Broker – agent who links …" is not "Broker is the agent …")
  return pluralTerm || person(head.text) ? null : 'is the';
}

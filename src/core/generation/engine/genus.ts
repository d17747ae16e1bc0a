/**
 * The grammar of a definition (definitions.ts): the kind a description names (its genus noun),
 * whether a word is plural, and whether a description names its own term.
 */
import { stemSet } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';

/** Whether a word is a plural noun's form ("cheques", "projections"; not "glass", "virus", "basis"). */
export const isPluralWord = (w: string) => /[^su'’]s$/i.test(w) && !/(?:ss|us|is)$/i.test(w);

/**
 * Genus of a description: the head of its first noun phrase (lemma, lower case), whether it opens
 * with an article, and whether the noun phrase is qualified (a preposition, relative clause,
 * participle or infinitive follows it: "the process by which …", "a price ceiling set by …").
 */
export function genusOf(description: string): { genus: string | null; article: boolean; qualified: boolean; plural: boolean } {
  const tags = tagSentence(`X is ${description}.`).slice(2);
  let i = 0;
  const article = /^(?:the|a|an|any)$/i.test(tags[0]?.text ?? '');
  if (article) i++;
  let head: string | null = null;
  let headText = '';
  for (; i < tags.length; i++) {
    const t = tags[i]!;
    if (t.text === '-' && tags[i + 1]) {
      // a hyphenated modifier ("finger-like", "non-current"): the next part belongs to it, the head is still to come
      i++;
      head = null;
    } else if (t.pos === 'NOUN' || t.pos === 'PROPN' || (t.pos === 'VERB' && /[^s]s$/i.test(t.text) && i === (article ? 1 : 0))) {
      // (a verb's -s form straight after "is" is a plural noun the tagger misread, "X is cheques which …", and its lemma a
      // verb's, "check": round 26)
      head = t.pos === 'VERB' ? t.text.toLowerCase().slice(0, -1) : t.lemma.toLowerCase();
      headText = t.text;
    }
    // a gerund heading the phrase ("the buying and selling of …")
    else if (t.pos === 'VERB' && /ing$/i.test(t.text) && head === null && article && !/^(?:NOUN|PROPN|ADJ)$/.test(tags[i + 1]?.pos ?? '')) head = t.text.toLowerCase();
    else if (t.pos === 'CCONJ' && head !== null && /^(?:NOUN|VERB)$/.test(tags[i + 1]?.pos ?? '')) i++;
    else if (/^(?:ADJ|ADV|NUM)$/.test(t.pos) || (t.pos === 'VERB' && /(?:ed|ing)$/.test(t.text) && head === null) || t.text === '-' || (t.text === ',' && head === null)) continue;
    else break;
  }
  const next = tags[i];
  const qualified = head !== null && next !== undefined && (/^(?:ADP|PART|SCONJ)$/.test(next.pos) || /^(?:that|which|who|whose|whom|where|whereby)$/i.test(next.text) || (next.pos === 'VERB' && /(?:ed|en|ing)$/.test(next.text)) || (next.pos === 'VERB' && /^(?:set|made|held|paid|kept|built|put|given|known|shown|done|run)$/i.test(next.text)));
  const plural = /^(?:a|an)$/i.test(tags[0]?.text ?? '') ? false : isPluralWord(headText) && headText.toLowerCase() !== head;
  return { genus: head, article, qualified, plural };
}

/**
 * Whether a description names its term's words, so that a candidate could choose it by the word
 * ("Money is the money supply …"). The term's head noun opening the description as its kind is
 * no such giveaway ("Dishonoured cheques are cheques which …": the modifier is what is asked;
 * round 26): a term of two or more words may share its last word with the description's first noun.
 */
export function namesTerm(description: string, term: string): boolean {
  const termStems = stemSet(term);
  const shared = [...stemSet(description)].filter((x) => termStems.has(x));
  if (!shared.length) return false;
  const words = term.split(/\s+/);
  const head = stemSet(words[words.length - 1]!);
  // (the genus may follow one adjective: "Direct materials are raw materials which …"; round 45)
  const [first = '', second = ''] = description.replace(/^(?:the|a|an)\s+/i, '').split(/\s+/);
  return words.length < 2 || !shared.every((x) => head.has(x)) || ![...stemSet(`${first} ${second}`)].some((x) => head.has(x));
}

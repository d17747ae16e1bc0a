/**
 * Part-of-speech tags and lemmas for the generation engine, from wink-nlp with its
 * English "lite web" model (both from npm, MIT; the model ships inside the package, so
 * nothing is downloaded at run time). Distractors must share the key's word class
 * (issue 21 §3: a verb key such as "The government ___ to invest" must not get nouns).
 * Tags are Universal POS (NOUN, PROPN, VERB, AUX, ADJ, ADV, NUM, …).
 */
import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';

// loaded on first use, not on import: the model costs ~56 MB of memory, and only the worker
// that generates questions needs it (not the server process, not the worker reading material)
const load = createRequire(import.meta.url);

/** One tagged word with its character offsets in the sentence. */
export interface TaggedWord {
  text: string;
  start: number;
  end: number;
  pos: string;
  lemma: string;
}

let nlp: ReturnType<typeof winkNLP> | null = null;
/** The tagger, built on first use (the model takes a moment to load). */
function wink(): ReturnType<typeof winkNLP> {
  nlp ??= (load('wink-nlp') as typeof winkNLP)(load('wink-eng-lite-web-model'));
  return nlp;
}

const cache = new Map<string, TaggedWord[]>();

/**
 * Tags one sentence. One correction on top of the model: a word tagged NOUN between a
 * noun and "to" + verb is a verb ("The government plans to invest"), a frame the lite
 * model gets wrong. Memoised per sentence.
 */
export function tagSentence(sentence: string): TaggedWord[] {
  const hit = cache.get(sentence);
  if (hit) return hit;
  const { its } = wink();
  const toks = wink().readDoc(sentence).tokens();
  const values = toks.out(its.value) as string[];
  const pos = toks.out(its.pos) as string[];
  // wink-nlp's typings declare its.lemma with a different add-on signature; at run time it is an ordinary its function.
  const lemmas = toks.out(its.lemma as unknown as typeof its.value) as string[];
  const out: TaggedWord[] = [];
  let at = 0;
  values.forEach((v, i) => {
    const start = sentence.indexOf(v, at);
    const s = start < 0 ? at : start;
    out.push({ text: v, start: s, end: s + v.length, pos: pos[i]!, lemma: lemmas[i]! });
    at = s + v.length;
  });
  for (let i = 1; i + 2 < out.length; i++) {
    const [prev, w, to, next] = [out[i - 1]!, out[i]!, out[i + 1]!, out[i + 2]!];
    if (w.pos === 'NOUN' && /^(?:NOUN|PROPN|PRON)$/.test(prev.pos) && to.text.toLowerCase() === 'to' && next.pos === 'VERB' && /s$/i.test(w.text)) w.pos = 'VERB';
  }
  // bounded: a capped 1,000,000-character material has thousands of sentences, and the tagged
  // words of all of them would stay in the worker after the request (issue 22: uploads must not
  // take the hall's memory)
  if (cache.size > 2_000) cache.clear();
  cache.set(sentence, out);
  return out;
}

/** Coarse word class of a Universal POS tag: N (nouns, proper nouns), V (verbs, auxiliaries), A, R, or the tag itself. */
export function wordClass(pos: string): string {
  if (pos === 'NOUN' || pos === 'PROPN') return 'N';
  if (pos === 'VERB' || pos === 'AUX') return 'V';
  if (pos === 'ADJ') return 'A';
  if (pos === 'ADV') return 'R';
  return pos;
}

/** Verb form by suffix (the lite model gives no fine tags): past/participle, gerund, third person, base. */
export function verbForm(word: string): string {
  if (/ed$/i.test(word)) return 'ed';
  if (/ing$/i.test(word)) return 'ing';
  if (/[^s]s$/i.test(word)) return 's';
  return 'base';
}

/**
 * Class of the span [start, end) of `sentence`: the class of its last word (the head of
 * an English noun phrase), with verbs refined by form ("V:ed", "V:s", …). Null when no
 * word of the tagger lies inside the span.
 */
export function spanClass(sentence: string, start: number, end: number): string | null {
  const inside = tagSentence(sentence).filter((w) => w.start >= start && w.end <= end && /\p{L}/u.test(w.text));
  const head = inside[inside.length - 1];
  if (!head) return null;
  const cls = wordClass(head.pos);
  return cls === 'V' ? `V:${verbForm(head.text)}` : cls;
}

/**
 * Names given back their capitals in a material written without them (issue 39 §2, round 32:
 * automatic captions are all lower case, so items read "the sahara is …" and "such as timbuktu").
 * A passage counts as uncapitalised when fewer than 1 in 200 of its letters are capitals (prose
 * has ~3 in 100), or when it has none and its material as a whole is so.
 *
 * In such a passage a word, or a pair of words, takes the lexicon's spelling when the lexicon
 * writes it with a capital in every sense of every part of speech it knows it as (LexKind.proper:
 * "sahara" → "Sahara", "west africa" → "West Africa", "dna" → "DNA"; not "china", which is
 * porcelain too, nor "may", also a verb). Refused besides:
 * - a word that is not a noun or an adjective in its sentence (a past tense can spell a name:
 *   "led" is also LED), a stop word, a word under three letters;
 * - an acronym for a word with more than one vowel ("gao" is not the GAO);
 * - a Latin name of a group of living things ("protozoa", "elodea"), which school texts write in
 *   lower case, and a plural of a common noun ("laws" is also the Laws);
 * - a pair neither of whose words is a name alone ("north pole" is the Earth's in the lexicon,
 *   but a magnet has two).
 * A cue's "no" before a word the lexicon does not know (likely a name) gets the comma speech lost,
 * so it reads as the reply it is ("no, obasanjo was …").
 * docs/decisions.md, "Names in lower-case captions".
 */
import type { Passage } from '../passage.js';
import { isStopWord } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { LEX_POS as POS, type Lexicon } from './lexicon.js';


/** True when fewer than 1 in 200 of the text's letters (at least 100 of them) are capitals. */
export function isUncapitalised(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const capitals = text.match(/\p{Lu}/gu)?.length ?? 0;
  return letters >= 100 && capitals * 200 < letters;
}

/**
 * The lexicon's capitalised spelling of `phrase` (lower case, one or two words), or null: every
 * part of speech that knows it must know it only as a name, found under the phrase itself or,
 * for a plural, its singular ("arabs" → "Arabs").
 */
function nameOf(phrase: string, lexicon: Lexicon): string | null {
  let name: string | null = null;
  for (const pos of POS) {
    const kind = lexicon(phrase, pos);
    if (!kind) continue;
    if (!kind.proper || !kind.lemma) return null;
    const lemma = kind.lemma.replace(/_/g, ' ');
    if (lemma !== phrase && !(lemma.length >= 3 && phrase === `${lemma}s`)) return null;
    // an acronym is taken only when the word cannot be read as a word (one vowel at most: "dna", "atp", "hiv"), since
    // a place may share its letters with one ("gao" is also the GAO)
    if (kind.proper === kind.proper.toUpperCase() && (phrase.match(/[aeiouy]/g)?.length ?? 0) > 1) return null;
    // a group of living things is a Latin name that school texts write in lower case ("protozoa", "elodea"): noun.animal
    // and noun.plant (lexnames(5WN) files 5 and 20)
    if (pos === 'noun' && kind.lexFiles.size && [...kind.lexFiles].every((f) => f === 5 || f === 20)) return null;
    name ??= phrase === lemma ? kind.proper : `${kind.proper}s`;
  }
  // a plural of a common noun is no name, whatever the lexicon lists under it ("laws" is also the Laws)
  if (name && /[^s]s$/.test(phrase) && lexicon(phrase.slice(0, -1), 'noun') && !lexicon(phrase.slice(0, -1), 'noun')!.proper) return null;
  return name;
}

/**
 * A cue's "no" before a word the lexicon does not know at all, likely a name, answers a pupil: it takes the comma speech
 * lost ("no obasanjo was …" → "no, obasanjo was …"; round 33), which spoken.ts reads as a reply.
 */
function replyComma(line: string, lexicon: Lexicon): string {
  const m = /^no\s+(\p{Ll}{3,})\b/u.exec(line);
  return m && !isStopWord(m[1]!) && POS.every((pos) => !lexicon(m[1]!, pos)) ? `no,${line.slice(2)}` : line;
}

/** One line with its names capitalised (nouns and adjectives only, two-word names first). */
function recaseLine(text: string, lexicon: Lexicon, memo: Map<string, string | null>): string {
  const line = replyComma(text, lexicon);
  const tags = tagSentence(line);
  const look = (phrase: string) => {
    if (!memo.has(phrase)) memo.set(phrase, nameOf(phrase, lexicon));
    return memo.get(phrase)!;
  };
  const nameable = (i: number) => {
    const t = tags[i];
    return !!t && /^(?:NOUN|PROPN|ADJ)$/.test(t.pos) && /^\p{Ll}[\p{Ll}'’-]*$/u.test(t.text) && t.text.length >= 3 && !isStopWord(t.text);
  };
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tags.length; i++) {
    // (the first word of a pair may be any word but a stop word: "west africa", "north africa")
    const next = tags[i + 1];
    if (next && nameable(i + 1) && /^\p{Ll}+$/u.test(tags[i]!.text) && !isStopWord(tags[i]!.text) && line.slice(tags[i]!.end, next.start) === ' ') {
      // (one of its words must be a name alone: "north pole" is the Earth's in the lexicon, but a magnet has two)
      const pair = look(tags[i]!.text) || look(next.text) ? look(`${tags[i]!.text} ${next.text}`) : null;
      if (pair) {
        edits.push({ start: tags[i]!.start, end: next.end, text: pair });
        i++;
        continue;
      }
    }
    if (!nameable(i)) continue;
    const one = look(tags[i]!.text);
    if (one) edits.push({ start: tags[i]!.start, end: tags[i]!.end, text: one });
  }
  let out = line;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * The passages with the names of uncapitalised ones capitalised (module doc); others, and all
 * of them without a lexicon, are returned as they are. A name keeps its length; the only
 * text added is the comma after a reply's "no" (replyComma).
 */
export function recaseNames(passages: Passage[], lexicon: Lexicon | undefined): Passage[] {
  if (!lexicon) return passages;
  const memo = new Map<string, string | null>();
  // (a short passage has too few letters to judge: it goes with its material)
  const material = isUncapitalised(passages.map((p) => p.text).join('\n'));
  const uncapitalised = (p: Passage) => isUncapitalised(p.text) || (material && !/\p{Lu}/u.test(p.text));
  return passages.map((p) => (uncapitalised(p) ? { ...p, text: p.text.split('\n').map((line) => recaseLine(line, lexicon, memo)).join('\n') } : p));
}

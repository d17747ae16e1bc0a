/**
 * Whether a swap reads as nonsense rather than as a false statement a candidate could believe
 * (issue 39 §2; the swaps themselves are falsehood.ts's): a term the material uses broken in two
 * (`breaksTerm`), a bracket that glosses the swapped words (`glossed`), the head of an "X of Y"
 * name (`namesWithOf`), a count noun where the material has a bare mass noun (`bareMismatch`), a side of
 * a contrast the material draws in two ways at once (`twoWayContrast`). Pure.
 */

/** A swap that makes a sentence false: the character range replaced and its replacement. */
export interface Falsehood {
  start: number;
  end: number;
  original: string;
  replacement: string;
}

/** Nouns a size or degree word qualifies without making a term with it ("a large number", "a small amount"). */
const QUANTITY_NOUN = /^(?:number|numbers|amount|amounts|quantity|quantities|part|parts|deal|majority|extent|proportion|share)$/;

/**
 * Whether a one-word swap breaks a term the material uses: the word and the noun after it occur
 * together at least twice in the material (a term: "lower surface", "light stage", "general
 * formula") and the swapped pair never does ("higher surface", "heavy stage", "specific
 * formula": no such thing, so the false statement is nonsense rather than a test; issue 39 §2,
 * round 24). `materialText` is the material lower-cased with its spaces collapsed.
 */
export function breaksTerm(text: string, swap: Falsehood, materialText: string): boolean {
  if (/\s/.test(swap.original) || /\s/.test(swap.replacement)) return false;
  const noun = /^\s+([\p{L}-]+)/u.exec(text.slice(swap.end))?.[1]?.toLowerCase();
  if (!noun || QUANTITY_NOUN.test(noun)) return false;
  const count = (pair: string) => materialText.split(new RegExp(`\\b${pair.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`)).length - 1;
  return count(`${swap.original.toLowerCase()} ${noun}`) >= 2 && count(`${swap.replacement.toLowerCase()} ${noun}`) === 0;
}

/**
 * Whether a bracket right after the swapped words says what they are ("add lime (calcium oxide
 * or calcium hydroxide)"): swapped, the statement keeps the gloss of the original and gives the
 * key away, or reads as nonsense ("add water (calcium oxide …)"; issue 39 §2, round 7). Or the
 * swapped words are inside such a bracket: the gloss then no longer fits what it glosses ("Sand
 * (silicon(IV) water) is giant covalent"; round 5's development packet).
 */
export function glossed(text: string, f: Falsehood): boolean {
  const before = text.slice(0, f.start);
  const open = (before.match(/\(/g)?.length ?? 0) - (before.match(/\)/g)?.length ?? 0);
  return open > 0 || /^\s*\(/.test(text.slice(f.end));
}

/**
 * Whether the swapped words head a fixed "X of Y" name ("water of crystallisation", "angle of
 * incidence", "rate of reaction": "of" and a bare noun after them, no article): swapped, the
 * name becomes nonsense ("oxide of crystallisation"; issue 39 §2, round 7 development data).
 * "The wall of the stomach", with its article, is a part of a thing, not a name, and may change.
 */
export function namesWithOf(text: string, f: Falsehood): boolean {
  return /^\s+of\s+(?!(?:the|a|an|its|their|his|her|this|that|these|those|our|your|each|every|some|all|both|many|most|one|two|three)\b)\p{L}/iu.test(text.slice(f.end));
}

/** Words after which a singular noun stands bare, without an article: a mass noun ("a volume of water", "form salt"). */
const BARE_AFTER = '(?:of|in|with|into|from|by|and|or|to|as|on|than|no|form|forms|produce|produces|give|gives|contain|contains|add|adds|is|are)';

/**
 * Whether the swap puts a count noun where the material has a mass noun standing bare ("a given
 * volume of water" → "volume of molecule"; issue 39 §2, round 7 development data): the original
 * stands bare after a word of BARE_AFTER and the replacement is never used bare that way in the
 * material, so the altered statement is ungrammatical and false from its wording alone.
 */
export function bareMismatch(text: string, f: Falsehood, material: string): boolean {
  if (!new RegExp(`\\b${BARE_AFTER}\\s+$`, 'i').test(text.slice(0, f.start))) return false;
  const word = f.replacement.trim().split(/\s+/)[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return !new RegExp(`\\b${BARE_AFTER}\\s+${word}\\b(?!['’]?s\\b)`, 'i').test(material);
}

/**
 * Whether the material draws the contrast the swap crosses in two ways at once: it writes the replacement and, after a comma,
 * another quality before the same noun ("Small, general donations are income") that the statement lacks. The altered
 * statement ("A small donation for a special purpose goes to a special fund") then describes a case the material never
 * settles, and the key False cannot be defended (issue 39 §2, round 48 item 3, a wrong key). `materialText` is the
 * material lower-cased with its spaces collapsed.
 */
export function twoWayContrast(text: string, swap: Falsehood, materialText: string): boolean {
  if (/\s/.test(swap.original) || /\s/.test(swap.replacement)) return false;
  const noun = /^\s+([\p{L}-]+)/u.exec(text.slice(swap.end))?.[1]?.toLowerCase().replace(/s$/, '');
  if (!noun || noun.length < 3) return false;
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (two qualities side by side, the comma between them: "small, general donations"; "higher water concentration" names one)
  const re = new RegExp(`\\b${esc(swap.replacement.toLowerCase())}\\s*,\\s*([\\p{L}-]+)\\s+${esc(noun)}s?\\b`, 'gu');
  const lower = text.toLowerCase();
  return [...materialText.matchAll(re)].some((m) => !new RegExp(`\\b${esc(m[1]!)}\\b`, 'u').test(lower));
}

/** A claim someone made, before the swapped word: "Darwin said …", "According to Lamarck, …". */
const REPORTED = /\b(?:said|says|believed|believes|stated|states|proposed|proposes|argued|argues|claimed|claims|suggested|suggests|according\s+to)\b/i;

/**
 * Whether a one-word swap turns a claim someone made about a thing the material describes both ways: the claim's words
 * are reported ("Darwin said the long neck was already there as a variation") and the material writes the original with
 * the noun after it and the replacement with it too ("long neck", "short neck"). A lesson that sets two claims side by
 * side (Lamarck's and Darwin's) makes the swapped claim one it may half say of the other side, and it may contradict the
 * claim's own words ("the animal stretched and acquired the short neck"; issue 39 §2, round 58). `materialText` is the
 * material lower-cased with its spaces collapsed.
 */
export function bothSides(text: string, swap: Falsehood, materialText: string): boolean {
  if (/\s/.test(swap.original) || /\s/.test(swap.replacement) || !REPORTED.test(text.slice(0, swap.start))) return false;
  const noun = /^\s+([\p{L}-]+)/u.exec(text.slice(swap.end))?.[1]?.toLowerCase().replace(/(?:es|s)$/, '');
  if (!noun || noun.length < 3 || QUANTITY_NOUN.test(noun)) return false;
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const says = (word: string) => new RegExp(`\\b${esc(word.toLowerCase())}\\s+${esc(noun)}(?:s|es)?\\b`, 'u').test(materialText);
  return says(swap.original) && says(swap.replacement);
}

/** "a" or "an" as a word of ordinary spelling takes it: "an" before a vowel, but not before "uni-", "use", "one", "eu-". */
const articleFor = (word: string) => (/^(?:[aeio]|u(?!ni|s[aeiu]|ti|re))/i.test(word) && !/^(?:one|eu)/i.test(word) ? 'an' : 'a');

/**
 * The swap with "a" and "an" made to agree with the words swapped in: the article just before the swap and those inside
 * it ("a verb or an adjective" exchanged is "an adjective or a verb", not "a adjective or an verb"; issue 39 §2, round
 * 60). Other words are left as they are.
 */
export function withAgreedArticles(text: string, f: Falsehood): Falsehood {
  const inside = f.replacement.replace(/\b(a|an|A|An)(\s+)([\p{L}]+)/gu, (_, art: string, sp: string, w: string) => `${art[0] === 'A' ? articleFor(w).replace(/^a/, 'A') : articleFor(w)}${sp}${w}`);
  const before = /\b(a|an|A|An)(\s+)$/.exec(text.slice(0, f.start));
  const first = /^[\p{L}]+/u.exec(inside)?.[0];
  if (!before || !first) return { ...f, replacement: inside };
  const art = before[1]![0] === 'A' ? articleFor(first).replace(/^a/, 'A') : articleFor(first);
  if (art === before[1]) return { ...f, replacement: inside };
  return { start: before.index, end: f.end, original: text.slice(before.index, f.end), replacement: `${art}${before[2]}${inside}` };
}

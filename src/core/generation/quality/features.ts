/**
 * Named features of a generated item (issue 39 §2; docs/quality.md, "Quality model (issue 39 §2)"):
 * what the judges of rounds 2 and 3 (docs/quality-generation-ratings.md) rated items down for,
 * measured from the item as the examiner receives it and from the material it came from. The
 * same function describes the built-in engine's items, the LLM's items and the judged items the
 * base model was fitted on, so it reads only the item (prompt, options, key, explanation,
 * citation) and the material's passages — never the engine's internals. Pure: no I/O (the
 * lexicon, WordNet, is passed in).
 *
 * Every feature is a number, most 0/1, the rest scaled to about 0–1 (named in FEATURE_NAMES).
 */
import type { Passage } from '../passage.js';
import type { GeneratedQuestion } from '../schemas.js';
import { unescapeMd } from '../support.js';
import { headWord, kinship, type LexKind, type Lexicon } from '../engine/lexicon.js';
import { DANGLING_CONNECTIVE, NO_SUBJECT, RELATIONAL_SUBJECT, SPOKEN_NUMBERING, stripMarkdown } from '../engine/sentences.js';
import type { QualityFeatures } from './model.js';

/** The material an item came from, indexed once for many items (materialContext). */
export interface ItemContext {
  passages: Passage[];
  /** lower-cased passage texts, whitespace squashed */
  lower: string[];
  /** the whole material, lower case */
  all: string;
  /** words of the material */
  words: number;
  lexicon?: Lexicon;
}

/** Indexes a material's passages for itemFeatures (lexicon: WordNet `kindOf`, optional). */
export function materialContext(passages: Passage[], lexicon?: Lexicon): ItemContext {
  const lower = passages.map((p) => stripMarkdown(p.text).toLowerCase().replace(/\s+/g, ' '));
  const all = lower.join(' \n ');
  return { passages, lower, all, words: all.split(/\s+/).filter(Boolean).length, lexicon };
}

/** The features in a fixed order (the fitted model's weights are named by them). */
export const FEATURE_NAMES = [
  'isTrueFalse', 'isEssay', 'mcqCloze', 'mcqDefinition', 'statements', 'citations', 'tierIntermediate', 'tierHard',
  'keyFalse', 'falseSwapSibling', 'falseSwapAntonym', 'falseSwapOther', 'falseSelfContradiction', 'multiKeyedTrue',
  'blankStopPhrase', 'blankGeneralWord', 'blankProperName', 'blankIncidental', 'blankAtStart', 'keyFrequency', 'keyWords', 'keyUnknownWord',
  'distractorKindAgreement', 'distractorSharedHypernym', 'distractorGeneral', 'distractorSamePassage', 'distractorNotInMaterial', 'articleMismatch',
  'optionLengthImbalance', 'optionClause', 'fewOptions',
  'stemDanglingOpener', 'stemPronounFirst', 'stemFigureReference', 'stemWords', 'stemGarbled',
  'sourceScenario', 'sourcePaperTalk', 'essayTemplate',
] as const;

/**
 * The features that name a fault the judges rated items down for (docs/quality-generation-ratings.md,
 * "Main faults"): they may only lower a score, whatever a small sample says (fitLogistic `nonPositive`).
 */
export const FAULT_FEATURES = [
  'falseSwapAntonym', 'falseSwapOther', 'falseSelfContradiction', 'blankStopPhrase', 'blankGeneralWord', 'blankProperName', 'blankIncidental', 'keyUnknownWord',
  'distractorGeneral', 'distractorNotInMaterial', 'articleMismatch', 'optionLengthImbalance', 'optionClause', 'fewOptions',
  'stemDanglingOpener', 'stemPronounFirst', 'stemFigureReference', 'stemGarbled', 'sourceScenario', 'sourcePaperTalk', 'essayTemplate',
] as const;

/**
 * Faults that make an item unusable by the judges' rule whatever else it has (a reference to a
 * figure the candidate cannot see, a false statement that contradicts itself, a blank on a name (round 3: "Nigeria", "Canada", "Oghiei"), fewer than four options, a statement
 * that cannot stand alone): an item with one is withheld even when its score passes.
 */
export const FATAL_FEATURES = ['falseSelfContradiction', 'stemFigureReference', 'blankProperName', 'fewOptions', 'stemDanglingOpener', 'stemPronounFirst', 'optionClause', 'articleMismatch'] as const;

const STOP_PHRASE_BEFORE = /(?:\b(?:of|in|into|to|on|for|by|with|from|per)|['’]s)\s*$/i;
const STOP_PHRASE_AFTER = /^\s*(?:of|and|or|to)\b/i;
const IDIOM = /\b(?:in theory|in practice|in addition|as a result|in general|in other words|in particular|for example|at least|in fact|in order)\b/i;
const DANGLING_OPENER = /^(?:both|also|however|thus|therefore|hence|so|furthermore|moreover|similarly|likewise|again|instead|this|these|those|such|it|its|they|their|he|she|his|her|in other words|on the other hand|in this case|as a result|for this reason|in short|the (?:objective|solution|answer|principle|process|former|latter))\b/i;
const FIGURE_REF = /\b(?:figure|fig\.|table|diagram|chart|illustration|graph (?:above|below|shown)|shown (?:above|below)|the above|the below|above|below|the following|as follows|see page)\b/i;
const PAPER_TALK = /\b(?:required|candidates?|examiners?|marks?|question|suggested solution|marking|scenario|case study|ltd|plc|limited)\b|[₦$£€]\s?\d|\b\d{1,3}(?:,\d{3})+\b/gi;
const CLAUSE = /\b(?:is|are|was|were|has|have|had|does|do|can|will|would)\b/i;

/** `text` lower-cased with Markdown escapes undone. */
const plain = (text: string) => unescapeMd(text).replace(/\s+/g, ' ').trim();

/** The statements an item puts to the candidate (a cloze's statements with their blank, a true/false item's statements). */
function statementsOf(q: GeneratedQuestion): string[] {
  const p = unescapeMd(q.prompt);
  // one statement: "True or false? <statement>" (before round 8's stems: "True or false? According to the material: <statement>")
  const tfSingle = /^True or false\?\s*(?:According to the material:\s*)?([^\n]+)$/.exec(p.trim());
  if (q.type === 'TRUE_FALSE' && tfSingle) return [tfSingle[1]!.trim()];
  // a direct question over its options ("Which of the following is NOT a cause of X?", "… best describes X?") puts no
  // statement to the candidate: its "the following" are the options, not a figure
  // (so does "Which term is defined as “…”?", definitions.ts: the quoted description is no statement; round 45's development run)
  if (q.type === 'MCQ' && /^Which (?:of the following|term is defined as)\b[^\n_]*\?$/.test(p.trim())) return [];
  const parts = p.split(/\n\s*\n/);
  const body = parts.length > 1 ? parts.slice(1).join('\n') : p;
  return body.split('\n').map((l) => l.replace(/^\s*\d+\.\s+/, '').trim()).filter(Boolean);
}

/** The source sentences an explanation quotes: `(citation) “…”` (the engine's form; an LLM's may have none). */
function quotedSources(q: GeneratedQuestion): string[] {
  return [...unescapeMd(q.explanation).matchAll(/\(([^()]{1,40})\) “([^”]+)”/g)].map((m) => m[2]!.trim());
}

/** How many times `phrase` (lower case) occurs in `text`, on word boundaries. */
function occurrences(text: string, phrase: string): number {
  if (!phrase) return 0;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'giu');
  return (text.match(re) ?? []).length;
}

const look = (lex: Lexicon | undefined, term: string): LexKind | null => (lex ? lex(headWord(term), 'noun') ?? lex(headWord(term), 'adj') ?? lex(headWord(term), 'verb') : null);

/** The first passage (index) holding `sentence`'s opening words, or -1. */
function passageOf(ctx: ItemContext, sentence: string): number {
  const probe = sentence.toLowerCase().replace(/\s+/g, ' ').slice(0, 50);
  return probe.length < 8 ? -1 : ctx.lower.findIndex((t) => t.includes(probe));
}

/** The cloze's blank: the source sentence, the key's place in it, the words either side (null when the item is no cloze). */
function blankOf(statement: string, key: string): { before: string; after: string; source: string } | null {
  const m = /_{3,}/.exec(statement);
  if (!m) return null;
  return { before: statement.slice(0, m.index), after: statement.slice(m.index + m[0].length), source: statement.slice(0, m.index) + key + statement.slice(m.index + m[0].length) };
}

/** The false statement's swap: `False: the material says “orig”, not “repl”` (the engine's explanation), or null. */
function swapOf(q: GeneratedQuestion): { original: string; replacement: string } | null {
  const m = /the material says “([^”]+)”, not “([^”]+)”/.exec(unescapeMd(q.explanation));
  return m ? { original: m[1]!, replacement: m[2]! } : null;
}

/**
 * Features of one generated item.
 * @param q the item as returned by an engine (GeneratedQuestion)
 * @param ctx its material (materialContext), with WordNet when the caller has it (without it the
 *   lexical features read 0 and the kind of a swap is "other")
 * @returns named features (FEATURE_NAMES); no feature is missing
 */
export function itemFeatures(q: GeneratedQuestion, ctx: ItemContext): QualityFeatures {
  const f: QualityFeatures = Object.fromEntries(FEATURE_NAMES.map((n) => [n, 0]));
  const statements = statementsOf(q);
  const options = q.options.map((o) => plain(o.text));
  const keyOpt = q.options.find((o) => o.isCorrect);
  const key = keyOpt ? plain(keyOpt.text) : '';
  const distractors = q.options.filter((o) => !o.isCorrect).map((o) => plain(o.text));
  const prompt = unescapeMd(q.prompt);
  const citations = q.citation.split(/\s*;\s*/).filter(Boolean);
  const lex = ctx.lexicon;

  f.isTrueFalse = q.type === 'TRUE_FALSE' ? 1 : 0;
  f.isEssay = q.type === 'SHORT_ESSAY' ? 1 : 0;
  f.statements = q.type === 'SHORT_ESSAY' ? 0 : Math.min(statements.length, 3) / 3;
  f.citations = Math.min(citations.length, 3) / 3;
  f.tierIntermediate = q.difficulty === 'intermediate' ? 1 : 0;
  f.tierHard = q.difficulty === 'hard' ? 1 : 0;

  // the statement as the candidate reads it: opener, references, length, garbling
  for (const s of q.type === 'SHORT_ESSAY' ? [] : statements) {
    // (and list numbering, a connective whose referent is elsewhere, no subject named: issue 39 §2, engine/sentences.ts)
    if (DANGLING_OPENER.test(s) || /,\s*(?:on the other hand|also|however)\b/i.test(s) || SPOKEN_NUMBERING.test(s) || DANGLING_CONNECTIVE.test(s) || NO_SUBJECT.test(s) || RELATIONAL_SUBJECT.test(s)) f.stemDanglingOpener = 1;
    if (/^(?:\S+\s+){0,2}(?:it|they|them|he|she|its|their)\b/i.test(s)) f.stemPronounFirst = 1;
    if (FIGURE_REF.test(s)) f.stemFigureReference = 1;
    if (!/[.!)"”’]$/.test(s.trim()) || /^[\p{Ll}]/u.test(s) || /\b(\w+) \1\b/i.test(s)) f.stemGarbled = 1;
  }
  if (q.type === 'SHORT_ESSAY' && FIGURE_REF.test(prompt)) f.stemFigureReference = 1;
  const stemWords = (q.type === 'SHORT_ESSAY' ? prompt : statements.join(' ')).split(/\s+/).filter(Boolean).length;
  f.stemWords = Math.min(stemWords, 80) / 40;

  // the source: a case scenario's names, a question paper's talk
  const sources = quotedSources(q);
  const sourceText = (sources.length ? sources : statements).join(' ');
  const names = [...sourceText.matchAll(/(?<=[\p{Ll},;]\s)(\p{Lu}\p{Ll}{2,})\b/gu)].map((m) => m[1]!).filter((w) => !lex || !lex(w.toLowerCase(), 'noun'));
  f.sourceScenario = Math.min(names.length, 2) / 2;
  const cited = ctx.passages.filter((p) => citations.includes(p.citation)).map((p) => p.text).join(' ');
  const citedWords = Math.max(1, cited.split(/\s+/).length);
  f.sourcePaperTalk = Math.min(1, ((cited.match(PAPER_TALK) ?? []).length / citedWords) * 50) + (PAPER_TALK.test(sourceText) ? 0.5 : 0);
  PAPER_TALK.lastIndex = 0;

  if (q.type === 'SHORT_ESSAY') {
    f.essayTemplate = /further points? the material makes|drawing on different parts of the material/i.test(prompt) ? 1 : 0;
    return f;
  }

  f.fewOptions = q.type === 'MCQ' && options.length < 4 ? 1 : 0;
  if (q.type === 'TRUE_FALSE') {
    const isFalse = key === 'False';
    f.keyFalse = isFalse ? 1 : 0;
    f.multiKeyedTrue = !isFalse && statements.length > 1 ? 1 : 0;
    const swap = isFalse ? swapOf(q) : null;
    if (isFalse) {
      const a = swap ? look(lex, swap.original) : null;
      const b = swap ? look(lex, swap.replacement) : null;
      const antonym = swap && lex ? ['adj', 'verb', 'adv', 'noun'].some((pos) => lex(headWord(swap.original), pos as 'adj')?.antonyms.has(headWord(swap.replacement))) : false;
      if (antonym) f.falseSwapAntonym = 1;
      else if (swap && ((a && b && kinship(a, b) >= 1) || swap.replacement.split(/\s+/).length > 3)) f.falseSwapSibling = 1;
      else f.falseSwapOther = 1;
      // nonsense, not a confusion: the swapped-out word still stands in the statement ("past needs … in the long-term future", round 3 item 11)
      if (swap && occurrences(statements.join(' ').toLowerCase(), swap.original.toLowerCase()) > 0) f.falseSelfContradiction = 1;
    }
    return f;
  }

  // MCQ
  const blank = statements.length ? blankOf(statements[0]!, key) : null;
  f.mcqCloze = blank ? 1 : 0;
  f.mcqDefinition = /best describes|does the material define|which term is defined as/i.test(prompt) ? 1 : 0;
  if (blank) {
    const before = statements.map((s) => /_{3,}/.exec(s) ? s.slice(0, /_{3,}/.exec(s)!.index) : '');
    const after = statements.map((s) => (/_{3,}/.exec(s) ? s.slice(/_{3,}/.exec(s)!.index).replace(/^_+/, '') : ''));
    if (before.some((b) => STOP_PHRASE_BEFORE.test(b)) || after.some((a) => STOP_PHRASE_AFTER.test(a)) || IDIOM.test(blank.source)) f.blankStopPhrase = 1;
    f.blankAtStart = before.every((b) => b.trim() === '' || /^(?:an?|the)$/i.test(b.trim())) ? 1 : 0;
    const article = /\b(an?)\s*$/i.exec(blank.before)?.[1]?.toLowerCase();
    if (article) {
      const vowel = (w: string) => /^[aeiou]/i.test(w);
      f.articleMismatch = distractors.some((d) => vowel(d) !== vowel(key)) ? 1 : 0;
    }
  }
  const keyKind = look(lex, key);
  const count = occurrences(ctx.all, key.toLowerCase());
  f.keyFrequency = Math.min(Math.log1p(count), 3) / 3;
  f.blankIncidental = blank && count <= 1 ? 1 : 0;
  f.keyWords = Math.min(key.split(/\s+/).length, 4) / 4;
  f.keyUnknownWord = lex && !keyKind ? 1 : 0;
  f.blankGeneralWord = keyKind && key.split(/\s+/).length === 1 && keyKind.senses >= 6 ? Math.min(keyKind.senses, 20) / 20 : 0;
  const startsSentence = blank ? blank.before.trim() === '' : false;
  // a name, not a term: capitalised inside the sentence and unknown to WordNet or a place (noun.location, lexicographer file 15)
  const named = !keyKind || (keyKind.lexFiles.has(15) && keyKind.lexFiles.size === 1);
  f.blankProperName = blank && /^\p{Lu}\p{Ll}/u.test(key) && !startsSentence && named ? 1 : 0;

  // distractors: of the key's kind, from near the key in the material, not general words
  const src = blank ? passageOf(ctx, blank.source) : passageOf(ctx, sources[0] ?? '');
  let kind = 0;
  let hyper = 0;
  let general = 0;
  let same = 0;
  let absent = 0;
  for (const d of distractors) {
    const k = look(lex, d);
    if (keyKind && k) {
      const r = kinship(keyKind, k);
      if (r >= 1) kind++;
      if (r >= 2) hyper++;
    }
    if (k && d.split(/\s+/).length === 1 && k.senses >= 8) general++;
    const lower = d.toLowerCase();
    if (src >= 0 && ctx.lower.slice(Math.max(0, src - 1), src + 2).some((t) => t.includes(lower))) same++;
    if (!ctx.all.includes(lower)) absent++;
  }
  const n = Math.max(1, distractors.length);
  f.distractorKindAgreement = kind / n;
  f.distractorSharedHypernym = hyper / n;
  f.distractorGeneral = general / n;
  f.distractorSamePassage = same / n;
  f.distractorNotInMaterial = absent / n;
  const lengths = options.map((o) => o.length);
  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  f.optionLengthImbalance = mean ? Math.min(Math.abs(key.length - mean) / mean, 2) / 2 : 0;
  // a clause among descriptions (round 3, item 67: "The inner membrane is folded"): some options are sentences, some not
  const clauses = options.filter((o) => o.split(/\s+/).length >= 3 && CLAUSE.test(o)).length;
  f.optionClause = clauses > 0 && clauses < options.length ? 1 : 0;
  return f;
}

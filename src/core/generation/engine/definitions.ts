/**
 * Definition-matching items (issue 21 §3, "generation that needs less fixing": every MCQ was a
 * cloze recall item). Where the material defines several terms of the same kind ("X is a …",
 * "X means …", "X refers to …", "… is called X", a slide's "X: …"), it makes:
 *
 * - "Which of the following best describes X?" — the key is the material's definition of X,
 *   the distractors are its definitions of sibling terms (same kind: same genus noun or a
 *   WordNet kin of it, near X in the material);
 * - "Which term is defined as “…”?" — the options are the sibling terms;
 * - a believable false statement "X is <the definition of Y>" for TRUE_FALSE, far better than
 *   an antonym swap (which few sentences have).
 *
 * A definition that mentions the other term or shares most of its words with the key's is never
 * an option (it could be true of the term too). Both the key's sentence and the distractors'
 * sentences are cited. Nothing here draws at random except the option order (seeded).
 */
import { linesToParagraphs, type Passage } from '../passage.js';
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { contentStems, splitSentences, stemSet, words } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shortId, shuffled } from '../text/seed.js';
import { genusOf, isPluralWord, namesTerm } from './genus.js';
import { headWord, kinship, type Lexicon } from './lexicon.js';
import { explainFrom, joinCitations, mdEscape } from './markdown.js';
import { rejectReason, stripMarkdown, type MaterialIndex } from './sentences.js';

/** One definition the material gives. */
export interface Definition {
  /** The defined term as written ("Peristalsis", "open market operations"). */
  term: string;
  /** What the material says it is, trimmed to one self-contained clause ("the wave of muscular contraction that …"). */
  description: string;
  /** The linking verb to restate it: "is" or "are" (a "means"/"refers to" definition restates with "is"). */
  verb: 'is' | 'are';
  /** The sentence or slide line as the material has it (quoted in explanations). */
  source: string;
  citation: string;
  passageIndex: number;
  /** Index sentences that hold this definition (marked used when an item is made from it). */
  sentenceIdx: number[];
  /** Head noun of the description's first noun phrase, lower case ("wave", "institution"); null when none. */
  genus: string | null;
  /** Whether the description opens with an article ("a", "an", "the"). */
  article: boolean;
  /** Whether the description names a plural ("tiny projections that …"): options must agree in number. */
  plural: boolean;
  /** The article the material put before the term ("a", "an", "the"; null for none): restated, "A base is …", not "Base is …". */
  termArticle?: string | null;
}

const PRONOUNISH = /^(?:it|its|this|that|these|those|they|there|he|she|which|what|who|each|one|some|any|all|both|such|here|we|you|i|our|your|their)$/i;
/** Cuts a description at the first loose addition: the definition proper ends before it. */
const LOOSE = /\s*(?:;|,\s*\p{L}+ed\b|\s[–—]\s|\s-\s|\(|,\s*(?:which|and|but|while|whereas|although|though|so|thus|hence|providing|making|allowing|enabling|thereby|e\.g\.|i\.e\.|eg|ie|such as|for example|for instance|including|especially|usually|often|etc)\b|\s(?:e\.g\.|i\.e\.|etc\.?)(?=\s|$)|,\s*[\p{L}]+ing\b)/u;
const DANGLING = /\b(?:it|this|these|those|they|them|such|former|latter|we|you|our|your)\b|\bthe\s+(?:above|below)\b|\b(?:above|below)(?=\s*(?:[.,;:]|$))/i;


function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lower-cases the first letter unless the word is a name or an acronym ("The Central Bank" stays). */
function lowerFirst(s: string): string {
  return /^\p{Lu}\p{Ll}/u.test(s) && !/^\p{Lu}\p{Ll}*\s+\p{Lu}/u.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** A term that can be asked about: a short noun phrase (nouns, adjectives, "of"), no pronoun, no verb. */
function goodTerm(term: string): boolean {
  const w = term.split(/\s+/);
  if (w.length > 5 || term.length < 3 || !/^[\p{L}]/u.test(term) || PRONOUNISH.test(w[0]!) || /[,;:()"“”]/.test(term)) return false;
  const tags = tagSentence(`${term} is important.`).slice(0, -3);
  if (!tags.length || !tags.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) return false;
  // (a participle before the noun is an adjective: "Dishonoured cheques", round 26)
  return tags.every((t, i) => /^(?:NOUN|PROPN|ADJ)$/.test(t.pos) || (i > 0 && /^(?:of|and|&|-)$/i.test(t.text)) || (i > 0 && /^in$/i.test(t.text) && tags[i + 1]?.pos === 'NOUN') || (t.pos === 'VERB' && /ing$/i.test(t.text)) || (i === 0 && /^(?:the|a|an)$/i.test(t.text)) || (t.pos === 'VERB' && /ed$/i.test(t.text) && tags[i + 1]?.pos === 'NOUN'));
}

/** Trims a description to its first self-contained clause; null when what is left is not a definition. */
function trimDescription(raw: string): string | null {
  let d = raw.trim().replace(/[.!]+["”’]?$/, '');
  const loose = LOOSE.exec(d);
  if (loose && loose.index > 0) d = d.slice(0, loose.index);
  d = d.replace(/[\s,:]+$/, '');
  const n = words(d).length;
  if (n < 4 || n > 28 || DANGLING.test(d) || /\?/.test(d)) return null;
  return d;
}

const COPULA = /^(?:(The|A|An)\s+)?(.{2,60}?)\s+(is|are)\s+(?:(?:also\s+)?(?:defined|described)\s+as\s+)?(.+)$/;
const VERBAL = /^(?:(The|A|An)\s+)?(.{2,60}?)\s+(?:(?:can|may)\s+be\s+defined\s+as|is\s+defined\s+as|are\s+defined\s+as|means|refers\s+to|refer\s+to|denotes)\s+(.+)$/;
const NAMING = /^((?:The|A|An)\s+.{10,160}?)\s+(is|are)\s+(?:called|known\s+as|termed|referred\s+to\s+as)\s+(?:the\s+|an?\s+)?([^,;]{3,60}?)$/;

/** A term without the other name or abbreviation in brackets after it: "Work in progress (WIP)" → "Work in progress" (round 45). */
const withoutAlias = (term: string) => term.trim().replace(/\s*\([^()]{1,40}\)$/, '');

/** The definition a sentence gives, or null (term, description, verb, and the article before the term: lower case, null for none). */
export function parseDefinition(sentence: string): { term: string; description: string; verb: 'is' | 'are'; termArticle?: string | null } | null {
  const s = sentence.trim().replace(/[.!]["”’)]?$/, '');
  if (/\?/.test(s)) return null;
  const naming = NAMING.exec(s);
  if (naming) {
    const description = trimDescription(lowerFirst(naming[1]!));
    const term = naming[3]!.trim();
    return description && goodTerm(term) ? { term, description, verb: naming[2] as 'is' | 'are' } : null;
  }
  const verbal = VERBAL.exec(s);
  if (verbal) {
    const description = trimDescription(verbal[3]!);
    const term = withoutAlias(verbal[2]!);
    // "means"/"refers to" a clause, not a thing ("means that prices rise"), is no description to choose
    if (!description || /^(?:that|to|how|when|where|if|whether)\b/i.test(description) || !goodTerm(term)) return null;
    const after = verbal[0]!.indexOf(term) + term.length;
    return { term, description, verb: /\bare\b/.test(verbal[0]!.slice(after, after + 6)) ? 'are' : 'is', termArticle: verbal[1]?.toLowerCase() ?? null };
  }
  const copula = COPULA.exec(s);
  if (copula) {
    const description = trimDescription(copula[4]!);
    const term = withoutAlias(copula[2]!);
    if (!description || !goodTerm(term) || /\b(?:called|known|termed)\b/.test(description.split(/\s+/).slice(0, 3).join(' '))) return null;
    // a superlative or a judgement ("the most fertile layer", "a serious problem") is no definition: it must name a kind and qualify it;
    // without an article only a plural does ("Villi are tiny projections that …")
    const g = genusOf(description);
    if (/^(?:the|a|an)\s+(?:most|best|least|main|major|key|first|only|same|largest|smallest|important|serious)\b/i.test(description) || !g.qualified) return null;
    if (!g.article && (copula[3] !== 'are' || !isPluralWord(description.split(/\s+/).find((w) => w.toLowerCase() === g.genus || w.toLowerCase().startsWith(g.genus ?? '\0')) ?? ''))) return null;
    return { term, description, verb: copula[3] as 'is' | 'are', termArticle: copula[1]?.toLowerCase() ?? null };
  }
  return null;
}

/** A slide or list line "Term: description" / "Term – description", or null. */
const LABEL_LINE = /^\s*(?:[\u2022\u25aa\u25cf*•-]\s*)?(\p{Lu}[\p{L}'’ -]{1,50}?)\s*(?::|\s[–—-])\s+(\p{L}.{10,220})$/u;

/** The last word of a teacher's label before its colon ("Everyday example", "Class exercise", "Quick note"). */
const LABEL_HEAD = /\b(?:examples?|notes?|exercises?|summary|assignments?|evaluation|answers?|solutions?|hints?|illustrations?|remarks?|reminders?|questions?|activity|activities)$/i;

function fromLabel(line: string): { term: string; description: string; verb: 'is' | 'are' } | null {
  const m = LABEL_LINE.exec(line);
  if (!m) return null;
  const term = m[1]!.trim();
  // (a teacher's label is no term: "**Everyday example:** A bulb in a circuit …"; round 45's development run)
  if (!goodTerm(term) || LABEL_HEAD.test(term)) return null;
  const description = trimDescription(lowerFirst(m[2]!));
  // the description must read as a noun phrase naming a kind ("an enzyme that …"), not a sentence ("Breaks down starch")
  if (!description || !/^(?:the|a|an|any)\s/i.test(description) || !genusOf(description).qualified) return null;
  return { term, description, verb: /[^s]s$/i.test(term.split(/\s+/).pop()!) && !/(?:ss|us|is)$/i.test(term) ? 'are' : 'is' };
}

/**
 * All definitions the material gives, in reading order, one per term (the first). Sentences the
 * index rejects as instructions, paper apparatus, examiners' talk or dangling references give none.
 */
export function findDefinitions(passages: Passage[], index: MaterialIndex): Definition[] {
  const out: Definition[] = [];
  const seen = new Set<string>();
  const allowLower = !passages.some((p) => /\p{Lu}/u.test(p.text));
  const add = (p: { term: string; description: string; verb: 'is' | 'are'; termArticle?: string | null }, source: string, passageIndex: number, citation: string, sentenceIdx: number[]) => {
    const term = p.term.replace(/^(?:the|a|an)\s+/i, '');
    const termArticle = p.termArticle ?? (/^(the|a|an)\s/i.exec(p.term)?.[1]?.toLowerCase() ?? null);
    const key = [...stemSet(term)].sort().join(' ');
    if (!key || seen.has(key)) return;
    // a description that names the term ("Money is the money supply …") says nothing a candidate could choose by
    if (namesTerm(p.description, term)) return;
    seen.add(key);
    const { genus, article, plural } = genusOf(p.description);
    out.push({ term, description: p.description, verb: p.verb, source, citation, passageIndex, sentenceIdx, genus, article, plural, termArticle });
  };
  passages.forEach((passage, passageIndex) => {
    const sentences = index.sentences.filter((s) => s.passageIndex === passageIndex);
    const matched = new Set<number>();
    for (const para of linesToParagraphs(stripMarkdown(passage.text))) {
      const label = fromLabel(para);
      if (label) {
        const held = sentences.filter((s) => para.includes(s.text.slice(0, 40))).map((s) => s.idx);
        add(label, para.replace(/^\s*[\u2022\u25aa\u25cf*•-]\s*/, ''), passageIndex, passage.citation, held);
        continue;
      }
      for (const raw of splitSentences(para)) {
        const match = sentences.find((s) => s.text === raw.trim() || raw.includes(s.text));
        if (match) matched.add(match.idx);
        // furniture, examiners' talk, instructions and paper apparatus give no definitions; a long sentence or a loose
        // reference after the definition proper may, as the description is trimmed (and the restatement checked below)
        if (!match || match.noise || (match.reason && !/^(?:too long|refers to something outside the sentence)$/.test(match.reason))) continue;
        const d = parseDefinition(match.text);
        if (d && rejectReason(definitionStatement({ ...d, term: d.term.replace(/^(?:the|a|an)\s+/i, '') } as Definition, null), allowLower) === null) add(d, match.text, passageIndex, passage.citation, [match.idx]);
      }
    }
    // a sentence the index repaired ("Standing orders – instructions …" → "… are instructions …"; round 26) is in no paragraph as written
    for (const s of sentences.filter((x) => x.usable && !matched.has(x.idx))) {
      const d = parseDefinition(s.text);
      if (d) add(d, s.text, passageIndex, passage.citation, [s.idx]);
    }
  });
  return out;
}

/** How much of two descriptions' content is shared (Jaccard of content stems): high means one could be true of the other's term. */
function overlap(a: string, b: string): number {
  const x = new Set(contentStems(a));
  const y = new Set(contentStems(b));
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / Math.max(1, x.size + y.size - both);
}

/** Lexicographer file noun.Tops (lexnames(5WN)): "entity", "abstraction" — sharing it says nothing about kind. */
const NOUN_TOPS = 3;

/** 3 = same genus noun, 2 = genus nouns share a hypernym, 1 = a lexicographer file (not noun.Tops), 0 = not of one kind. */
function kindScore(a: Definition, b: Definition, lexicon?: Lexicon): number {
  if (a.genus && b.genus && a.genus === b.genus) return 3;
  const look = (w: string | null) => (w && lexicon ? lexicon(w, 'noun') : null);
  const ka = look(a.genus);
  const kb = look(b.genus);
  if (ka && kb) {
    const k = kinship(ka, kb);
    if (k === 2) return 2;
    if (k === 1 && [...ka.lexFiles].some((f) => f !== NOUN_TOPS && kb.lexFiles.has(f))) return 1;
  }
  return 0;
}

/** Whether WordNet makes one term's head noun a direct kind of the other's (one sense's hypernym is a sense of the other). */
function subKind(a: string, b: string, lexicon: Lexicon): boolean {
  // (WordNet has some plurals as words of their own, "costs" the legal charges: the singular is looked up too)
  const senses = (term: string) => {
    const w = headWord(term);
    const kinds = [w, w.replace(/e?s$/, ''), w.replace(/s$/, '')].map((x) => lexicon(x, 'noun')).filter((k) => k !== null);
    return { synsets: new Set(kinds.flatMap((k) => [...(k.synsets ?? [])])), hypernyms: kinds.flatMap((k) => [...k.hypernyms]) };
  };
  const ka = senses(a);
  const kb = senses(b);
  return kb.hypernyms.some((h) => ka.synsets.has(h)) || ka.hypernyms.some((h) => kb.synsets.has(h));
}

/** The siblings of `key` that may stand beside it as options, best first (same kind, near, of like length and form). */
export function siblingsOf(key: Definition, all: Definition[], passages: number, lexicon: Lexicon | undefined, forTerms: boolean): Definition[] {
  const keyTermStems = stemSet(key.term);
  const keyDescStems = stemSet(key.description);
  const keyLen = words(key.description).length;
  const reach = Math.max(4, Math.ceil(passages / 6));
  const scored: { d: Definition; score: number }[] = [];
  for (const d of all) {
    if (d === key || d.term.toLowerCase() === key.term.toLowerCase()) continue;
    // an option true of the term too: the other description names the term's words, or says much the same
    if (namesTerm(d.description, key.term) || overlap(d.description, key.description) > 0.65) continue;
    // a kind and its sub-kind ("simulation", "discrete simulation") are not alternatives: one's description is true of the other
    const dTermStems = stemSet(d.term);
    if ([...dTermStems].every((x) => keyTermStems.has(x)) || [...keyTermStems].every((x) => dTermStems.has(x))) continue;
    // nor are two whose head nouns WordNet puts as a kind and its sub-kind ("Direct costs", "Direct expenses": an expense is a
    // cost, so the definition of either is true of the other; round 45's development run)
    if (lexicon && subKind(key.term, d.term, lexicon)) continue;
    // the key's own description naming the sibling term would point at it (or away from it)
    if ([...stemSet(d.term)].some((x) => keyDescStems.has(x))) continue;
    // of one kind: the same genus, a WordNet kin of it, or a definition of the same part of the material (section, slide deck)
    const kind = kindScore(key, d, lexicon);
    const distance = Math.abs(d.passageIndex - key.passageIndex);
    if (kind < 3 && distance > reach) continue;
    // the same grammatical form where the options are descriptions: of one number, both with or both without an article
    // (terms as options are names, which a glossary gives in both numbers: "Direct materials", "Work in progress"; round 45)
    if (!forTerms && (d.plural !== key.plural || d.article !== key.article)) continue;
    const len = words(d.description).length;
    if (!forTerms && (len < keyLen * 0.5 || len > keyLen * 2)) continue;
    if (forTerms && Math.abs(key.term.split(/\s+/).length - d.term.split(/\s+/).length) > 1) continue;
    scored.push({ d, score: kind * 1.5 - Math.min(distance, 12) * 0.15 - Math.abs(len - keyLen) * 0.08 });
  }
  // one option per distinct description and term
  const out: Definition[] = [];
  for (const { d } of scored.sort((a, b) => b.score - a.score || a.d.passageIndex - b.d.passageIndex || a.d.term.localeCompare(b.d.term))) {
    if (out.some((o) => o.description.toLowerCase() === d.description.toLowerCase() || o.term.toLowerCase() === d.term.toLowerCase() || overlap(o.description, d.description) > 0.65)) continue;
    out.push(d);
  }
  return out;
}

const LABELS = 'ABCDEFGHIJ';

function explanation(lead: string, key: Definition, others: Definition[]): string {
  const quotes = [key, ...others].map((d) => ({ citation: d.citation, text: d.source }));
  const tail = others.length ? ` The other options are the material's definitions of ${others.map((d) => `“${mdEscape(lowerFirst(d.term))}” (${d.citation})`).join(', ')}.` : '';
  return explainFrom(`${lead}${tail}`, quotes);
}

/**
 * "Which of the following best describes X?" (`reverse` false) or "Which term does the material
 * define as “…”?" (`reverse` true): the key and its siblings as options.
 */
export function buildDefinitionMcq(key: Definition, siblings: Definition[], reverse: boolean, difficulty: QuestionDifficulty, rand: () => number, seed: number): GeneratedQuestion {
  const id = shortId('q_', seed, 'MCQ', 'definition', reverse ? 'term' : 'describe', key.term, key.citation);
  const text = (d: Definition) => (reverse ? cap(d.term) : cap(d.description));
  const opts = shuffled([{ text: mdEscape(text(key)), isCorrect: true }, ...siblings.map((d) => ({ text: mdEscape(text(d)), isCorrect: false }))], rand);
  const prompt = reverse
    ? `Which term is defined as “${mdEscape(key.description)}”?`
    : `Which of the following best describes ${mdEscape(lowerFirst(key.term))}?`;
  const lead = reverse ? `The answer is “${mdEscape(key.term)}”.` : `The answer is the material's definition of ${mdEscape(lowerFirst(key.term))}.`;
  return {
    id,
    prompt,
    type: 'MCQ',
    marks: 1,
    difficulty,
    citation: joinCitations([key.citation, ...siblings.map((d) => d.citation)]),
    explanation: explanation(lead, key, siblings),
    options: opts.map((o, i) => ({ id: shortId('opt_', id, o.text), keyLabel: LABELS[i]!, text: o.text, isCorrect: o.isCorrect })),
  };
}

/** The statement "X is <description>." of a definition, or with `other`'s description (a believable false statement); the term keeps the article the material gave it ("A base is …"). */
export function definitionStatement(key: Definition, other: Definition | null): string {
  const subject = key.termArticle ? `${cap(key.termArticle)} ${lowerFirst(key.term)}` : cap(lowerFirst(key.term));
  return `${subject} ${key.verb} ${(other ?? key).description}.`;
}

/**
 * The sibling whose description may make `key`'s false statement (the first of `siblings` whose
 * description names the same genus noun: "a substance that …" for a substance), or null. Across
 * kinds the statement is false from its wording alone: "Neutralisation is a substance that …", a
 * reaction given a substance's definition (issue 39 §2, round 7). WordNet kinship (siblingsOf's
 * wider test) is not enough here: "reaction" and "substance" share a hypernym through senses the
 * material does not mean. MCQ options need no such kinship: each stands as an answer, not as a
 * claim about the term.
 */
export function falseSibling(key: Definition, siblings: readonly Definition[]): Definition | null {
  return key.genus ? (siblings.find((d) => d.genus === key.genus) ?? null) : null;
}

/** TRUE_FALSE "X is <definition of X>" (True) or "X is <definition of Y>" (False, Y a sibling), both cited. */
export function buildDefinitionTrueFalse(key: Definition, other: Definition | null, difficulty: QuestionDifficulty, seed: number): GeneratedQuestion {
  const id = shortId('q_', seed, 'TF', 'definition', key.term, other?.term ?? '', key.citation);
  const isTrue = other === null;
  const lead = isTrue
    ? 'True.'
    : `False: the material defines ${mdEscape(lowerFirst(key.term))} as “${mdEscape(key.description)}”; “${mdEscape(other.description)}” is its definition of ${mdEscape(lowerFirst(other.term))}.`;
  return {
    id,
    prompt: `True or false? ${mdEscape(definitionStatement(key, other))}`,
    type: 'TRUE_FALSE',
    marks: 1,
    difficulty,
    citation: joinCitations([key.citation, ...(other ? [other.citation] : [])]),
    explanation: explainFrom(lead, [key, ...(other ? [other] : [])].map((d) => ({ citation: d.citation, text: d.source }))),
    options: [
      { id: shortId('opt_', id, 'True'), keyLabel: 'A', text: 'True', isCorrect: isTrue },
      { id: shortId('opt_', id, 'False'), keyLabel: 'B', text: 'False', isCorrect: !isTrue },
    ],
  };
}


/**
 * The material's definitions for one generation run: each term is asked about at most once,
 * and its sentence is then not used again by another item (the FactFinder's `usedSentences`).
 */
export class DefinitionBank {
  private readonly used = new Set<string>();

  /**
   * @param nested whether the material makes the first term a kind of the second (falsehood.ts, `kindInMaterial`): a
   *   sub-kind's sibling definition is true of it ("Alkanes are organic compounds made up of carbon and hydrogen only",
   *   the definition of hydrocarbons; issue 39 §2, round 24), so neither may stand for the other
   */
  constructor(readonly defs: Definition[], private readonly passages: number, private readonly lexicon: Lexicon | undefined, private readonly nested?: (a: string, b: string) => boolean) {}

  /**
   * The next unused definition (reading order) whose sentences are free and that has at least
   * `min` siblings for the form; marks it used. `forStatement`: the one sibling a false
   * statement may borrow its description from (falseSibling), or the definition is passed over.
   */
  next(min: number, reverse: boolean, usedSentences: Set<number>, usedKeys: Set<string>, forStatement = false): { key: Definition; siblings: Definition[] } | null {
    for (const key of this.defs) {
      const id = key.term.toLowerCase();
      if (this.used.has(id) || key.sentenceIdx.some((i) => usedSentences.has(i))) continue;
      const all = siblingsOf(key, this.defs, this.passages, this.lexicon, reverse).filter((d) => !this.nested?.(key.term, d.term) && !this.nested?.(d.term, key.term));
      const partner = forStatement ? falseSibling(key, all) : null;
      const siblings = forStatement ? (partner ? [partner] : []) : all.slice(0, 3);
      if (siblings.length < min) continue;
      this.used.add(id);
      for (const i of key.sentenceIdx) usedSentences.add(i);
      // the cloze items do not blank the same term afterwards
      usedKeys.add(contentStems(key.term).join(' '));
      return { key, siblings };
    }
    return null;
  }
}

/**
 * Hard items that combine two facts (issue 21 §3). One sentence of the material defines
 * a term ("Photosynthesis is the process by which green plants make food"); another,
 * elsewhere, says something about the term ("Photosynthesis takes place in the
 * chloroplasts"). The item states the second fact with the term replaced by its
 * definition and asks for a span of it: "The process by which green plants make food
 * takes place in the ___". Answering needs both facts; both are cited.
 */
import type { GeneratedQuestion } from '../schemas.js';
import { stemSet } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shortId, shuffled } from '../text/seed.js';
import { pickDistractors } from './distractors.js';
import type { FactFinder } from './facts.js';
import { BLANK, explainFrom, joinCitations, mdEscape } from './markdown.js';
import type { SourceSentence } from './sentences.js';
import type { Falsehood } from './falsehood.js';
import type { Span } from './spans.js';

/** A definition "X is/are/refers to the|a|an DEF." split into term and description. */
const DEFINITION = /^(?:The\s+)?(.{3,60}?)\s+(?:is|are|refers to|means)\s+((?:the|a|an)\s+.{12,140}?)\.$/;
/** The reverse form "The DEF is/are called|known as|termed X." */
const NAMING = /^((?:The|A|An)\s+.{12,140}?)\s+(?:is|are)\s+(?:called|known as|termed|referred to as)\s+(?:the\s+|an?\s+)?([^,;]{3,60}?)\.$/;

/** Term and description of a defining sentence, or null. */
export function definitionOf(text: string): { term: string; description: string } | null {
  const d = DEFINITION.exec(text);
  if (d && !/\b(?:called|known|termed)\b/.test(d[2]!.split(/\s+/).slice(0, 2).join(' '))) return { term: d[1]!, description: d[2]! };
  const n = NAMING.exec(text);
  return n ? { term: n[2]!, description: n[1]!.charAt(0).toLowerCase() + n[1]!.slice(1) } : null;
}

/** Two facts joined: the rewritten statement, where the key sits in it, and both source sentences. */
export interface Bridge {
  definition: SourceSentence;
  fact: SourceSentence;
  /** The fact with the term replaced by its description. */
  text: string;
  key: { start: number; end: number; text: string };
  distractors: string[];
}

/**
 * True when putting `description` before `predicate` would show how the statement was built
 * (issue 39 §2, round 5 item 11: "The use of vegetative parts … uses stems, roots or leaves, and
 * the offspring are true to type"): the predicate repeats a content word of the description (a
 * circular statement), or carries a second clause of its own (", and the offspring are …";
 * a semicolon), so two or three facts are glued where a teacher would write one.
 */
export function leaksBuild(description: string, predicate: string): boolean {
  const desc = stemSet(description);
  if ([...stemSet(predicate)].some((x) => desc.has(x))) return true;
  return /;|,\s*(?:and|but|while|whereas|so)\s+(?:the|a|an|its|their|this|these|it|they|there|each|all|some|most)\b/i.test(predicate);
}

/**
 * True when the description's "their", "them", "these" or "those" has no plural before it in the
 * description ("a measure of their average kinetic energy": whose? — issue 39 §2, seen after round
 * 12); "the process by which green plants make their own food" names its own.
 */
export function pointsOutside(description: string): boolean {
  const m = /\b(?:their|them|these|those)\b/i.exec(description);
  if (!m) return false;
  return !description.slice(0, m.index).split(/\s+/).slice(1).some((w) => /^\p{Ll}{3,}s$/u.test(w) && !/(?:ss|us|is)$/.test(w));
}

/** "a process that …" → "the process that …" (the described thing is definite once named). */
function definite(description: string): string {
  return description.replace(/^(?:a|an)\s+/i, 'the ');
}

/**
 * The next bridge with at least `minDistractors` distractors (up to `want`), or null.
 * Marks both sentences and the key as used.
 */
export function findBridge(finder: FactFinder, want: number, minDistractors: number): Bridge | null {
  const sentences = finder.index.sentences;
  const defs = sentences.filter((s) => !finder.usedSentences.has(s.idx) && !s.noise && definitionOf(s.text)).sort((a, b) => b.score - a.score || a.idx - b.idx);
  for (const def of defs) {
    const { term, description } = definitionOf(def.text)!;
    if (description.split(/\s+/).length > 20 || /\b(?:it|this|they)\b/i.test(description) || pointsOutside(description)) continue;
    // A real definition names a kind and qualifies it ("the process by which …", "an agent who …"), not a judgement ("a serious problem").
    if (!/^(?:the|a|an)\s+(?:[\p{L}-]+\s+){1,3}?(?:of|that|which|who|whose|by|in which|where|used|made|between|from|for|to)\b/iu.test(description)) continue;
    if (!def.usable && !(def.reason ?? '').startsWith('too')) continue;
    const termRe = new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi');
    const defStems = stemSet(def.text);
    for (const fact of sentences) {
      // Two facts means two places: the statement comes from another passage than the definition.
      if (fact.passageIndex === def.passageIndex || !fact.usable || finder.usedSentences.has(fact.idx)) continue;
      // (another definition of the same term is no fact about it: "Oxidation is the loss of electrons" with "Oxidation is the
      // addition of oxygen …" in its place equates two definitions, each true in its own terms; round 35's wrong key)
      if (definitionOf(fact.text)?.term.toLowerCase() === term.toLowerCase() || new RegExp(`^(?:the\\s+)?${termRe.source}\\s+(?:is|are|can\\s+be)\\s+(?:also\\s+)?(?:defined|described)\\b`, 'i').test(fact.text)) continue;
      const hits = [...fact.text.matchAll(termRe)];
      if (hits.length !== 1) continue;
      const at = hits[0]!.index;
      // The term must be (or qualify) the subject that opens the fact ("Chlorophyll absorbs …", "The rate of photosynthesis …"):
      // then the blanked predicate is something the material says about the described thing.
      const before = fact.text.slice(0, at);
      const ofPhrase = /^the\s+\p{L}+\s+of\s+$/iu.test(before); // "The rate of photosynthesis …"
      if (!(at === 0 || /^the\s+$/i.test(before) || ofPhrase)) continue;
      const from = 0;
      const to = at + hits[0]![0].length;
      // a term continued by "of …" or "'s" names something else ("The Central Bank of Nigeria"): replacing it garbles the statement
      if (/^\s*(?:of\b|['’]s\b)/i.test(fact.text.slice(to))) continue;
      // the term is the whole subject, its verb straight after it: not a word naming another noun's kind ("population
      // pyramid": issue 39 §2, round 14 item 5), nor a term with a phrase of its own ("Soil from rocks rich in minerals is
      // …" would read "… where plants grow from rocks rich in minerals is …": round 15 item 12)
      const next = tagSentence(fact.text).find((t) => t.start >= to);
      if (!next || !/^(?:AUX|VERB|ADV)$/.test(next.pos)) continue;
      if (leaksBuild(description, fact.text.slice(to))) continue;
      for (const span of finder.spans(fact).slice(0, 6)) {
        if (finder.usedKeys.has(span.key) || span.start < to) continue;
        if ([...stemSet(span.text)].some((x) => defStems.has(x))) continue;
        const phrase = definite(description);
        const lead = ofPhrase ? before + phrase : phrase;
        const replacement = lead.charAt(0).toUpperCase() + lead.slice(1);
        const text = fact.text.slice(0, from) + replacement + fact.text.slice(to);
        const shift = replacement.length - (to - from);
        const start = span.start + shift;
        const moved: Span = { ...span, start, end: start + (span.end - span.start) };
        const distractors = pickDistractors(finder.pool, moved, `${text} ${def.text}`, fact.passageIndex, want, finder.seed, finder.lexicon);
        if (distractors.length < minDistractors) continue;
        finder.usedSentences.add(def.idx).add(fact.idx);
        finder.usedKeys.add(span.key);
        return { definition: def, fact, text, key: { start, end: moved.end, text: span.text }, distractors };
      }
    }
  }
  return null;
}

const LABELS = 'ABCDEFGHIJ';

/** The MCQ (`asTrueFalse` false) or TRUE_FALSE item of a bridge; the false form applies `falsehood` (a range of `b.text`, falsehood.ts). */
export function buildBridgeItem(b: Bridge, asTrueFalse: boolean, falsehood: Falsehood | null, rand: () => number, seed: number): GeneratedQuestion {
  const makeFalse = falsehood !== null;
  const citation = joinCitations([b.definition.citation, b.fact.citation]);
  const quotes = [b.definition, b.fact].map((s) => ({ citation: s.citation, text: s.text }));
  const type = asTrueFalse ? 'TRUE_FALSE' : 'MCQ';
  const id = shortId('q_', seed, type, 'hard-bridge', b.definition.idx, b.fact.idx, makeFalse ? 'F' : 'T');
  const opt = (text: string, isCorrect: boolean, i: number) => ({ id: shortId('opt_', id, text), keyLabel: LABELS[i]!, text, isCorrect });
  if (asTrueFalse) {
    const shown = falsehood ? b.text.slice(0, falsehood.start) + falsehood.replacement + b.text.slice(falsehood.end) : b.text;
    const head = falsehood ? `False: the material says “${mdEscape(falsehood.original)}”, not “${mdEscape(falsehood.replacement)}”.` : 'True.';
    return {
      id, type, marks: 1, difficulty: 'hard', citation,
      prompt: `True or false? ${mdEscape(shown)}`,
      explanation: explainFrom(head, quotes),
      options: [opt('True', !makeFalse, 0), opt('False', makeFalse, 1)],
    };
  }
  const body = `${mdEscape(b.text.slice(0, b.key.start))}${BLANK}${mdEscape(b.text.slice(b.key.end))}`;
  const opts = shuffled([{ text: mdEscape(b.key.text), isCorrect: true }, ...b.distractors.map((d) => ({ text: mdEscape(d), isCorrect: false }))], rand);
  return {
    id, type, marks: 1, difficulty: 'hard', citation,
    prompt: `Which option completes this statement?\n\n${body}`,
    explanation: explainFrom(`The answer is “${mdEscape(b.key.text)}”.`, quotes),
    options: opts.map((o, i) => opt(o.text, o.isCorrect, i)),
  };
}

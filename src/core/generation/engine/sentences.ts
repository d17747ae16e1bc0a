/**
 * Indexes the material for the extractive engine: splits passages into sentences, keeps
 * the ones that can stand alone as exam facts, and weights content stems by how central
 * they are to the material (frequency × spread across passages, a tf-idf variant).
 */
import type { Passage } from '../passage.js';
import { EXAMINER_TALK, isFurnitureLine } from '../furniture.js';
import { linesToParagraphs } from '../passage.js';
import { contentStems, splitSentences, stemSet, tokenize, words } from '../text/nlp.js';

/** A sentence of the material with its provenance. */
export interface SourceSentence {
  idx: number;
  passageIndex: number;
  citation: string;
  text: string;
  stems: Set<string>;
  /** True when the sentence can stand alone as a question source. */
  usable: boolean;
  /** True for furniture and examiners' talk: not even its words may serve as distractors. */
  noise: boolean;
  score: number;
}

/** The indexed material. */
export interface MaterialIndex {
  passages: Passage[];
  sentences: SourceSentence[];
  /** Centrality weight of each content stem. */
  weight: Map<string, number>;
  /** Number of passages each stem occurs in. */
  passageFreq: Map<string, number>;
}

const INSTRUCTION = /^(?:calculate|compute|state|explain|discuss|list|identify|describe|prepare|show|determine|write|answer|attempt|required|define|outline|evaluate|comment|give|draw|mention|highlight|enumerate|distinguish|examine|analy[sz]e|assess|suggest|recommend|compare|contrast|use|find|complete|read|study|note|see|kindly|please|click|visit|consider|assume|ignore)\b/i;
const DANGLING_START = /^(?:it|this|these|they|he|she|such|that|those|its|their|his|her|here|there|also|however|therefore|thus|hence|but|and|or|so|then|which|while|although|because|if|when|for example|similarly|likewise|furthermore|moreover|in addition|additionally)\b/i;
const EXAM_NOISE = /\?|\(\s*\d+\s*marks?\s*\)|\bmarks?\)|\(total\b|which of the following|\bquestion\s+\d|\bsee page\b|\bpage \d+ of\b|examiner|candidates?\s+(?:were|are|should)|suggested solution|marking guide/i;
/** A run-in label such as "Success: " or "Impact - " before the sentence proper. */
const LABEL = /^[\p{L}\s'’]{2,40}?\s?[:–—-]\s+(?=\p{Lu})/u;
const LEADING_MARK = /^\s*(?:[\u2022\u25aa\u25cf\uf0b7\uf0a7\u2013\u2014*\-•]|\(?[ivxlc]{1,5}[.)]|\(?[a-hA-H][.)]|\(?\d{1,3}[.)]|Q\d+[.:]?)\s+/;

/** Why a sentence cannot stand alone as an exam fact, or null when it can. */
export function rejectReason(text: string, allowLowercaseStart: boolean): string | null {
  const n = words(text).length;
  if (n < 6) return 'too short';
  if (n > 40) return 'too long';
  if (!/[.!]["”’)]?$/.test(text)) return 'not a complete sentence';
  if (!allowLowercaseStart && !/^[\p{Lu}\p{N}"“]/u.test(text)) return 'starts mid-sentence';
  if (INSTRUCTION.test(text)) return 'an instruction';
  if (DANGLING_START.test(text)) return 'depends on the sentence before it';
  if (EXAM_NOISE.test(text) || isFurnitureLine(text)) return 'exam paper apparatus';
  if (EXAMINER_TALK.test(text)) return "an examiner's report or marking note";
  if (/[\ue000-\uf8ff]/.test(text)) return 'unreadable characters';
  if (/\b[A-E]\.\s.+\b[B-E]\.\s/.test(text)) return 'a list of options';
  const tokens = tokenize(text);
  const numeric = tokens.filter((t) => /\d/.test(t.text)).length;
  if (numeric / tokens.length > 0.35) return 'mostly numbers';
  if (contentStems(text).length < 3) return 'too few content words';
  return null;
}

/**
 * A heading the PDF ran into its first sentence ("Outsourcing Outsourcing is …",
 * "Trial balance errors This is …") is cut off: the sentence proper starts at a repeated
 * word or at a capitalised opener following a lower-case word.
 */
export function dropGluedHeading(sentence: string): string {
  const repeat = /^(\p{Lu}[\p{L}\s-]{0,50}?)\s+(?=\1\b)/u.exec(sentence);
  if (repeat) return sentence.slice(repeat[0].length);
  const glued = /^(?:\S+\s+){1,8}?(?<=[\p{Ll}\d)]\s)(?=(?:The|This|These|It|In|An?|Its|There|They|We|Our|When|If)\s)/u.exec(sentence);
  return glued ? sentence.slice(glued[0].length) : sentence;
}

/** Splits one passage into cleaned sentences (list markers dropped). */
export function passageSentences(passage: Passage): string[] {
  const out: string[] = [];
  for (const para of linesToParagraphs(passage.text)) {
    for (const s of splitSentences(para.replace(LEADING_MARK, ''))) out.push(dropGluedHeading(s.replace(LEADING_MARK, '').replace(LABEL, '').trim()));
  }
  return out.filter(Boolean);
}

const DEFINITIONAL = /\b(?:is|are|was|were)\s+(?:a|an|the|called|known as|defined as|referred to as)\b|\brefers?\s+to\b|\bmeans\b|\bconsists?\s+of\b|\bis\s+used\s+to\b/i;

/**
 * Indexes passages. `focus` (e.g. the subject) stems raise the score of sentences about it.
 */
export function indexMaterial(passages: Passage[], focus = ''): MaterialIndex {
  const raw: { passageIndex: number; citation: string; text: string }[] = [];
  passages.forEach((p, passageIndex) => {
    for (const text of passageSentences(p)) raw.push({ passageIndex, citation: p.citation, text });
  });
  // Transcripts come without capitals: do not reject them for starting lower case.
  const allowLower = !passages.some((p) => /\p{Lu}/u.test(p.text));
  const tf = new Map<string, number>();
  const passageFreq = new Map<string, number>();
  passages.forEach((p) => {
    for (const s of stemSet(p.text)) passageFreq.set(s, (passageFreq.get(s) ?? 0) + 1);
    for (const s of contentStems(p.text)) tf.set(s, (tf.get(s) ?? 0) + 1);
  });
  const P = passages.length;
  const weight = new Map<string, number>();
  for (const [s, n] of tf) weight.set(s, Math.log(1 + n) * Math.log(1 + (P + 1) / (passageFreq.get(s) ?? 1)));
  const focusStems = stemSet(focus);
  // Repeated sentences are page furniture (headers, exam rules): never question material.
  const seen = new Map<string, number>();
  for (const r of raw) seen.set(r.text.toLowerCase(), (seen.get(r.text.toLowerCase()) ?? 0) + 1);
  const sentences = raw.map((r, idx) => {
    const stems = stemSet(r.text);
    const usable = seen.get(r.text.toLowerCase()) === 1 && rejectReason(r.text, allowLower) === null;
    const ws = [...stems].map((s) => weight.get(s) ?? 0).sort((a, b) => b - a);
    const top = ws.slice(0, 6);
    let score = top.reduce((a, b) => a + b, 0) / Math.sqrt(Math.max(6, stems.size));
    if (DEFINITIONAL.test(r.text)) score *= 1.3;
    if ([...stems].some((s) => focusStems.has(s))) score *= 1.2;
    const noise = EXAMINER_TALK.test(r.text) || EXAM_NOISE.test(r.text) || isFurnitureLine(r.text);
    return { idx, passageIndex: r.passageIndex, citation: r.citation, text: r.text, stems, usable, noise, score };
  });
  return { passages, sentences, weight, passageFreq };
}

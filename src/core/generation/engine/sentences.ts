/**
 * Indexes the material for the extractive engine: splits passages into sentences, keeps
 * the ones that can stand alone as exam facts, and weights content stems by how central
 * they are to the material (frequency × spread across passages, a tf-idf variant).
 */
import type { Passage } from '../passage.js';
import { EXAMINER_TALK, isFurnitureLine } from '../furniture.js';
import { linesToParagraphs } from '../passage.js';
import { contentStems, splitSentences, stemSet, tokenize, words } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { ACTIVITY, closedBullet, EXAM_NOISE, GENERIC_REFERENT, GLUED, isProcedureStep, namesFigurePoints, NOTE_LINE, NUMBER_WORD, PAPER_TALK, SHOUTING, THAT_ONE, TRAILING_DIRECTION } from './sentence-patterns.js';
import { bulletTopic, dashDefinition, definitionBullet, dropGluedHeading, framedByHeading, headingTopic, namedKind, SECTION_NUMBER, subjectFromHeading, type HeadingTopic } from './repair.js';
import { withoutBackLink, withoutExampleAside } from './trims.js';
import { boldGlossary, equalsBullet } from './arrow-definitions.js';
import { EXERCISE_HEADING, inLabelledExample, isExampleLabel, RECAP_HEADING } from './exercises.js';
import { explainsItems } from './heading-lists.js';
import { cleanSpoken, joinCutSentences, spokenSentences } from './spoken.js';

// (a repair the tests of this module have always imported from here)
export { dropGluedHeading };

/** A sentence of the material with its provenance. */
export interface SourceSentence {
  idx: number;
  passageIndex: number;
  citation: string;
  text: string;
  stems: Set<string>;
  /** True when the sentence can stand alone as a question source. */
  usable: boolean;
  /** Why the sentence is not usable (rejectReason, or "repeated"); null when usable. */
  reason: string | null;
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

const INSTRUCTION = /^(?:imagine|picture|suppose|notice|look|listen|watch|observe|recall|think|let|calculate|compute|state|explain|discuss|list|identify|describe|prepare|show|determine|write|answer|attempt|required|define|outline|evaluate|comment|give|draw|mention|highlight|enumerate|distinguish|examine|analy[sz]e|assess|suggest|recommend|compare|contrast|use|find|complete|read|study|note|see|kindly|please|click|visit|consider|assume|ignore|do\s+not|don['’]t|never|remember|always|avoid|beware|make\s+sure|be\s+careful|remind|link\s+(?:this\s+|it\s+)?(?:to|with|back)|relate\s+(?:this\s+|it\s+)?to|(?:ask|tell|get|let|have|remind|encourage)\s+(?:the\s+|your\s+)?(?:students|stds|pupils|learners|class|candidates))\b/i;
const DANGLING_START = /^(?:it|this|these|they|he|she|such|that|those|its|their|his|her|here|there|also|however|therefore|thus|hence|but|and|or|so|then|which|while|although|because|if|when|for example|similarly|likewise|furthermore|moreover|in addition|additionally|in other words|in summary|in short|in this case|as a result|on the other hand|otherwise|again|next|finally|firstly|secondly|lastly|ok|okay|now|remember|good morning|good afternoon|what (?:is|are) left|what remains)\b/i;
/**
 * A reference that only makes sense beside the source paragraph or the question paper
 * (issue 21 §3: "The solution is …", "the above", "this process"): the sentence cannot stand alone.
 */
const DANGLING_REF = /\b(?:this|these|those)\s+\p{L}|\bsuch\s+(?!as\b)\p{L}|\bthe\s+(?:above|below|aforementioned|foregoing)\b|\b(?:above|below)[.,;:]|\b(?:shown|given|listed|stated|mentioned|discussed|explained|described)\s+(?:above|below|earlier|previously)\b|\bthe\s+following\b|\bas\s+follows\b|\bthe\s+(?:solutions?|answers?|questions?|case\s+study|scenario|extract|table|figure|diagram|illustration|example)\b|\b(?:former|latter)\b/iu;
/** A figure, table or diagram the candidate cannot see (issue 39 §2): "as shown in Figure 2", "Table 3 gives …". */
const FIGURE_REF = /\b(?:fig(?:ure)?\.?\s*\d+|table\s+\d+|(?:the|this|a)\s+(?:diagram|chart|graph|sketch|picture|photograph)\b|as\s+(?:shown|illustrated|seen)\b|shown\s+in\b)/i;
/** "Both principles …" with nothing for "both" to name (round 2 item 59): a plural noun after it and no "and". */
const DANGLING_BOTH = /^both\s+(?!.*\band\b)/i;
/** Talk to the class or the candidate (first and second person): lecture asides, instructions, not content. */
const PERSONAL = /\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|we'll|we're|we've|us|our|ours|ourselves|you|you'll|you're|you've|your|yours|yourself|yourselves|let's)\b/;
/** The same, opening a sentence ("My grandfather planted …", "We call this …"); checked after a question paper's wording. */
const PERSONAL_OPENER = /^(?:My|Our|We|We'll|We're|You|Your|You'll|You're|Me)\b/;
/**
 * A lecturer's aside (issue 39 §2, round 5 item 16): the exam or the lesson itself ("in the exam,
 * …", "as I said in the last class"), a promise or a story ("when I was in school") — never content.
 */
const ASIDE = /\b(?:in|for|during|before)\s+(?:the|an|your|this|that|our)\s+(?:exams?|tests?|lessons?|class(?:es)?|lectures?)\b|\b(?:last|next)\s+(?:class|lesson|lecture|week's lesson)\b|\bfor example,?\s+(?:my|our)\b|\b(?:topic|lesson|class|subject)\s+(?:for|of)\s+today\b|\btoday['’]s\s+(?:topic|lesson|class)\b|\b(?:students|pupils|learners)\s+(?:have|had|should\s+have)\s+been\s+taught\b/i;
/** A run-in label such as "Success: " or "Impact - " before the sentence proper. */
const LABEL = /^[\p{L}\s'’]{2,80}?\s?[:–—-]\s+(?=\p{Lu})/u;
const LEADING_MARK = /^\s*(?:[\u2022\u25aa\u25cf\uf0b7\uf0a7\u2013\u2014*\-•]|\(?[ivxlc]{1,5}[.)]|\(?[a-hA-H][.)]|\(?\d{1,3}[.)]|Q\d+[.:]?)\s+/;

const COUNT_WORD = '(?:one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|firstly|secondly|thirdly|fourthly|fifthly|lastly|finally|next)';
/**
 * Spoken or list numbering opening a sentence ("Four, the motor neurone …", "Fourth, the …",
 * "Number two, …", "Firstly, …", "Step 3: …"): the number belongs to the lecture's list, not to
 * the fact (issue 39 §2, round 4 items 22, 27 and 33).
 */
// (a theorem or a law by its number, said with no stop after it: "theorem two angles in the same segment are equal"; round 59)
export const SPOKEN_NUMBERING = new RegExp(`^(?:(?:number|no\\.?|step|point)\\s+(?:\\d{1,2}|${COUNT_WORD})|${COUNT_WORD}|\\d{1,2})\\s*[,:;.)–—-]\\s+|^(?:theorem|law|rule|postulate|axiom)\\s+(?:\\d{1,2}|${COUNT_WORD})\\s*[,:;.)–—-]?\\s+`, 'i');

/**
 * A connective whose referent is in another sentence, anywhere in the sentence (issue 39 §2):
 * "… pass through the brain instead.", "At the same time, …", "The key difference, then, is …",
 * "In the same way, …". ("instead of X" names its referent and is kept.)
 */
export const DANGLING_CONNECTIVE = /\binstead\b(?!\s+of\b)|^(?:at the same time|in the same way|after that|before that|by then|until then|in turn|as such|on the contrary|even so|despite this|because of this)\b|,\s*then\s*,|^then\b|\b(?:the|a)\s+(?:key|main|real|big|important)\s+(?:difference|point|idea|lesson)\s*,\s*then\b/i;

/**
 * A sentence that does not name what it is about (issue 39 §2: "Shown as a shift of the whole
 * demand curve.", "Examples are granite, gabbro and diorite."): a past participle or an
 * "Examples are/include" with no subject before it.
 */
export const NO_SUBJECT = /^(?:(?:shown|seen|found|given|known|used|called|caused|represented|drawn|measured|made|formed|followed|produced|marked|located|described|defined|classified|also called|also known)\s+(?:as|in|by|at|on|from|when|under|with|to|through)\b|\p{L}+ed\s+(?:under|in|on|at|by|with|from|into|over|through)\s(?!.*,)|(?:examples?|instances|types|kinds)(?:\s+(?:in|from)\s+\p{Lu}\p{L}+)?\s+(?:are|include|is|of these)\b|(?:e\.g\.|i\.e\.|for instance)\b)/iu;

/** Words of a subject that names a part, kind or relation of something else (below). */
const RELATIONAL_ADJECTIVES = 'opposite|reverse|main|other|first|second|third|fourth|last|next|two|three|four|five|upper|lower|inner|outer|front|back|top|bottom|new|old|same|remaining|key|major|minor|chief|principal|different|various|usual|common|important|basic|young|resulting';
const RELATIONAL_NOUNS = 'offspring|young|methods?|materials?|parts?|advantages?|disadvantages?|types?|kinds?|forms?|stages?|steps?|ways?|features?|results?|effects?|causes?|uses?|benefits?|problems?|reasons?|members?|products?|ones?|rest|others|remainder|outcome|aim|purpose|function|role|idea|difference|similarity|procedure|technique|examples?|sources?|factors?|elements?|components?|properties|characteristics?|conditions?|requirements?|limitations?|drawbacks?|merits?|demerits?|importance|disease|problem|answer|angles?|values?|ratio|sum|total|things?';

/**
 * A subject that needs its "of what" (issue 39 §2, round 5 items 8, 9 and 13: "The offspring are
 * true to type", "The main methods are cuttings, …", "The upper part is the scion"): "the" and a
 * relational noun — a part, a kind, a method, an advantage, an offspring of something — with no
 * "of …" or other complement naming what it belongs to. The thing it belongs to was named in an
 * earlier sentence or heading, so the statement does not say what it is about.
 */
export const RELATIONAL_SUBJECT = new RegExp(`^the\\s+(?:(?:${RELATIONAL_ADJECTIVES})\\s+)*(?:${RELATIONAL_NOUNS})\\b(?!\\s+(?:of|in|for|from|to|between|that|which|who|whose|by|used|called|known|made|on|at|within|inside)\\b)(?!['’]s)`, 'i');
/**
 * The same subject with no article, its verb straight after it or after a place (issue 39 §2,
 * round 12: "Common causes in Nigeria include high blood pressure, …" — causes of what?). "Young birds are …" is not one:
 * a relational word there describes the noun after it.
 */
export const BARE_RELATIONAL_SUBJECT = new RegExp(`^(?:(?:${RELATIONAL_ADJECTIVES})\\s+)*(?:${RELATIONAL_NOUNS})(?:\\s+(?:in|among)\\s+\\p{Lu}\\p{L}+)?\\s+(?:include|includes|are|is|were|was|can|may|will)\\b`, 'iu');

/**
 * A subject that is a bare plural of people in a body, with no "of what" (issue 39 §2, round
 * 9: "Leaders may be bribed by government …", a bullet under "Disadvantages of pressure
 * groups"): lifted out of its list, the statement no longer says whose leaders.
 */
export const BARE_MEMBERS_SUBJECT = /^(?:leaders|members|officials|officers|executives|followers)\b(?!\s+(?:of|in|from|who|that|which)\b)/i;

/**
 * A sentence that only announces a list the material goes on to give (issue 39 §2, round 9:
 * "Pressure groups can be classified in different ways."): true of nearly anything, it tests
 * nothing. A sentence that gives the list ("… into craft unions and industrial unions") is not
 * one. ("There are three types of …" is refused already: it opens with "There".)
 */
export const ANNOUNCES_LIST = /\b(?:can|may|could)\s+be\s+(?:classified|grouped|divided|categori[sz]ed|classed|sub-?divided)\s+(?:in|into)\s+(?:different|various|several|many|a\s+number\s+of|two|three|four|five|six)\s+(?:main\s+)?(?:ways|groups|types|categories|classes|kinds)\s*\.$/i;

/**
 * "Now" in a statement of the past ("A central council now covered the whole country"): the
 * time it means is a period named elsewhere (a slide's heading, an earlier sentence), so the
 * statement is true of that period only and does not say which (issue 39 §2, round 5 item 6).
 */
const DEICTIC_NOW = /\bnow\b(?!\s+(?:known|called|named|termed)\b)/i;

/** Why a sentence cannot stand alone as an exam fact, or null when it can. */
export function rejectReason(text: string, allowLowercaseStart: boolean): string | null {
  const n = words(text).length;
  if (n < 6) return 'too short';
  if (n > 40) return 'too long';
  if (!/[.!]["”’)]?$/.test(text)) return 'not a complete sentence';
  if (!allowLowercaseStart && !/^[\p{Lu}\p{N}"“]/u.test(text)) return 'starts mid-sentence';
  if (INSTRUCTION.test(text) || ACTIVITY.test(text) || TRAILING_DIRECTION.test(text)) return 'an instruction';
  if (isProcedureStep(text)) return 'a procedure step (an instruction)';
  if (SPOKEN_NUMBERING.test(text)) return 'opens with list numbering';
  if (DANGLING_START.test(text) || DANGLING_CONNECTIVE.test(text)) return 'depends on the sentence before it';
  if (NO_SUBJECT.test(text) || RELATIONAL_SUBJECT.test(text) || BARE_RELATIONAL_SUBJECT.test(text) || BARE_MEMBERS_SUBJECT.test(text)) return 'does not name what it is about';
  if (ANNOUNCES_LIST.test(text)) return 'announces a list';
  if (DEICTIC_NOW.test(text)) return 'depends on the sentence before it';
  if (DANGLING_REF.test(text) || FIGURE_REF.test(text) || GENERIC_REFERENT.test(text) || namesFigurePoints(text) || THAT_ONE.test(text)) return 'refers to something outside the sentence';
  if (DANGLING_BOTH.test(text) || /,\s*(?:on the other hand|in contrast|by contrast|as well),/i.test(text)) return 'depends on the sentence before it';
  if (PERSONAL.test(text) || ASIDE.test(text) || /^(?:yes|no|okay|ok)\b[.,!]\s/i.test(text)) return 'talk to the class or the candidate';
  if (PAPER_TALK.test(text) || SHOUTING.test(text)) return 'exam paper apparatus';
  if (PERSONAL_OPENER.test(text)) return 'talk to the class or the candidate';
  // (and a numbered list's label with its first step: "Steps: 1. Make the coefficient of x² equal to 1"; rounds 40 and 42)
  if (GLUED.test(text) || /^[^:]{2,60}:\s+\p{Ll}/u.test(text) || /^[^:]{2,60}:\s*(?:[-–—•*]|\(?\d{1,2}[.)])\s/u.test(text)) return 'a heading run into the sentence';
  if (NOTE_LINE.test(text)) return 'a note line (a term, a dash and its notes), not a sentence';
  // (a list's next item run into the sentence, "… the atomic mass of Na. 2. J. A. R. Newlands (1864) – …", and a line of
  // working, "Average of 7 and 39 = 46 ÷ 2 = 23": round 40)
  if (/[.;]\s+\d{1,2}\.\s+\p{Lu}/u.test(text)) return 'a list run into the sentence';
  if (/\d\s*(?:[=÷×]|x\s)\s*\(?\d/.test(text)) return 'a calculation, not a statement';
  if (/\p{L}\)?\s+=\s+\(?\p{L}/u.test(text)) return 'a note ("="), not a sentence'; // (round 43: "Metallic bond = attraction between …")
  // (a slide's table comes through as its cells between bars: round 24, "Federal vs Unitary System | Federal | …")
  if ((text.match(/\|/g)?.length ?? 0) >= 2) return 'a table row, not a sentence';
  // (an arrow stands for a verb nobody wrote: "Derivation → oil-producing states get at least 13% (1999 Const.)")
  if (/[→⇒⟶]|\s->\s/.test(text)) return 'a note with an arrow, not a sentence';
  if (EXAM_NOISE.test(text) || isFurnitureLine(text)) return 'exam paper apparatus';
  if (EXAMINER_TALK.test(text)) return "an examiner's report or marking note";
  if (/[\ue000-\uf8ff]/.test(text)) return 'unreadable characters';
  if (/\b[A-E]\.\s.+\b[B-E]\.\s/.test(text)) return 'a list of options';
  const tokens = tokenize(text);
  const numeric = tokens.filter((t) => /\d/.test(t.text) || NUMBER_WORD.test(t.text)).length;
  if (numeric / tokens.length > 0.35) return 'mostly numbers';
  if (contentStems(text).length < 3) return 'too few content words';
  return grammarReason(text);
}

const PRONOUN = /^(?:it|its|they|them|their|theirs|he|him|his|she|her|hers)$/i;

/**
 * A past participle after a comma ("the hypothalamus, found at …", "the sensory neurone, also
 * called …") running to the end of the sentence describes a noun and is no finite verb: a
 * caption of that shape is a fragment.
 */
function isAppositiveParticiple(tags: readonly { text: string }[], i: number): boolean {
  if (!/(?:ed|en|wn|nd|ght|lt|ung|own)$/i.test(tags[i]!.text)) return false;
  const before = tags[i - 1]?.text ?? '';
  // (only when the participle's phrase runs to the end: "The cerebellum, found at the back, controls …" has its verb after it)
  if (tags.slice(i + 1).some((t) => t.text === ',' || t.text === ';')) return false;
  return before === ',' || (/^also$/i.test(before) && tags[i - 2]?.text === ',');
}

/**
 * Grammar checks with the tagger: a sentence without a finite verb is a heading or a note
 * ("Establishing alternative means of operation in advance."), and a pronoun before any noun
 * refers to the sentence before ("In other words, it is …").
 */
function grammarReason(text: string): string | null {
  const tags = tagSentence(text);
  // The verb is looked for outside brackets: "Action of a dilute acid on a metal (e.g. zinc … gives …)." is a list item with
  // an example, no statement (issue 39 §2, round 7)
  // (a bracket inside a bracket, "(e.g. copper(II) oxide …)", goes from the inside out)
  let bare = text;
  while (/\([^()]*\)/.test(bare)) bare = bare.replace(/\s*\([^()]*\)/g, '');
  const outside = bare === text ? tags : tagSentence(bare);
  // The lite model tags some verbs as nouns ("The resistance of a wire increases with …"): a noun in -s between a noun and a preposition counts as a verb.
  const finite = outside.some(
    (w, i) =>
      w.pos === 'AUX' ||
      // (not a plural noun the model read as a verb before an infinitive: "The journal entries to correct the errors.")
      // (a participle opening a noun phrase is its adjective: "Reduced rainfall, lower temperature and flooding.", round 18)
      (w.pos === 'VERB' && !/ing$/i.test(w.text) && !isAppositiveParticiple(outside, i) && !(i === 0 && /ed$/i.test(w.text) && outside[1]?.pos === 'NOUN') && !/^(?:to|the|a|an)$/i.test(outside[i - 1]?.text ?? '') && !(/s$/i.test(w.text) && outside[i - 1]?.pos === 'NOUN' && /^to$/i.test(outside[i + 1]?.text ?? ''))) ||
      (w.pos === 'NOUN' && /[^s]s$/i.test(w.text) && /^(?:NOUN|PROPN)$/.test(outside[i - 1]?.pos ?? '') && /^(?:ADP|DET|ADV)$/.test(outside[i + 1]?.pos ?? '')),
  );
  // (short only: the tagger misses the verb of some longer sentences, "Most plant enzymes work best at …")
  // (any length when it opens with no subject at all, a preposition, an adverb or a figure: "About 50°–70° north in the
  // interiors of North America and Eurasia, e.g. Canada and Siberia.", a "Location:" bullet's rest; round 25)
  if (!finite && (words(bare).length <= 14 || /^(?:ADP|ADV|NUM)$/.test(outside[0]?.pos ?? ''))) return 'not a sentence (no verb)';
  // "To reduce the amount of …", "Identifying the breach …": a list item of an answer, not a statement.
  // ("Ability to present data …": a noun and an infinitive; "Helps companies to …", a verb no heading gave a subject: round 38)
  // (and one that opens with an auxiliary and no subject after it, a slide's "Does not need to attach …", "Can scan …")
  if (tags[0]?.pos === 'AUX' && !/^(?:NOUN|PROPN|PRON|DET|NUM|ADJ)$/.test(tags[1]?.pos ?? '')) return 'not a sentence (a list item)';
  if (/^to$/i.test(tags[0]?.text ?? '') || (tags[0]?.pos === 'VERB' && /(?:ing|[^s]s)$/i.test(tags[0].text)) || (/^(?:NOUN|PROPN|ADJ)$/.test(tags[0]?.pos ?? '') && /^to$/i.test(tags[1]?.text ?? '') && tags[2]?.pos === 'VERB')) return 'not a sentence (a list item)';
  for (const w of tags) {
    if (w.pos === 'NOUN' || w.pos === 'PROPN') break;
    if (PRONOUN.test(w.text)) return 'refers to something outside the sentence';
  }
  // An object pronoun straight after the first verb, with only the subject before it ("The spindle fibres pull them to …",
  // round 25): it cannot be its own clause's subject, so its noun is in the sentence before.
  // (not an "it" before an adjective: "Irrigation makes it possible to …")
  const verb = tags.findIndex((w) => w.pos === 'VERB' || w.pos === 'AUX');
  const object = tags[verb + 1];
  // (a determiner straight after a noun, or a conjunction, means a verb the tagger read as a noun: "Farmers harvest the crops … and sell them")
  // (or a relative clause's verb, "The atom or ion that receives it is …": round 43)
  const subjectOnly = tags.slice(0, Math.max(verb, 0)).every((w, i) => (/^(?:DET|ADJ|NOUN|PROPN|NUM|ADP|CCONJ)$/.test(w.pos) || (/^(?:that|which|who)$/i.test(w.text) && i === verb - 1)) && !(w.pos === 'DET' && /^(?:NOUN|PROPN)$/.test(tags[i - 1]?.pos ?? '')));
  if (verb > 0 && tags[verb]!.pos === 'VERB' && subjectOnly && /^(?:it|them|him)$/i.test(object?.text ?? '') && !(/^it$/i.test(object!.text) && tags[verb + 2]?.pos === 'ADJ')) return 'refers to something outside the sentence';
  return null;
}


/**
 * Drops spoken or list numbering before a sentence ("Four, the motor neurone carries …" → "The
 * motor neurone carries …"; issue 39 §2): the rest must still pass rejectReason to be used.
 */
export function stripNumbering(sentence: string): string {
  const m = SPOKEN_NUMBERING.exec(sentence);
  if (!m) return sentence;
  const rest = sentence.slice(m[0].length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * `text` without Markdown's marks (issue 39 §2, round 5 items 2, 3 and 5: "In **diamond**, …" reached
 * the statement): bold and italic stars and underscores around words, backticks, and the hashes of
 * a heading. Stars and underscores that mark nothing (a product "2 * 3", "snake_case") are kept.
 */
export function stripMarkdown(text: string): string {
  return text
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*_\\])([*_])(?=[^\s*_])([^\n*_]*?[^\s*_\\])\2(?![\p{L}\p{N}])/gu, '$1$3')
    .replace(/`+([^`\n]+)`+/g, '$1');
}

/** What the repairs of a passage's sentences may draw on (repair.ts): the material's text and the heading above the passage. */
export interface RepairContext {
  /** The whole material's text (for the capitals of a heading's words). */
  material: string;
  /** The topic of the last heading before the passage (a section heading of its own), or null. */
  heading: HeadingTopic | null;
  allowLowercaseStart: boolean;
  /** Whether that heading names a list whose items' notes explain them (heading-lists.ts `explainsItems`): no definitions under it. */
  explained?: boolean;
}

/** A single short line that reads as a heading: capitalised after any section number ("4.2 Income Method"), at most eight words (twelve in capitals; round 37), no sentence's end but a question's. */
export function isHeadingLine(line: string): boolean {
  return !line.includes('\n') && /^\p{Lu}/u.test(line.replace(SECTION_NUMBER, '').replace(/^\d{1,2}(?:\.\d{1,2})+\s+/, '')) && line.split(/\s+/).length <= (line === line.toUpperCase() ? 12 : 8) && !/[.;:!,]["”’)]?$/.test(line);
}

/**
 * Splits one passage into cleaned sentences (list markers and Markdown marks dropped). With `ctx`,
 * a sentence that cannot stand alone is repaired when a repair can stand alone (repair.ts; issue 39
 * §2, round 6): a "Term: description" bullet becomes "Term is description", a verb-phrase bullet or
 * an "It …" bullet takes the topic of the slide's title (or the heading above) as its subject, a
 * subject that needs its "of what" is framed by that topic ("In X, the …"), and a caption's
 * sentence loses the fillers of speech.
 */
export function passageSentences(passage: Passage, ctx?: RepairContext): string[] {
  const out: string[] = [];
  // an unpunctuated caption track's cues, one per line (captions.ts joins only those by lines): their clauses are its sentences
  const spoken = passage.startSeconds !== undefined && passage.text.includes('\n');
  const paras = spoken ? [spokenSentences(passage.text.split('\n')).join(' ')].filter(Boolean) : linesToParagraphs(stripMarkdown(passage.text));
  const own = ctx && paras.length >= 2 && isHeadingLine(paras[0]!) ? headingTopic(paras[0]!, ctx.material) : null;
  const topic = own ?? ctx?.heading ?? null;
  const explained = ctx && paras.length >= 2 && isHeadingLine(paras[0]!) ? explainsItems(paras[0]!) : (ctx?.explained ?? false);
  // (a term set in bold before an arrow is a glossary's entry: "**Premium** → amount paid for the cover"; round 35)
  const glossaryTerms = boldGlossary(passage.text);
  const stands = (t: string | null): t is string => t !== null && rejectReason(t, ctx?.allowLowercaseStart ?? false) === null;
  const seen: string[] = [];
  for (const para of paras) {
    const bulleted = LEADING_MARK.test(para);
    // (a rule of dashes or stars, "---", is a separator, not text)
    for (const s of splitSentences(para.replace(/^\s*[-_*=]{3,}\s*/, '').replace(LEADING_MARK, ''))) {
      // (a slide's bullet that is a whole sentence has no full stop: "A worm is a self-replicating program that spreads on its
      // own through networks"; round 60's deck gave one item — the rest of rejectReason still decides)
      const bare = closedBullet(s.replace(LEADING_MARK, '').trim(), bulleted && passage.citation.startsWith('slide'));
      // (a glossary line, "Term – A description", is the term's definition: the label is the term, not a heading)
      const glossary = ctx && !explained ? dashDefinition(stripNumbering(bare), ctx.material) : null;
      let text = glossary && stands(glossary) ? glossary : stripNumbering(dropGluedHeading(bare.replace(LABEL, '').trim()));
      // (a bullet that opens with its verb is a fragment even when the tagger finds it a sentence: "Introduced regionalism.")
      const labelled = ctx && bulleted ? bulletTopic(para, topic, ctx.material, para.indexOf(bare)) : null;
      const subject = labelled ? subjectFromHeading(text, labelled) : null;
      if (stands(subject)) text = subject;
      else if (ctx && !stands(text)) {
        const spoken = passage.startSeconds !== undefined ? stripNumbering(cleanSpoken(text)) : null;
        const definition = bulleted && !explained ? (definitionBullet(bare, ctx.material) ?? equalsBullet(bare, ctx.material, glossaryTerms)) : null;
        const framed = topic && RELATIONAL_SUBJECT.test(text) ? framedByHeading(text, topic) : null;
        text = [spoken, definition, framed].find(stands) ?? text;
      }
      // (the tagger may read the verb as a noun once "also" is gone, "… and population shift the …": then it stays)
      const plain = withoutExampleAside(withoutBackLink(text));
      if (plain !== text && rejectReason(plain, ctx?.allowLowercaseStart ?? false) === rejectReason(text, ctx?.allowLowercaseStart ?? false)) text = plain;
      if (ctx) text = namedKind(text, seen) ?? text;
      // (the next item's number run into a list's sentence: "… does not lodge it. 4.", round 26)
      text = text.replace(/(?<=[.!?])\s+\d{1,2}\.$/, '');
      seen.push(text);
      out.push(text);
    }
  }
  return out.filter(Boolean);
}

const DEFINITIONAL = /\b(?:is|are|was|were)\s+(?:a|an|the|called|known as|defined as|referred to as)\b|\brefers?\s+to\b|\bmeans\b|\bconsists?\s+of\b|\bis\s+used\s+to\b/i;

/**
 * Indexes passages. `focus` (e.g. the subject) stems raise the score of sentences about it.
 */
export function indexMaterial(passages: Passage[], focus = ''): MaterialIndex {
  const raw: { passageIndex: number; citation: string; text: string; exercise: boolean; recap: boolean }[] = [];
  // Transcripts come without capitals: do not reject them for starting lower case.
  const allowLower = !passages.some((p) => /\p{Lu}/u.test(p.text));
  const material = passages.map((p) => p.text).join('\n');
  const texts = joinCutSentences(passages);
  let heading: HeadingTopic | null = null;
  let explained = false;
  let exercise = false;
  let recap = false;
  let labelled = false;
  passages.forEach((p, passageIndex) => {
    const text = texts[passageIndex]!.trim();
    // a section's heading of its own names the topic of the passages under it, until the next heading
    if (p.startSeconds === undefined && isHeadingLine(text)) [heading, explained] = [headingTopic(text, material), explainsItems(text)];
    // (a worked example's label is no heading of a section: its own scope ends at plain prose, `labelled`; under "WORKED
    // EXAMPLES" the section's scope goes on; round 37)
    if (p.startSeconds === undefined && isHeadingLine(stripMarkdown(text)) && !isExampleLabel(stripMarkdown(text))) {
      exercise = EXERCISE_HEADING.test(text);
      recap = RECAP_HEADING.test(stripMarkdown(text));
    }
    // a slide's own title, or the section it is under, may say it is a worked example or an exercise
    const first = text.split('\n')[0]!.trim();
    // (a title may end in an abbreviation's full stop: "CALCULATING RATE – Worked Ex.", round 26)
    const own = p.startSeconds === undefined && text.includes('\n') && isHeadingLine(stripMarkdown(first).replace(/(?<=\bEx)\.$/, '')) ? EXERCISE_HEADING.test(first) : null;
    // (a worked example led by a label in its own paragraph: "**Worked Example 8:** …", its working after it)
    // (a slide, several lines under its title, is judged by its title alone: `own`)
    if (p.startSeconds === undefined) labelled = !text.includes('\n') && inLabelledExample(labelled, stripMarkdown(text), isHeadingLine(stripMarkdown(text)), SECTION_NUMBER);
    const inExercise = (own ?? exercise) || labelled;
    const titled = p.startSeconds === undefined && text.includes('\n') && isHeadingLine(stripMarkdown(first));
    const inRecap = titled ? RECAP_HEADING.test(stripMarkdown(first)) : recap;
    for (const s of passageSentences({ ...p, text }, { material, heading, allowLowercaseStart: allowLower, explained })) raw.push({ passageIndex, citation: p.citation, text: s, exercise: inExercise, recap: inRecap });
  });
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
    const reason = seen.get(r.text.toLowerCase()) !== 1 ? 'repeated (page furniture)' : r.exercise ? 'a worked example or an exercise' : r.recap ? 'a recap of an earlier lesson' : rejectReason(r.text, allowLower);
    const usable = reason === null;
    const ws = [...stems].map((s) => weight.get(s) ?? 0).sort((a, b) => b - a);
    const top = ws.slice(0, 6);
    let score = top.reduce((a, b) => a + b, 0) / Math.sqrt(Math.max(6, stems.size));
    if (DEFINITIONAL.test(r.text)) score *= 1.3;
    if ([...stems].some((s) => focusStems.has(s))) score *= 1.2;
    const noise = EXAMINER_TALK.test(r.text) || EXAM_NOISE.test(r.text) || isFurnitureLine(r.text);
    return { idx, passageIndex: r.passageIndex, citation: r.citation, text: r.text, stems, usable, reason, noise, score };
  });
  return { passages, sentences, weight, passageFreq };
}

/**
 * Speech made into statements (issue 39 §2): a lecture's caption sentences without the fillers
 * of speech, sentences cut at a caption's end joined again, and an unpunctuated caption track
 * (automatic captions) read cue by cue into clauses, each kept only when it reads as a
 * statement. docs/decisions.md, "Round 6: repair slide fragments and spoken sentences before
 * refusing them" and the caption sections after it.
 */
import { tagSentence } from '../text/pos.js';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Fillers of speech before a spoken sentence's content ("So, …", "Okay, now …", "You see, …", "Remember that …", a reply's "No. …" — with its stop: "No digestion …" keeps its "No"). */
const SPOKEN_OPENER = /^(?:(?:so|okay|ok|now|well|and|also|right|alright|you see|you know|remember(?:\s+that)?|note\s+that)\b\s*[,.]?\s*|(?:yes|no)\s*[,.!]\s*)+/i;

/**
 * A caption's sentence without the fillers of speech (issue 39 §2, round 6): fillers opening it
 * ("So", "Okay", "Now,", "You see", "Remember that") and ", you know," or ", you see," inside it;
 * the rest capitalised. A sentence that was only fillers comes back empty.
 */
export function cleanSpoken(sentence: string): string {
  const inner = sentence.replace(/,\s*you (?:know|see)\s*,\s*/gi, ' ').replace(/,\s*you (?:know|see)\s*(?=[.!?])/gi, '').replace(/\s+you know\s+/gi, ' ');
  const rest = inner.replace(SPOKEN_OPENER, '');
  return rest === inner ? inner : capitalise(rest);
}

/**
 * Timed passages' texts with a sentence cut at a passage's end (captions are grouped by length,
 * so a sentence may run on into the next group) completed from the next passage: the words up to
 * the next passage's first sentence end move back to where the sentence began (its citation).
 * In an unpunctuated track (cues on lines of their own) the cue that opens the next passage and
 * continues the clause before (`CONTINUES`, `VERB_FIRST`; not an infinitive) moves back instead. Other passages'
 * texts are returned unchanged; the result is parallel to `passages`.
 */
export function joinCutSentences(passages: readonly { text: string; startSeconds?: number }[]): string[] {
  const texts = passages.map((p) => p.text);
  for (let i = 0; i + 1 < texts.length; i++) {
    if (passages[i]!.startSeconds === undefined || passages[i + 1]!.startSeconds === undefined) continue;
    // an unpunctuated track's cues, one per line: the next passage's first cue, when it continues the clause before ("to
    // the object he is looking at" after "the line of sight is the line joining the eye of the observer"), moves back to
    // it; left where it was, the clause before was cut, and keyed True as a whole (round 57's wrong key). One cue only,
    // and not an infinitive ("to remember them say"): the development packets showed longer runs joined into run-ons.
    if (texts[i]!.includes('\n') && texts[i + 1]!.includes('\n')) {
      const [first, ...rest] = texts[i + 1]!.split('\n');
      const cue = first!.trim();
      if (rest.length && (CONTINUES.test(cue) || VERB_FIRST.test(cue)) && !INFINITIVE.test(cue)) [texts[i], texts[i + 1]] = [`${texts[i]}\n${cue}`, rest.join('\n')];
      continue;
    }
    if (/[.?!]["”’)]?\s*$/.test(texts[i]!)) continue;
    const end = /^[^.?!]{1,300}?[.?!]["”’)]?(?=\s|$)/.exec(texts[i + 1]!);
    if (!end) continue;
    texts[i] = `${texts[i]!.trimEnd()} ${end[0]}`;
    texts[i + 1] = texts[i + 1]!.slice(end[0].length).trim();
  }
  return texts;
}

/** A cue opening with "to" and a verb: an infinitive, not the preposition that ends a phrase ("to the object …"). */
const INFINITIVE = /^to\s+(?!(?:the|a|an|his|her|their|its|our|your|my|this|that|these|those|each|every|one|two|three|four|five|six|seven|eight|nine|ten|\d)\b)\p{L}+/iu;

/**
 * Words a teacher says around the content: greetings, checks, praise, answers ("okay", "are we
 * together", "very good", "yes sir"). Never "no": "no digestion takes place in the oesophagus" is
 * a statement (round 18's wrong key).
 */
const SPOKEN_FILLER = String.raw`(?:okay|ok|alright|all right|right|so|now|well|and|but|yes|good|very good|correct|thank you|well done|excellent|are we together|is that clear|is it clear|you see|you know|by the way|listen|class|sir|ma|write (?:it|that|this|them) down|note (?:it|that|this) down|sit down|again)`;
/**
 * Fillers that are also words of a statement's own first phrase ("good conductors of heat …",
 * "right atrium …", "class of levers …"): taken at a cue's start only before a word that cannot
 * go on that phrase (an article, a pronoun, another filler) or at the cue's end.
 */
const AMBIGUOUS_FILLER = /^(?:right|well|good|very good|correct|excellent|class|again)$/i;
const AFTER_FILLER = /^(?:the|a|an|this|that|these|those|it|its|they|we|you|i|he|she|there|so|now|okay|ok|yes|and|but|write|let|sit|class|sir|ma)$/i;
const LEADING_FILLER = new RegExp(String.raw`^${SPOKEN_FILLER}\b\s*`, 'i');
/**
 * A "no" that answers a pupil, not one that begins a statement: before a comma (recase.ts writes one before a name the
 * lexicon does not know, "no, obasanjo was …"), an article or a pronoun ("no the senate …", "no it is …"; round 33).
 */
const REPLY_NO = /^no(?:,\s*|\s+(?=(?:the|a|an|it|he|she|they|we|you|i|this|that|these|those)\s))/i;

/** `text` without the fillers at its start (SPOKEN_FILLER; AMBIGUOUS_FILLER only where AFTER_FILLER says it is one). */
function withoutLeadingFillers(text: string): string {
  let rest = text.replace(REPLY_NO, '');
  for (let m = LEADING_FILLER.exec(rest); m; m = LEADING_FILLER.exec(rest)) {
    const after = rest.slice(m[0].length);
    if (AMBIGUOUS_FILLER.test(m[0].trim()) && after && !AFTER_FILLER.test(after.split(/\s+/)[0]!)) break;
    rest = after;
  }
  return rest;
}
const TRAILING_FILLERS = new RegExp(String.raw`(?:\s+\b${SPOKEN_FILLER})+$`, 'i');
/** A filler that ends one spoken clause and begins another inside a cue ("… very good write it down weather is …"). */
const INNER_BREAK = /\s+(?:very good|thank you|well done|okay|ok|are we together|is that clear|write (?:it|that|this|them) down|note (?:it|that|this) down)\s+/i;
/**
 * A cue that goes on with the clause of the cue before: a preposition, a relative word, a participle ("into small …", "which
 * kills …", "observed over …"); not "that" as a pronoun ("that one is a single meal", "that means …": round 38's unusable item
 * "Rice and beans is one dish that one is a single meal").
 */
const CONTINUES = /^(?:of|into|in|at|on|for|from|with|by(?!\s+the\s+way\b)|to|than|or|which|who|whose|where|that(?!\s+(?:one|ones|means|meant|shows|tells)\b)|called|known as|such as|usually|especially|mostly|mainly|observed|measured|used|found|made|formed|produced|caused|carried|stored)\b/i;
/**
 * A cue that opens with its verb continues the clause before, whose subject it needs ("scarcity
 * means that the resources available" / "are limited"; round 54: a wrong key): "is", "are",
 * "was", "were", "has", "have", "had" and a word that does not make it a question ("is it …",
 * "are there …", "has anybody …").
 */
const VERB_FIRST = /^(?:is|are|was|were|has|have|had)\s+(?!(?:it|they|there|this|that|these|those|we|you|he|she|i|anybody|anyone|somebody|someone|everybody|everyone)\b)\p{L}/iu;
/** A condition or a time a cue opens with: what the next cue says holds only under it. */
const OPEN_CONDITION = /^(?:if|when|whenever|once|unless|as soon as)\b/i;
/**
 * A pupil's turn: a cue that opens by addressing the teacher ("ma the giraffe with long neck will eat the leaves", "sir
 * motion is when something is moving", "no ma it cannot"). A pupil's answer may be wrong, and the teacher's correction
 * follows it, so it is no statement of the lesson (issue 39 §2, round 58: a wrong key made from one).
 */
const PUPIL_TURN = /^(?:(?:yes|no)\s+)?(?:ma|sir)\b[\s,]+\p{L}/iu;
/**
 * The teacher giving a pupil the floor: "yes you with the blue pen", "yes blessing", "okay you at the back", "yes the
 * girl in front" (after "yes", a name alone). The next cue is the pupil's answer, which the teacher goes on to correct ("a chord is a line that joins
 * two points on the circle" / "good a straight line joining any two points on the circumference"; round 59).
 */
const GIVES_FLOOR = /^(?:(?:yes|okay|ok|go on|oya)\s+(?:you|the\s+(?:girl|boy|one|student|pupil))\b(?!\s+(?:are|can|will|must|should|see|know|have|need)\b)[\p{L}\s]{0,30}|yes\s+(?!(?:ma|sir|please|good|correct|exactly|right|now|so|it|that|this|and|but|of|very|indeed|class|we|they|i|thank|well|oh|yes|no|o|oo)\b)\p{L}+)$/iu;
/** A teacher's answer to a pupil that only praises it: "very good write it down", "correct correct", "good clap for her". */
const PRAISE_ONLY = /^(?:(?:yes|good|very good|very correct|correct|excellent|well done|that is (?:correct|right|good)|exactly|thank you|clap for (?:her|him|them)|sit down|you are (?:correct|right)|write (?:it|that|this|them) down|okay|ok)\s*)+$/i;
/** A teacher's question: a question word first ("what is …", "who can tell me …"), "… with what" last, or "which one …" inside. */
const SPOKEN_QUESTION = /^(?:what|who|whom|which|why|how|when|where|can anybody|can anyone|can someone|can you|do you|does anybody|is it|are they|is there|are there|tell me)\b|\b(?:what|who|which|why|how)\s*$|\b(?:which one|what happens|who knows|guess what)\b/i;

/**
 * The statements of an unpunctuated caption track's cues (automatic captions, a speech
 * recogniser's utterances; issue 39 §2, rounds 9, 11 and 12: a lecture gave no item): a cue is
 * a phrase of speech. Fillers at a cue's ends and between its clauses are dropped, the
 * teacher's questions are dropped, a pupil's turn ("ma …", "sir …", the cue after "yes you …")
 * is dropped unless the teacher's next cue only praises it (rounds 58 and 59), a cue that
 * continues the clause before ("into small soluble molecules …", "which kills …") joins it, and
 * each clause left is capitalised and
 * closed with a full stop. Whether a statement can stand alone is still decided by
 * `rejectReason` (a dangling "it", talk to the class, too short).
 */
export function spokenSentences(cues: readonly string[]): string[] {
  const clauses: { text: string; question: boolean }[] = [];
  const take = (said: string) => {
    const parts = said.split(INNER_BREAK);
    parts.forEach((part, i) => {
      const text = withoutLeadingFillers(part).replace(TRAILING_FILLERS, '').trim();
      if (!text) return;
      // ("when you heat …" opens a condition; "when does …" asks)
      const condition = OPEN_CONDITION.test(text) && !/^when\s+(?:is|are|was|were|do|does|did|will|can|should)\b/i.test(text);
      const question = !condition && SPOKEN_QUESTION.test(text);
      const last = clauses[clauses.length - 1];
      // (only a cue's first part continues the last clause: a filler inside the cue ended it)
      if (i === 0 && last && !last.question && part.trim() === text && (CONTINUES.test(text) || VERB_FIRST.test(text))) last.text = `${last.text} ${text}`;
      // a condition alone in its cue ("if you put a cell in a hypotonic solution") governs the next cue, which is no
      // statement without it ("water enters the cell by osmosis"; round 22: a wrong key)
      else if (i === 0 && last && !last.question && OPEN_CONDITION.test(last.text) && !/,/.test(last.text)) last.text = `${last.text}, ${text}`;
      else clauses.push({ text, question });
    });
  };
  // a pupil's turn waits for the teacher's answer to it: praise alone makes it the lesson's ("digestion is the breakdown …" /
  // "very good write it down"); a restatement or a correction leaves it no statement, as a question is (round 59)
  let floor = false;
  let pupil: string[] = [];
  const settle = (praised: boolean) => {
    if (pupil.length) praised ? pupil.forEach(take) : clauses.push({ text: pupil.join(' '), question: true });
    pupil = [];
  };
  for (const cue of cues) {
    const said = cue.replace(/\s+/g, ' ').trim();
    // (the pupil's answer may run on into the next cue: "into small soluble molecules …")
    if (pupil.length && (CONTINUES.test(said) || VERB_FIRST.test(said))) {
      pupil.push(said);
      continue;
    }
    settle(PRAISE_ONLY.test(said));
    const turn = floor || PUPIL_TURN.test(said);
    floor = GIVES_FLOOR.test(said);
    if (turn) pupil.push(said);
    else take(said);
  }
  settle(false);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of clauses) {
    const key = c.text.toLowerCase();
    if (c.question || seen.has(key) || !isSpokenStatement(c.text)) continue;
    seen.add(key);
    out.push(`${capitalise(c.text.replace(/\bi\b/g, 'I'))}.`);
  }
  return out;
}

/** Words that end no statement: a clause cut off mid-phrase ("the formula for charles's law is"). */
const OPEN_END = /\b(?:is|are|was|were|the|a|an|of|and|or|to|for|in|on|at|with|by|from|that|which|its|their|this|these|than|as)$/i;
/** Working and formulas read aloud ("three hundred over three hundred equals v two …", "convert to minutes …", "c is …, delta theta is …"): a letter alone is a quantity's symbol. */
const SPOKEN_WORKING = /\bequals\b|\bconvert(?:s|ed)?\s+(?:to|into)\b|\b(?:alpha|beta|gamma|delta|theta|lambda|sigma|omega|rho)\b|(?<![\p{L}'’])(?![ai]\b)\p{Ll}(?![\p{L}'’])|\b(?:plus|minus|times|divided by|multiplied by)\b|\bover\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|\d)/iu;
/** Words too common to mark speech repeating itself when they recur ("in the … in the"). */
const FUNCTION_WORD = /^(?:the|a|an|of|in|on|at|to|and|or|is|are|was|were|for|with|by|from|it|its|that|this|as|be)$/;
/** What may join two clauses in one statement ("… is higher so the beans …", "… which …"). */
const JOINS = /^(?:and|but|or|so|because|since|when|while|whereas|if|as|that|which|who|whose|where|although|though|until|unless|therefore)$/i;

/**
 * True when a spoken clause can be a statement: it opens with its subject (a determiner, a noun,
 * an adjective or a number — not a verb, a preposition or a subordinator: "Provided the …",
 * "Will increase …", "Between …"), ends with no open phrase, is no arithmetic read aloud, and
 * does not run two clauses together with nothing between them ("the container is rigid the
 * volume cannot change"), leave a joined clause without its verb ("… so with a little heat") or
 * repeat two words of itself ("zero degree longitude zero degree").
 */
export function isSpokenStatement(clause: string): boolean {
  const tags = tagSentence(clause.charAt(0).toLowerCase() + clause.slice(1));
  if (!tags.length || !/^(?:DET|NOUN|PROPN|ADJ|NUM)$/.test(tags[0]!.pos) || /^(?:example|question|answer|number|step)$/i.test(tags[0]!.text)) return false;
  if (OPEN_END.test(clause.trim()) || SPOKEN_WORKING.test(clause) || /\b(?:he|she|they) (?:said|says)\b/i.test(clause)) return false;
  // "before" with nothing after it leans on the talk around it: before what? ("obasanjo was a military head of state
  // before"; round 33); "than before" and "ever before" compare and stand
  if (/(?<!\bthan|\bever)\s+before$/i.test(clause.trim())) return false;
  // an adjective and its preposition first: the answer to the teacher's question, with no subject ("parallel to the direction
  // the wave is travelling"); a thing that wants, likes or tries: the teacher's manner of speaking, not a fact ("other atoms
  // want to look like the noble gas"; round 20 and 21)
  if ((tags[0]!.pos === 'ADJ' && tags[1]?.pos === 'ADP') || /\b(?:wants?|wanted|likes?|loves?|tries|try|trying) to\b/i.test(clause)) return false;
  // "that is why": two sentences spoken as one, the reason in the cue before (round 22)
  if (/\b(?:that|this|which) is why\b/i.test(clause)) return false;
  // an example quoted, not a fact stated ("another example death is a thief that comes at night"), and the teacher's name for
  // what was just said run on after it ("death is called a thief that is metaphor": a bare singular noun after "that is"; round 26)
  if (/^(?:another|one more|the next|next|a good|an|my|this)\s+example\b/i.test(clause)) return false;
  const last = tags.length - (tags[tags.length - 1]?.pos === 'PUNCT' ? 2 : 1);
  if (last >= 2 && /^(?:that|this|it)$/i.test(tags[last - 2]!.text) && /^(?:is|was)$/i.test(tags[last - 1]!.text) && tags[last]!.pos === 'NOUN' && !/s$/i.test(tags[last]!.text)) return false;
  // high or low with nothing to compare with: "carbon dioxide is high in the blood" holds only beside the air sacs the cue
  // before spoke of (round 22)
  if (/\b(?:is|are)\s+(?:very\s+)?(?:high|low)\s+(?:in|at|inside|outside|within)\b/i.test(clause) && !/\bthan\b/i.test(clause)) return false;
  // the same two words twice: speech repeating itself ("zero degree longitude zero degree")
  const words = clause.toLowerCase().split(/\s+/);
  const pairs = words.slice(1).map((w, i) => [words[i]!, w]).filter((p) => p.every((w) => !FUNCTION_WORD.test(w))).map((p) => p.join(' '));
  if (new Set(pairs).size < pairs.length) return false;
  // two finite verbs with no joining word between them: two sentences run together; and a joining word after the
  // first verb needs a verb after it ("sand has a small specific heat capacity so with a little heat" is cut off)
  // ("being" and "been" are never finite: "every human being is entitled to it by virtue of being human"; round 29)
  const finite = (i: number) => !/^(?:being|been)$/i.test(tags[i]!.text) && (tags[i]!.pos === 'AUX' || (tags[i]!.pos === 'VERB' && /(?:s|ed)$/i.test(tags[i]!.text) && tags[i - 1]?.pos !== 'AUX'));
  // a relative clause needs its verb, and a subject opened by one needs the main verb after it ("yoghurt which is made by
  // …" has none; "respiration is the process by which food substances mainly glucose" stops before it)
  const verbs = tags.map((_, i) => i).filter(finite);
  // ("that" is a relative word after a noun, "the collisions that have …"; not in "that is" or "so that")
  const relative = tags.findIndex((t, i) => /^(?:which|who|whom|whose)$/i.test(t.text) || (t.text.toLowerCase() === 'that' && t.pos !== 'DET' && /^(?:NOUN|PROPN)$/.test(tags[i - 1]?.pos ?? '')));
  if (relative >= 0) {
    const after = verbs.filter((i) => i > relative).length;
    if (after === 0 || (!verbs.some((i) => i < relative) && after < 2)) return false;
  }
  let lastVerb = -1;
  for (const [i, t] of tags.entries()) {
    // a joining word straight before a preposition, with no verb after it: the clause stops mid-way
    if (lastVerb >= 0 && JOINS.test(t.text) && tags[i + 1]?.pos === 'ADP' && !tags.slice(i + 1).some((x) => x.pos === 'VERB' || x.pos === 'AUX')) return false;
    if (!finite(i)) continue;
    if (lastVerb >= 0 && i - lastVerb > 1 && !tags.slice(lastVerb + 1, i).some((x) => JOINS.test(x.text) || x.pos === 'CCONJ' || x.pos === 'SCONJ')) return false;
    lastVerb = i;
  }
  return true;
}

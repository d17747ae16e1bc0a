/**
 * Repairs of a sentence that cannot stand alone as it is written (issue 39 §2, round 6: slides and
 * lecture captions gave no item at all once fragments and subject-less statements were refused).
 * Each repair returns a candidate statement or null; the caller keeps a candidate only when it
 * passes the same rules as any other sentence (sentences.ts, rejectReason), so a repair never
 * lets through what a sentence of the material would not. docs/decisions.md, "Round 6: repair
 * slide fragments and spoken sentences before refusing them".
 */
import { tagSentence } from '../text/pos.js';

/** A heading that names no topic (a slide of the deck's apparatus, not of its content). */
const GENERIC_HEADING = /^(?:summary|introduction|overview|conclusion|revision|review|recap|questions?|exercises?|examples?|key (?:points?|terms|facts)|notes?|objectives?|outline|contents|references|definitions?|terms|learning outcomes?|lesson \d+|topic)$/i;
/** "Functions of INEC", "Roles of the Senate": what the bullets under it say is done by the thing after "of". */
const AGENT_HEADING = /^(?:the\s+)?(?:(?:main|key|major|other)\s+)?(?:functions?|roles?|duties|powers|responsibilities|features|characteristics|achievements|aims|objectives|uses|work|tasks|activities)\s+of\s+(.+)$/i;
/** Past forms that are never participles ("Came into force …"): a bullet opening with one is a verb phrase. */
const PAST_ONLY = /^(?:came|became|broke|began|went|rose|fell|grew|gave|took|ran|drew|wrote|chose|knew|saw|spoke|overthrew|undertook|withdrew|forbade)$/i;
/** Irregular past forms that are participles too: active only with an object after them ("Made Nigeria a true federation."). */
const AMBIGUOUS_PAST = /^(?:made|held|led|set|brought|built|sent|won|lost|had|paid|laid|kept|left|found|put|cut|struck|sold|taught|fought|bought|caught)$/i;
/**
 * Labels before a colon that are not defined terms ("Example: …", "Note: …", "Advantage: …"),
 * and a lesson's housekeeping lines on a title slide ("Topic: …", "Class: SS2", "Duration: …",
 * "Reading: …", "Bring: …", "Homework: …"; round 7), and a slide's "Features: …", "Uses: …",
 * "Types: …" lines, which list what the title's subject has (round 9: "Features are layered …").
 */
const LABEL_WORD = /^(?:examples?|e\.g|i\.e|note|nb|advantages?|disadvantages?|merits?|demerits?|questions?|answers?|summary|tip|remember|key|definition|meaning|importance|result|effect|cause|reason|step \d+|stage \d+|time|date|age|year|period|venue|source|formula|unit|symbol|topic|sub-?topic|title|subject|theme|class|level|teacher|lesson|term|week|duration|aims?|objectives?|keywords?|references?|outline|overview|contents|instructional materials?|materials?|(?:further )?reading|bring|homework|assignments?|resources?|textbooks?|equipment|requirements?|prerequisites?|features?|characteristics?|properties|uses?|types?|kinds?|functions?|composition|structure|membership|powers?|duties|roles?|qualifications?|tenure|members?|head|headquarters|appointment|organi[sz]ation|prevention|treatment|control|symptoms?|signs?|cure|diagnosis|remed(?:y|ies)|solutions?|effects?|consequences?)$/i;

/** A topic a heading names, as a subject: the noun phrase and whether it is plural. */
export interface HeadingTopic {
  /** The noun phrase, with the material's capitals for names and lower case for common words ("vegetative propagation", "INEC", "The Clifford Constitution of 1922"). */
  phrase: string;
  plural: boolean;
  /** True when the heading itself is the phrase (not "Functions of X" → X): only then may it frame a statement ("In X, …"). */
  whole: boolean;
}

/**
 * Whether `word` is a common word rather than a name: the material never writes it capitalised inside
 * a sentence (after a word, not at a line's or sentence's start; Title-Case lines such as headings aside), as it
 * writes names ("Sir Hugh Clifford").
 */
function commonWord(word: string, material: string): boolean {
  const w = word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  return !new RegExp(`[^\\s.!?:;•*\\-–—]\\s+${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(prose(material));
}

/** The last material `prose` was asked for, and its prose (one material is generated from at a time). */
let proseCache: { material: string; prose: string } | null = null;
/** The material without its Title-Case lines (headings, titles), whose capitals say nothing about names. */
const prose = (material: string) => {
  if (proseCache?.material !== material) proseCache = { material, prose: titleCaseLinesDropped(material) };
  return proseCache.prose;
};
const titleCaseLinesDropped = (material: string) =>
  material
    .split('\n')
    .filter((l) => {
      const ws = l.replace(/^[\s•*-]+/, '').split(/[\s,:?]+/).filter(Boolean);
      return !ws.length || !ws.every((w) => /^[\p{Lu}\d]/u.test(w) || /^(?:of|and|or|the|a|an|in|on|for|to|at|by|with)$/.test(w));
    })
    .join('\n');

/** A heading's words in the material's own capitals: a Title-Case word is lowered unless the material writes it as a name; acronyms keep theirs. */
function materialCase(phrase: string, material: string): string {
  return phrase
    .split(' ')
    .map((w) => (/^\p{Lu}\p{Ll}+$/u.test(w) && commonWord(w, material) ? w.toLowerCase() : w))
    .join(' ');
}

const isPlural = (phrase: string) => {
  const head = phrase.split(/\s+of\s+/)[0]!.split(' ').pop() ?? '';
  return /[^su'’]s$/i.test(head) && !/(?:ss|us|is)$/i.test(head);
};

/**
 * The topic a slide's title or a section's heading names, or null when it names none cleanly:
 * a short noun phrase (at most five words, no verb, no "and"/"or"), "What is X?" → X, "Functions
 * of X" → X, "The X, 1922" → "The X of 1922". `material` is the whole material's text (for capitals).
 */
export function headingTopic(heading: string, material: string): HeadingTopic | null {
  let h = heading.replace(/^\s*#{1,6}\s+/, '').trim();
  let whole = true;
  const what = /^what\s+(?:is|are)\s+(.+?)\s*\?$/i.exec(h);
  if (what) h = what[1]!;
  else if (/[?!.;:]$/.test(h)) return null;
  h = h.replace(/^(.{3,}?),\s*(\d{4})$/, '$1 of $2');
  const agent = AGENT_HEADING.exec(h);
  if (agent) {
    h = agent[1]!;
    whole = false;
  }
  if (GENERIC_HEADING.test(h) || /[,;:()/&–—]|\b(?:and|or|vs)\b/i.test(h) || h.split(/\s+/).length > 5 || !/^[\p{L}\d'’ -]+$/u.test(h)) return null;
  // (a heading with " of " other than a year is a category, "Sources of a Constitution": not an agent of its bullets)
  if (!agent && / of (?!\d{4}$)/.test(h)) return null;
  const tags = tagSentence(h.toLowerCase());
  if (tags.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON')) return null;
  // "The Clifford Constitution of 1922" (a name in it) keeps its capitals; "Vegetative Propagation" takes the material's
  // (a dated one names an instrument or an event: "The Independence Constitution of 1960")
  const named = /^the\s/i.test(h) && (/\b\d{4}\b/.test(h) || h.split(' ').some((w) => /^\p{Lu}\p{Ll}+$/u.test(w) && !/^(?:The|A|An)$/.test(w) && !commonWord(w, material)));
  // (a generic "a constitution" is no name, whatever the material capitalises: only acronyms keep their capitals)
  const phrase = named ? h : /^an?\s/i.test(h) ? h.replace(/(?<=\s)\p{Lu}\p{Ll}+/gu, (w) => w.toLowerCase()) : materialCase(h, material);
  return { phrase, plural: isPlural(phrase), whole };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string, material: string) => (/^\p{Lu}\p{Ll}+\b/u.test(s) && commonWord(/^\p{L}+/u.exec(s)![0], material) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/**
 * A "Term: description" bullet as a statement ("Judicial precedents: decisions of the courts." →
 * "Judicial precedents are decisions of the courts."), or null: the term a noun phrase of at most
 * four words that is no label ("Example:", "Note:", "Advantage:"), the description a noun phrase
 * (no verb of its own, no second part after ";").
 */
export function definitionBullet(bullet: string, material: string): string | null {
  const m = /^([\p{Lu}][\p{L}'’ -]{1,40}?)\s*:\s+(.+?)([.!]?)$/u.exec(bullet.trim());
  if (!m) return null;
  const [, term, desc] = m as unknown as [string, string, string];
  // (symbols, arrows and "&" are a formula or a note's shorthand, "ρ ≈ 1.1 × 10⁻⁶ Ωm → heating elements", "Group O: no
  // antigens, anti-A & anti-B antibodies": no description)
  if (LABEL_WORD.test(term.trim()) || term.split(/\s+/).length > 4 || /[;:]/.test(desc) || /[→←⇒=≈<>×÷±&]|\p{Script=Greek}/u.test(desc)) return null;
  const termTags = tagSentence(term.toLowerCase());
  // (a term is a noun phrase: not a verb's, nor a preposition's phrase, "During war: trading … with the enemy"; round 17 item 9)
  if (!/^(?:NOUN|PROPN)$/.test(termTags[termTags.length - 1]?.pos ?? '') || /^(?:VERB|ADP|SCONJ)$/.test(termTags[0]!.pos) || /ed$/i.test(termTags[0]!.text)) return null;
  // (a description in capitals is a name or a list of names, "Bicameral Parliament: Senate and House of …": no definition)
  if (!/^\p{Ll}/u.test(desc)) return null;
  const descTags = tagSentence(desc.charAt(0).toLowerCase() + desc.slice(1));
  if (descTags.length < 2 || descTags.some((t) => t.pos === 'AUX' || t.pos === 'PRON' || (t.pos === 'VERB' && /[^s]s$/i.test(t.text)))) return null;
  if (/^(?:VERB|ADV|ADP|SCONJ|CCONJ|AUX)$/.test(descTags[0]!.pos) && !/ed$/i.test(descTags[0]!.text)) return null;
  if (descTags[0]!.pos === 'VERB' && descTags[1]?.pos !== 'NOUN') return null;
  // (brackets inside a list's items do not hide it: "current (cheques), savings (interest), fixed deposit")
  const unbracketed = desc.replace(/\s*\([^)]*\)/g, '');
  if (isBareList(descTags) || isBareList(tagSentence(unbracketed.charAt(0).toLowerCase() + unbracketed.slice(1)))) return null;
  const plural = isPlural(term.trim());
  // a slide drops the article a sentence needs: "Barter: direct exchange of goods …" → "Barter is the direct exchange of …"
  const article = !plural && /^(?:NOUN|ADJ)$/.test(descTags[0]!.pos) && !DETERMINER_WORD.test(descTags[0]!.text) && !isPlural(descTags.find((t) => t.pos === 'NOUN')?.text ?? '') ? 'the ' : '';
  return capitalise(`${materialCase(term.trim(), material)} ${plural ? 'are' : 'is'} ${article}${lowerFirst(desc, material)}.`);
}

/** Words that already determine a noun phrase ("any", "anything", "each"): no article goes before them. */
const DETERMINER_WORD = /^(?:a|an|the|any|anything|something|everything|nothing|one|all|every|each|its|their|his|her|our|this|that|these|those|some|many|much|more|most|no)$/i;

/**
 * A slide's "Term = description" line as a "Term: description" bullet (issue 39 §2: slide decks
 * gave about one item each in rounds 12–17, and "Barter = direct exchange of goods & services
 * for other goods & services without money" is a definition): "&" read as "and", "/" between
 * words as "or", the description cut at an arrow or ";" ("Inflation = persistent rise in general
 * price level → value of money falls"). Null for a formula or a figure ("V = IR", "1 naira = 100
 * kobo"), a second "=", or a note's abbreviation ("govt", "yrs"); otherwise what
 * `definitionBullet` makes of it.
 */
export function equalsBullet(bullet: string, material: string): string | null {
  const m = /^([\p{Lu}][\p{L}'’ -]{1,40}?)\s+=\s+(\p{Ll}.+?)[.!]?$/u.exec(bullet.trim());
  if (!m || m[2]!.includes('=')) return null;
  const desc = m[2]!.split(/\s*(?:→|->|;)\s*/)[0]!.replace(/\s+&\s+/g, ' and ').replace(/(?<=\p{L})\/(?=\p{L})/gu, ' or ').trim();
  if (/\d|\b(?:govt|yrs?|etc|e\.g|i\.e|approx|esp|incl)\b/i.test(desc) || desc.split(/\s+/).length < 3) return null;
  return definitionBullet(`${m[1]!}: ${desc}`, material);
}

/**
 * A description that is a list of bare items ("coal, petroleum from sedimentary rocks",
 * "granite, marble, limestone"): its first comma comes after one or two words with no
 * determiner, and no clause follows it. "Fuel is coal, petroleum …" is no statement (issue 39
 * §2, noticed after round 11); "a grey powder, made from …" is a definition.
 */
function isBareList(tags: ReturnType<typeof tagSentence>): boolean {
  const comma = tags.findIndex((t) => t.text === ',');
  if (comma < 1 || comma > 2) return false;
  const head = tags.slice(0, comma);
  return head.every((t) => /^(?:NOUN|PROPN|ADJ)$/.test(t.pos)) && !/^(?:which|who|that|where|when|whose)$/i.test(tags[comma + 1]?.text ?? '');
}

/**
 * A bullet that is a verb phrase under a heading naming its subject ("Conducts elections." under
 * "Functions of INEC" → "INEC conducts elections."; "Introduced regionalism." under "The Richards
 * Constitution, 1946" → "The Richards Constitution of 1946 introduced regionalism."), or a bullet
 * whose subject is "It"/"They" standing for that topic; null when the grammar does not allow it
 * cleanly: a participle ("Named after …") is left alone, a present verb needs a singular topic.
 */
export function subjectFromHeading(bullet: string, topic: HeadingTopic): string | null {
  const pronoun = /^(It|They)\s+(?=\p{Ll})/u.exec(bullet);
  if (pronoun) {
    if ((pronoun[1] === 'It') === topic.plural) return null;
    return capitalise(`${topic.phrase} ${bullet.slice(pronoun[0].length)}`);
  }
  const tags = tagSentence(bullet.charAt(0).toLowerCase() + bullet.slice(1));
  const first = tags[0];
  const next = tags[1];
  if (!first || !/^\p{Lu}\p{Ll}+$/u.test(first.text.charAt(0).toUpperCase() + first.text.slice(1))) return null;
  const w = first.text.toLowerCase();
  const present = first.pos === 'VERB' && /[^su]s$/.test(w) && !topic.plural;
  // an -ed verb with an object named by a determiner, a number or a name (not a participle: "Named after …", "Accepted customs …")
  const past = ((/ed$/.test(w) || AMBIGUOUS_PAST.test(w)) && first.pos === 'VERB' && /^(?:DET|NUM|PROPN)$/.test(next?.pos ?? '')) || PAST_ONLY.test(w);
  if (!present && !past) return null;
  return capitalise(`${topic.phrase} ${bullet.charAt(0).toLowerCase()}${bullet.slice(1)}`);
}

/**
 * A statement whose subject needs its "of what" ("The offspring are true to type.") framed by the
 * heading that names it ("In vegetative propagation, the offspring are true to type."), or null when
 * the heading is no short noun phrase of its own.
 */
export function framedByHeading(sentence: string, topic: HeadingTopic): string | null {
  if (!topic.whole || topic.phrase.split(' ').length > 4) return null;
  return `In ${topic.phrase}, ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}

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
 * Other passages' texts are returned unchanged; the result is parallel to `passages`.
 */
export function joinCutSentences(passages: readonly { text: string; startSeconds?: number }[]): string[] {
  const texts = passages.map((p) => p.text);
  for (let i = 0; i + 1 < texts.length; i++) {
    if (passages[i]!.startSeconds === undefined || passages[i + 1]!.startSeconds === undefined) continue;
    if (/[.?!]["”’)]?\s*$/.test(texts[i]!)) continue;
    const end = /^[^.?!]{1,300}?[.?!]["”’)]?(?=\s|$)/.exec(texts[i + 1]!);
    if (!end) continue;
    texts[i] = `${texts[i]!.trimEnd()} ${end[0]}`;
    texts[i + 1] = texts[i + 1]!.slice(end[0].length).trim();
  }
  return texts;
}

/**
 * Words a teacher says around the content: greetings, checks, praise, answers ("okay", "are we
 * together", "very good", "yes sir"). Never "no": "no digestion takes place in the oesophagus" is
 * a statement (round 18's wrong key).
 */
const SPOKEN_FILLER = String.raw`(?:okay|ok|alright|all right|right|so|now|well|and|but|yes|good|very good|correct|thank you|well done|excellent|are we together|is that clear|is it clear|you see|you know|listen|class|sir|ma|write (?:it|that|this|them) down|note (?:it|that|this) down|sit down|again)`;
/**
 * Fillers that are also words of a statement's own first phrase ("good conductors of heat …",
 * "right atrium …", "class of levers …"): taken at a cue's start only before a word that cannot
 * go on that phrase (an article, a pronoun, another filler) or at the cue's end.
 */
const AMBIGUOUS_FILLER = /^(?:right|well|good|very good|correct|excellent|class|again)$/i;
const AFTER_FILLER = /^(?:the|a|an|this|that|these|those|it|its|they|we|you|i|he|she|there|so|now|okay|ok|yes|and|but|write|let|sit|class|sir|ma)$/i;
const LEADING_FILLER = new RegExp(String.raw`^${SPOKEN_FILLER}\b\s*`, 'i');

/** `text` without the fillers at its start (SPOKEN_FILLER; AMBIGUOUS_FILLER only where AFTER_FILLER says it is one). */
function withoutLeadingFillers(text: string): string {
  let rest = text;
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
/** A cue that goes on with the clause of the cue before: a preposition, a relative word, a participle ("into small …", "which kills …", "observed over …"). */
const CONTINUES = /^(?:of|into|in|at|on|for|from|with|by|to|than|or|which|who|whose|where|that|called|known as|such as|usually|especially|mostly|mainly|observed|measured|used|found|made|formed|produced|caused|carried|stored)\b/i;
/** A teacher's question: a question word first ("what is …", "who can tell me …"), "… with what" last, or "which one …" inside. */
const SPOKEN_QUESTION = /^(?:what|who|whom|which|why|how|when|where|can anybody|can anyone|can someone|can you|do you|does anybody|is it|are they|is there|are there|tell me)\b|\b(?:what|who|which|why|how)\s*$|\b(?:which one|what happens|who knows|guess what)\b/i;

/**
 * The statements of an unpunctuated caption track's cues (automatic captions, a speech
 * recogniser's utterances; issue 39 §2, rounds 9, 11 and 12: a lecture gave no item): a cue is
 * a phrase of speech. Fillers at a cue's ends and between its clauses are dropped, the
 * teacher's questions are dropped, a cue that continues the clause before ("into small
 * soluble molecules …", "which kills …") joins it, and each clause left is capitalised and
 * closed with a full stop. Whether a statement can stand alone is still decided by
 * `rejectReason` (a dangling "it", talk to the class, too short).
 */
export function spokenSentences(cues: readonly string[]): string[] {
  const clauses: { text: string; question: boolean }[] = [];
  for (const cue of cues) {
    const parts = cue.replace(/\s+/g, ' ').trim().split(INNER_BREAK);
    parts.forEach((part, i) => {
      const text = withoutLeadingFillers(part).replace(TRAILING_FILLERS, '').trim();
      if (!text) return;
      const question = SPOKEN_QUESTION.test(text);
      const last = clauses[clauses.length - 1];
      // (only a cue's first part continues the last clause: a filler inside the cue ended it)
      if (i === 0 && last && !last.question && part.trim() === text && CONTINUES.test(text)) last.text = `${last.text} ${text}`;
      else clauses.push({ text, question });
    });
  }
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
  // an adjective and its preposition first: the answer to the teacher's question, with no subject ("parallel to the direction
  // the wave is travelling"); a thing that wants, likes or tries: the teacher's manner of speaking, not a fact ("other atoms
  // want to look like the noble gas"; round 20 and 21)
  if ((tags[0]!.pos === 'ADJ' && tags[1]?.pos === 'ADP') || /\b(?:wants?|wanted|likes?|loves?|tries|try|trying) to\b/i.test(clause)) return false;
  // the same two words twice: speech repeating itself ("zero degree longitude zero degree")
  const words = clause.toLowerCase().split(/\s+/);
  const pairs = words.slice(1).map((w, i) => [words[i]!, w]).filter((p) => p.every((w) => !FUNCTION_WORD.test(w))).map((p) => p.join(' '));
  if (new Set(pairs).size < pairs.length) return false;
  // two finite verbs with no joining word between them: two sentences run together; and a joining word after the
  // first verb needs a verb after it ("sand has a small specific heat capacity so with a little heat" is cut off)
  const finite = (i: number) => tags[i]!.pos === 'AUX' || (tags[i]!.pos === 'VERB' && /(?:s|ed)$/i.test(tags[i]!.text) && tags[i - 1]?.pos !== 'AUX');
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

/**
 * "The skin also removes …" → "The skin removes …": an "also" points at the sentence before,
 * which the candidate does not see (issue 39 §2, round 12). Dropping it leaves the statement as
 * true as it was. "Not only … but also …" keeps it.
 */
export function withoutBackAlso(text: string): string {
  if (/\bnot\s+only\b/i.test(text)) return text;
  return text.replace(/(?<=\S)\s+also(?=\s+\p{L})/iu, '');
}

/** Endings of adjectives ("chemical", "organic", "active", "porous"); not "-al" alone ("animal cell"). */
const ADJECTIVE_ENDING = /(?:ical|ic|ive|ous|ful|less|able|ible)$/i;

/**
 * "Each gland is …" after "Sweat glands are …": a subject that is the head noun alone of a
 * compound the passage named before (a noun before it: "sweat gland") takes that noun back
 * ("Each sweat gland is …"; issue 39 §2, round 12). Null when there is no such subject, or
 * when the passage named more than one kind (which one is meant is not known).
 */
export function namedKind(text: string, before: readonly string[]): string | null {
  const m = /^(The|Each|Every|This|That)\s+(\p{Ll}{3,})\b/u.exec(text);
  if (!m || !before.length) return null;
  const head = m[2]!;
  const tags = tagSentence(text.charAt(0).toLowerCase() + text.slice(1));
  if (tags[2] && /^(?:NOUN|PROPN)$/.test(tags[2].pos)) return null;
  const kinds = new Set<string>();
  const re = new RegExp(`\\b(\\p{L}+)\\s+${head}(?:s|es)?\\b`, 'giu');
  for (const earlier of before) {
    const etags = tagSentence(earlier.charAt(0).toLowerCase() + earlier.slice(1));
    for (const k of earlier.matchAll(re)) {
      const at = etags.find((t) => t.start === k.index);
      // (a noun, not an adjective the tagger read as one: "chemical digestion" is a kind of digestion, not its name; round 18)
      if (at && at.pos === 'NOUN' && !/^(?:each|every|the|this|that)$/i.test(at.text) && !ADJECTIVE_ENDING.test(at.text)) kinds.add(at.text.toLowerCase());
    }
  }
  if (kinds.size !== 1) return null;
  return `${m[1]} ${[...kinds][0]} ${text.slice(m[1]!.length + 1)}`;
}

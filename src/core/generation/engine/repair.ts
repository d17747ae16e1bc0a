/**
 * Repairs of a sentence that cannot stand alone as it is written (issue 39 §2, round 6: slides and
 * lecture captions gave no item at all once fragments and subject-less statements were refused).
 * Each repair returns a candidate statement or null; the caller keeps a candidate only when it
 * passes the same rules as any other sentence (sentences.ts, rejectReason), so a repair never
 * lets through what a sentence of the material would not. docs/decisions.md, "Round 6: repair
 * slide fragments and spoken sentences before refusing them".
 */
import { tagSentence } from '../text/pos.js';
import { AMBIGUOUS_PAST, bareDescriptionLink, hasClause, isNounPhrase, RELATIVE_WORD } from './noun-phrases.js';

export { AMBIGUOUS_PAST, isNounPhrase };

/** A heading that names no topic (a slide of the deck's apparatus, not of its content). */
const GENERIC_HEADING = /^(?:summary|introduction|overview|conclusion|revision|review|recap|questions?|exercises?|examples?|key (?:points?|terms|facts)|notes?|(?:behaviou?ral |lesson )?objectives?|outline|contents?|references|definitions?|terms|learning outcomes?|lesson \d+|topic|previous knowledge|entry behaviou?r|evaluation|class ?work|assignment|solution|worked examples?|lesson (?:presentation|notes?|plan))$/i;
/** "Functions of INEC", "Roles of the Senate": what the bullets under it say is done by the thing after "of". */
const AGENT_HEADING = /^(?:the\s+)?(?:(?:main|key|major|other)\s+)?(?:functions?|roles?|duties|powers|responsibilities|features|characteristics|achievements|aims|objectives|uses|work|tasks|activities|importance|significance|(?:dis)?advantages|benefits|(?:de)?merits|purposes)\s+of\s+(.+)$/i;
/** Past forms that are never participles ("Came into force …"): a bullet opening with one is a verb phrase. */
const PAST_ONLY = /^(?:came|became|broke|began|went|rose|fell|grew|gave|took|ran|drew|wrote|chose|knew|saw|spoke|overthrew|undertook|withdrew|forbade)$/i;
/**
 * Labels before a colon that are not defined terms ("Example: …", "Note: …", "Advantage: …"),
 * and a lesson's housekeeping lines on a title slide ("Topic: …", "Class: SS2", "Duration: …",
 * "Reading: …", "Bring: …", "Homework: …"; round 7), and a slide's "Features: …", "Uses: …",
 * "Types: …" lines, which list what the title's subject has (round 9: "Features are layered …").
 */
const LABEL_WORD = /^(?:examples?|e\.g|i\.e|note|nb|advantages?|disadvantages?|merits?|demerits?|questions?|answers?|summary|tip|rules?|hint|trick|remember|key|definition|meaning|importance|result|effect|cause|reason|step \d+|stage \d+|time|date|age|year|period|venue|source|formula|unit|symbol|topic|sub-?topic|title|subject|theme|class|level|teacher|lesson|term|week|duration|aims?|objectives?|keywords?|references?|outline|overview|contents|instructional materials?|materials?|(?:further )?reading|bring|homework|assignments?|resources?|textbooks?|equipment|requirements?|prerequisites?|features?|characteristics?|properties|uses?|types?|kinds?|functions?|composition|structure|membership|powers?|duties|roles?|qualifications?|tenure|members?|head|headquarters|appointment|organi[sz]ation|prevention|treatment|control|symptoms?|signs?|cure|diagnosis|remed(?:y|ies)|solutions?|effects?|consequences?)$/i;

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
  // (after a table's bar, a bracket or a closing quote a capital starts a cell or a sentence, not a name: round 26; and after
  // a list's label, "(b) Dividend yield = …": round 38)
  return !new RegExp(`[^\\s.!?:;•*\\-–—|()"“”'‘’]\\s+${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(prose(material));
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
      // (a Markdown heading's "#" and a bracketed part, "### 4.2 PERMANENT HARDNESS", "(SOFTENING OF WATER)", are no words; round 32)
      const ws = l.replace(/^[\s•*#-]+/, '').split(/[\s,:?()]+/).filter(Boolean);
      // (and "&" joins a title's words: "Semi-skilled & Unskilled Labour"; round 38's development run)
      return !ws.length || !ws.every((w) => /^[\p{Lu}\d]/u.test(w) || /^(?:of|and|or|the|a|an|in|on|for|to|at|by|with|&)$/.test(w));
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
 * of X" → X, "The X, 1922" → "The X of 1922". A section number before a heading in capitals is
 * dropped and its words take lower case but for the material's acronyms ("7. IMPORTANCE OF TRIAL
 * BALANCE" → "the trial balance"; round 26). `material` is the whole material's text (for capitals).
 */
export function headingTopic(heading: string, material: string): HeadingTopic | null {
  // (another name for the kind in brackets is dropped: "FUNCTIONS (IMPORTANCE) OF THE STOCK EXCHANGE"; round 38)
  let h = heading.replace(/^\s*#{1,6}\s+/, '').replace(SECTION_NUMBER, '').trim().replace(/^((?:the\s+)?(?:main\s+)?\p{L}+)\s*\([\p{L} ]{3,30}\)(?=\s+of\s)/iu, '$1');
  // (a heading in capitals, "IMPORTANCE OF BANK RECONCILIATION STATEMENT", takes lower case but for the material's acronyms)
  if (!/\p{Ll}/u.test(h)) h = h.replace(/\p{L}+/gu, (w) => (w.length > 1 && new RegExp(`\\b${w}\\b`, 'u').test(prose(material)) ? w : w.toLowerCase()));
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
  return { phrase: withMaterialArticle(phrase, material), plural: isPlural(phrase), whole };
}

/**
 * What a list heading's kind is of, as a stem may name it ("warehousing in Nigeria" of "PROBLEMS
 * OF WAREHOUSING IN NIGERIA", "the trial balance"): headingTopic's reading of "Features of X", with
 * the names the material capitalises inside its sentences capitalised again; null when X is no
 * short noun phrase.
 */
export function listSubject(subject: string, material: string): string | null {
  // (a heading in capitals: every word lower case but the acronyms the material's sentences use, "NCS"; names are capitalised again below)
  const sentences = prose(material).split('\n').filter((l) => (l.match(/\b\p{Ll}+\b/gu)?.length ?? 0) >= 3);
  const acronym = (w: string) => w.length <= 5 && !/^(?:IN|OF|ON|AT|BY|TO|FOR|AND|THE|A|AN)$/.test(w) && sentences.some((l) => new RegExp(`\\b${w}\\b`, 'u').test(l));
  // (a heading in title case, "Features of Mixed Economy": a word the material writes in lower case anywhere is lowered; round 46)
  const titled = /\p{Ll}/u.test(subject) && subject.split(/\s+/).every((w) => w.length < 3 || /^\p{Lu}/u.test(w));
  const lowered = (w: string) => new RegExp(`(?<!\\p{L})${w.toLowerCase()}(?!\\p{L})`, 'u').test(material);
  const cased = titled
    ? subject.replace(/\p{L}+/gu, (w) => (lowered(w) ? w.toLowerCase() : w))
    : /\p{Ll}/u.test(subject)
      ? subject
      : subject.replace(/\p{L}+/gu, (w) => (acronym(w) ? w : w.toLowerCase()));
  const t = headingTopic(`Features of ${cased}`, material);
  if (!t) return null;
  // (the article headingTopic adds for a counted thing stays off: "causes of depreciation"; the heading's own stays)
  const phrase = /^(?:the|a|an)\s/i.test(cased) ? t.phrase : t.phrase.replace(/^(?:the|a|an)\s+/i, '');
  // a name the material writes only with its capital ("Nigeria")
  return phrase.replace(/\b\p{Ll}[\p{Ll}'’-]{2,}/gu, (w) => (commonWord(w, material) || new RegExp(`(?<![\\p{L}])${w}(?![\\p{L}])`, 'u').test(prose(material)) ? w : w.charAt(0).toUpperCase() + w.slice(1)));
}

/** A section number before a heading in capitals ("7. IMPORTANCE OF …", "2.1 TYPES OF …"). */
export const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2})*\.?\s+(?=[\p{Lu}\d\s,'’()-]+$)/u;

/**
 * A common noun phrase with "the" where the material writes an article before it more often than
 * not, or writes "a"/"an" before it at all (a thing that is counted: "bank reconciliation
 * statement" → "the bank reconciliation statement"; round 26: "It helps to detect errors" under "Importance of
 * bank reconciliation statement" became "Bank reconciliation statement helps …"); otherwise as it is.
 */
function withMaterialArticle(phrase: string, material: string): string {
  if (!/^\p{Ll}/u.test(phrase) || /^(?:a|an|the|some|any|each|every)\s/i.test(phrase)) return phrase;
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (in the material's prose: its headings, "BANK RECONCILIATION STATEMENT", carry no article)
  const text = prose(material);
  const all = text.match(new RegExp(`\\b${escaped}\\b`, 'giu'))?.length ?? 0;
  const articled = text.match(new RegExp(`\\b(?:a|an|the)\\s+${escaped}\\b`, 'giu'))?.length ?? 0;
  // (one "a" or "an" before it shows a thing that is counted, which needs its article as a subject: "A bank reconciliation statement is …")
  const counted = new RegExp(`\\ban?\\s+${escaped}\\b`, 'iu').test(text);
  return all > 0 && (articled * 2 > all || counted) ? `the ${phrase}` : phrase;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string, material: string) => (/^\p{Lu}\p{Ll}+\b/u.test(s) && commonWord(/^\p{L}+/u.exec(s)![0], material) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/**
 * A "Term: description" bullet as a statement ("Judicial precedents: decisions of the courts." →
 * "Judicial precedents are decisions of the courts."), or null: the term a noun phrase of at most
 * four words that is no label ("Example:", "Note:", "Advantage:"), the description a noun phrase
 * (no verb of its own before its relative clause — "place where goods are stored" is one — no
 * second part after ";"; a word before "of" is its noun, "act of storing goods").
 */
export function definitionBullet(bullet: string, material: string): string | null {
  const m = /^([\p{Lu}][\p{L}'’ -]{1,40}?)\s*:\s+(.+?)([.!]?)$/u.exec(bullet.trim());
  if (!m) return null;
  const [, term, desc] = m as unknown as [string, string, string];
  // (symbols, arrows and "&" are a formula or a note's shorthand, "ρ ≈ 1.1 × 10⁻⁶ Ωm → heating elements", "Group O: no
  // antigens, anti-A & anti-B antibodies": no description)
  if (LABEL_WORD.test(term.trim()) || term.split(/\s+/).length > 4 || /[;:]/.test(desc) || /[→←⇒=≈<>×÷±&+]|\p{Script=Greek}/u.test(desc)) return null;
  const termTags = tagSentence(term.toLowerCase());
  // (a term is a noun phrase: not a verb's, nor a preposition's phrase, "During war: trading … with the enemy"; round 17 item 9)
  if (!/^(?:NOUN|PROPN)$/.test(termTags[termTags.length - 1]?.pos ?? '') || /^(?:VERB|ADP|SCONJ)$/.test(termTags[0]!.pos) || /ed$/i.test(termTags[0]!.text)) return null;
  // (a description in capitals is a name or a list of names, "Bicameral Parliament: Senate and House of …": no definition)
  if (!/^\p{Ll}/u.test(desc)) return null;
  const descTags = tagSentence(desc.charAt(0).toLowerCase() + desc.slice(1));
  // (a word before "of" is a noun, whatever the tagger says: "act of storing goods …", "process of …"; round 29)
  if (descTags[0]?.pos === 'VERB' && /^of$/i.test(descTags[1]?.text ?? '')) descTags[0] = { ...descTags[0], pos: 'NOUN' };
  // (a relative clause has its own verb and pronoun: "place where goods are stored until they are needed"; round 29)
  const relative = descTags.findIndex((t) => RELATIVE_WORD.test(t.text));
  const head = relative > 0 ? descTags.slice(0, relative) : descTags;
  if (descTags.length < 2 || hasClause(descTags) || head.some((t) => t.pos === 'AUX' || t.pos === 'PRON' || (t.pos === 'VERB' && /[^s]s$/i.test(t.text)))) return null;
  // (a noun and its verb make a note's clause, "Adv: members understand each other's work"; a term in shorthand is none; round 31)
  // (a participle after its noun is no verb: "payments made by citizens", "charges levied by …")
  if (head.some((t, i) => i > 0 && t.pos === 'VERB' && !/(?:ed|en|ing)$/i.test(t.text) && !AMBIGUOUS_PAST.test(t.text) && /^(?:NOUN|PROPN)$/.test(head[i - 1]!.pos)) || new RegExp(String.raw`^(?:${SHORTHAND})$`, 'i').test(term.trim())) return null;
  if (/^(?:VERB|ADV|ADP|SCONJ|CCONJ|AUX)$/.test(descTags[0]!.pos) && !/ed$/i.test(descTags[0]!.text)) return null;
  if (descTags[0]!.pos === 'VERB' && descTags[1]?.pos !== 'NOUN') return null;
  // (brackets inside a list's items do not hide it: "current (cheques), savings (interest), fixed deposit")
  const unbracketed = desc.replace(/\s*\([^)]*\)/g, '');
  if (isBareList(descTags) || isBareList(tagSentence(unbracketed.charAt(0).toLowerCase() + unbracketed.slice(1)))) return null;
  const plural = isPlural(term.trim());
  // a slide drops the article a sentence needs: "Barter: direct exchange of goods …" → "Barter is the direct exchange of …"
  // (not before a verb's -ing form with its object, "heating coal strongly in …": round 54's "is the heating coal")
  const gerund = /\p{L}{3}ing$/iu.test(descTags[0]!.text) && descTags[1]?.pos === 'NOUN' && (!descTags[2] || (/^(?:ADV|ADP)$/.test(descTags[2].pos) && !/^of$/i.test(descTags[2].text)));
  const article = !plural && !gerund && /^(?:NOUN|ADJ)$/.test(descTags[0]!.pos) && !DETERMINER_WORD.test(descTags[0]!.text) && !isPlural(descTags.find((t) => t.pos === 'NOUN')?.text ?? '') ? 'the ' : '';
  // "any" before the description's noun says the term is one of a kind, so it takes "a": "Drug: any substance which …" → "A
  // drug is any substance which …" (round 36: "Drug is any substance …"); not a process or a substance ("Advertising: any
  // paid form …"), nor a name (the material writes it in lower case after an article: "a drug", "the drug")
  const shown = materialCase(term.trim(), material);
  const escaped = shown.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const one = !plural && /^any\s+\p{Ll}+/u.test(desc) && !/\s/.test(shown) && !NO_ARTICLE_HEAD.test(shown) && new RegExp(`\\b(?:[Aa]n?|[Tt]he)\\s+${escaped}\\b`, 'u').test(material);
  // a person in a role is one of many: "Actuary: expert who calculates risks" → "An actuary is an expert who …" (round 35's
  // "Actuary is the expert …"); not a title the material writes only with its capital ("Waziri: prime minister")
  const headAt = descTags.findIndex((t) => t.pos === 'NOUN');
  const role = !plural && !/\s/.test(shown) && headAt >= 0 && headAt <= 1 && PERSON_HEAD.test(descTags[headAt]!.text) && new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'u').test(material);
  const subject = one || role ? `${indefinite(shown)} ${shown.toLowerCase()}` : shown;
  // (one thing described by plural things "refers to" them: "Farm machinery: machines that supply power" is not "… is machines"; round 45)
  const many = !plural && !one && !role && !article && !DETERMINER_WORD.test(descTags[0]!.text) && isPlural(descTags.find((t) => t.pos === 'NOUN')?.text ?? '');
  return capitalise(`${subject} ${plural ? 'are' : many ? 'refers to' : 'is'} ${role && article ? `${indefinite(desc)} ` : article}${lowerFirst(desc, material)}.`);
}

/** Heads of a description that name a person or a body in a role (`definitionBullet`: the term so described takes "a"/"an"). */
const PERSON_HEAD = /^(?:expert|person|specialist|professional|individual|officer|official|agent|member|worker|employee|employer|dealer|trader|merchant|buyer|seller|owner|manager|producer|consumer|middleman|intermediary|company|firm|organisation|organization|institution)$/i;

/** "a" or "an" before `word` by its sound ("an expert", "a unit", "a European"; not "an use": round 37's development run). */
export const indefinite = (word: string): 'a' | 'an' => (/^[aeiou]/i.test(word) && !/^(?:uni|us[aeiu]|ut[eiu]|eu|one\b)/i.test(word) ? 'an' : 'a');

/** Words that already determine a noun phrase ("any", "anything", "each"): no article goes before them. */
const DETERMINER_WORD = /^(?:a|an|the|any|anything|something|everything|nothing|one|all|every|each|its|their|his|her|our|this|that|these|those|some|many|much|more|most|no)$/i;

/** A note's shorthand a statement must not carry ("govt", "qty", "thru"). */
export const SHORTHAND = String.raw`govt|yrs?|etc|e\.g|i\.e|approx|esp|incl|conc|temp|vol|wt|av|max|min|no|std|stds|dept|thru|tho|wrt|qty|betw|adv|disadv|rxn|eqn|soln|info|amt|bcos|coz|int['’]?l|natl|devt|mgt`;

/** A head noun that takes no article before it in a definition: a process, a state, a quality, a substance ("Photosynthesis is …", "Fructose is …"). */
const NO_ARTICLE_HEAD = /(?:tion|sion|ment|ism|ity|sis|ance|ence|ing|ure|ogy|cy|ics|one|ose|ine|ase|gen|in)$/i;

/**
 * A glossary line, "Term – A description" or "Term (other name) – The description", as the
 * definition it stands for ("Sperm duct (vas deferens) – A muscular tube that carries sperm …" →
 * "The sperm duct (vas deferens) is a muscular tube that carries sperm …"; issue 39 §2, round 23:
 * the line was kept with its dash, and a run-in label's stripping left "A bag of skin that …"
 * with no term). The term is a noun phrase of at most four words that is no label; "the" goes
 * before a singular thing, not before a name or a process or substance. A plural term may take a
 * description with no article that opens with a plural noun ("Standing orders – instructions given
 * by the customer to the bank …" → "Standing orders are instructions given …"; round 26: such
 * lines were refused as notes). The article may be written small ("Electrolyte – a compound which
 * …"; round 28), and a description with an article must be a noun phrase, not a note's sentence
 * ("Concentration of the ions – a more concentrated ion may be discharged …"). Null otherwise.
 */
export function dashDefinition(line: string, material: string): string | null {
  // (the article may be written small: "Electrolyte – a compound which …"; round 28)
  const m = /^([\p{Lu}][\p{L}'’ -]{1,40}?)(\s*\([^()]{1,40}\))?\s+[–—-]\s+(?:([Aa]|[Aa]n|[Tt]he)\s+)?(\p{Ll}.+?)[.!]?$/u.exec(line.trim());
  if (!m) return null;
  const term = m[1]!.trim();
  // (nor a lead-in to what follows, "…:", nor a rule of "the more …, the more …": "Cations – the lower the metal in the series,
  // the more easily its ion is discharged:"; round 39)
  if (LABEL_WORD.test(term) || term.split(/\s+/).length > 4 || /\s[–—-]\s/.test(m[4]!) || /:\s*$/.test(line) || /^(?:more|less|\p{L}+er)\s+the\b/iu.test(m[4]!)) return null;
  // A description is a noun phrase: no verb of its own before its relative clause ("a more concentrated ion may be
  // discharged …" is a note's sentence, not what the term is).
  if (m[3] && !isNounPhrase(m[4]!)) return null;
  // Two things joined by "and" and said to be one ("Safety and security – the risk of accidents …", a factor in a list)
  // name a heading, not a term.
  if (/\sand\s/i.test(term) && !isPlural(term)) return null;
  const tags = tagSentence(term.toLowerCase());
  // (a participle before its noun is the term's adjective: "Crossed cheques", "Dishonoured cheques"; "Carried by wind" is no term)
  const participle = tags[0]!.pos === 'VERB' && /(?:ed|en)$/i.test(tags[0]!.text) && tags[1]?.pos === 'NOUN';
  if (!/^(?:NOUN|PROPN)$/.test(tags[tags.length - 1]?.pos ?? '') || (/^(?:VERB|ADP|SCONJ|ADV)$/.test(tags[0]!.pos) && !participle)) return null;
  const shown = materialCase(term, material);
  // (a name keeps its capital and takes neither an article nor "are": "Lagos is …")
  const named = /^\p{Lu}/u.test(shown);
  const plural = !named && isPlural(term);
  if (plural && (!m[3] || /^an?$/i.test(m[3]))) {
    // (a plural term described as one of them, "Dishonoured cheques – a cheque received …", is said of one: "A dishonoured
    // cheque is a cheque received …"; round 26)
    const desc = m[3] ? `${m[3].toLowerCase()} ${m[4]!}` : m[4]!;
    const head = term.split(/\s+/).pop()!;
    const one = [head.slice(0, -1), head.slice(0, -2)].find((w) => new RegExp(`^an?\\s+(?:[\\p{L}-]+\\s+){0,2}${w}\\b`, 'iu').test(desc));
    if (one) {
      const singular = `${shown.slice(0, shown.length - head.length)}${one}`;
      return `${/^[aeiou]/i.test(singular) ? 'An' : 'A'} ${singular}${m[2] ?? ''} is ${desc}.`;
    }
  }
  if (!m[3]) {
    // (no article: a noun phrase, "cheques issued by …", "exchange of goods …"; "Ovary – makes eggs …" is a note)
    // (a noun phrase, not a clause: "Banker to banks – banks keep reserves with CBN" has its verb straight after the noun)
    // (one thing described by plural things "refers to" them, by one thing "is the" one; round 45)
    // (a term of two words or more written with its capital at a line's start is no name: "Direct materials – …")
    // (an example after it is no part of the definition: "…, e.g. machine operators, carpenters")
    const desc = m[4]!.replace(/,?\s*\(?\be\.\s?g\.?[\s,].*$/i, '');
    const link = bareDescriptionLink(desc, plural || (/\s/.test(term) && isPlural(term)), isPlural, (w) => PERSON_HEAD.test(w));
    return link ? capitalise(`${shown}${m[2] ?? ''} ${link} ${desc}.`) : null;
  }
  const article = !named && !NO_ARTICLE_HEAD.test(term.split(/\s+/).pop()!) ? 'the ' : '';
  return capitalise(`${article}${shown}${m[2] ?? ''} ${plural ? 'are' : 'is'} ${m[3]!.toLowerCase()} ${m[4]!}.`);
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
 * The topic a bullet's pronouns refer to: the label of the bullet the sentence at `at` is in, the
 * last before it when a paragraph holds several ("- Earthen ponds: … - Concrete ponds: … They are
 * easy to drain": concrete ponds; rounds 43 and 54), else the heading's `topic`. Null when the
 * label names no topic: a pronoun is then left to be refused.
 */
export function bulletTopic(para: string, topic: HeadingTopic | null, material: string, at = -1): HeadingTopic | null {
  const later = at > 0 ? [...para.slice(0, at).matchAll(/\s[-*•]\s+([\p{L}][\p{L} '’-]{1,40}?)\s*:\s/gu)].pop()?.[1] : undefined;
  const label = later ?? /^\s*(?:[-*•]\s+)?([\p{L}][\p{L} '’-]{1,40}?)\s*:\s/u.exec(para)?.[1];
  return label ? headingTopic(label, material) : topic;
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

/**
 * A heading the PDF ran into its first sentence ("Outsourcing Outsourcing is …",
 * "Trial balance errors This is …") is cut off: the sentence proper starts at a repeated
 * word or at a capitalised opener following a lower-case word. A law's name before its
 * statement says whose statement it is: "… Law: The …" → "… Law states that the …".
 */
export function dropGluedHeading(sentence: string): string {
  // (a law's name as a label before its statement: "The Periodic Law (modern): The properties of elements are …" → "The
  // Periodic Law states that the properties of elements are …"; round 40)
  const law = /^((?:[Tt]he\s+)?[\p{L}’'-]+(?:\s+[\p{L}’'-]+){0,4}?\s+(?:[Ll]aw|[Pp]rinciple|[Rr]ule|[Tt]heorem|[Pp]ostulate|[Tt]heory))\s*(?:\([^)]{1,30}\))?\s*:\s+(\p{Lu}[\p{Ll} ].+)$/u.exec(sentence);
  if (law) return `${law[1]} states that ${law[2]!.charAt(0).toLowerCase()}${law[2]!.slice(1)}`;
  const repeat = /^(\p{Lu}[\p{L}\s-]{0,50}?)\s+(?=\1\b)/u.exec(sentence);
  if (repeat) return sentence.slice(repeat[0].length);
  const glued = /^(?:\S+\s+){1,8}?(?<=[\p{Ll}\d)]\s)(?=(?:The|This|These|It|In|An?|Its|There|They|We|Our|When|If)\s)/u.exec(sentence);
  return glued ? sentence.slice(glued[0].length) : sentence;
}

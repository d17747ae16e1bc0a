/**
 * Lists under a heading that names their kind ("FUNCTIONS OF MONEY", "2. CAUSES OF
 * DEPRECIATION", "WAREHOUSE DOCUMENTS"), read from slides and lesson notes, and the
 * odd-one-out MCQ a WAEC/NECO paper makes of them: "Which of the following is NOT a cause of
 * depreciation?" — three items of the list and, as the key, an item of a list of another kind
 * in the same material (docs/decisions.md, "Lists under a heading make odd-one-out items").
 * Pure: no I/O.
 */
import type { Passage } from '../passage.js';
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { contentStems } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shortId, shuffled } from '../text/seed.js';
import { explainFrom, joinCitations, mdEscape } from './markdown.js';
import { headingTopic, indefinite, listSubject, SECTION_NUMBER, SHORTHAND } from './repair.js';

/**
 * Kinds of list a syllabus asks about, grouped by meaning: an odd one out comes from another
 * group ("Bad roads", a problem, is not a function; an advantage might be one).
 */
const KIND_GROUPS: readonly (readonly string[])[] = [
  ['functions', 'importance', 'roles', 'uses', 'advantages', 'benefits', 'merits', 'duties', 'powers'],
  ['disadvantages', 'problems', 'demerits', 'challenges', 'limitations', 'dangers'],
  ['causes', 'factors'],
  ['effects', 'consequences'],
  ['features', 'characteristics', 'qualities', 'properties'],
  ['types', 'kinds', 'classes', 'forms'],
  ['documents'],
  ['methods', 'ways', 'measures'],
  ['sources'],
];
const KINDS = KIND_GROUPS.flat();
const KIND = `(?:main\\s+|major\\s+)?(${KINDS.join('|')})(?:\\s*\\/\\s*\\p{L}+)?`;
/** "Causes of depreciation", "FUNCTIONS / IMPORTANCE (2)", "Advantages": group 1 the kind, group 2 what it is of. */
const KIND_OF = new RegExp(`^${KIND}(?:\\s+of\\s+(.+))?$`, 'iu');
/** "WAREHOUSE DOCUMENTS", "Money functions": group 1 the subject, group 2 the kind. */
const SUBJECT_KIND = new RegExp(`^(\\p{L}[\\p{L} ]{2,30}?)\\s+(${KINDS.join('|')})$`, 'iu');
/** Words before a kind that say which of a subject's lists this is, not what it is of ("OTHER TYPES"). */
const NOT_A_SUBJECT = /^(?:other|more|main|major|some|the|further|three|four|five|two|key|human|natural|physical|general|basic|important|common|special|additional|possible|social|economic|political)$/i;

/** A list of the material: its kind ("causes"), what it is of, how a stem names one of it and all of it, its items and where each is. */
export interface HeadingList {
  kind: string;
  subject: string;
  /** "a cause of depreciation", "a warehouse document" */
  one: string;
  /** "causes of depreciation", "warehouse documents" */
  all: string;
  /** whether the heading named the kind alone ("Disadvantages / Problems"), so that the subject is the last one a heading named */
  inherited?: boolean;
  /** each item's name, where it is, and what the material says of it after the name, when it says it (`itemDescription`) */
  items: { text: string; citation: string; description?: string }[];
}

/**
 * Whether one kind is a cause and the other an effect: the same thing is often both (a falling naira feeds inflation and
 * follows it), so neither list gives the other its odd one out (round 33's development packet).
 */
const causeAndEffect = (a: string, b: string) => new Set([groupOf(a), groupOf(b)]).size === 2 && [a, b].every((k) => groupOf(k) === groupOf('causes') || groupOf(k) === groupOf('effects'));

/** The group index of a kind. */
const groupOf = (kind: string) => KIND_GROUPS.findIndex((g) => g.includes(kind));

/** "causes" → "cause", "properties" → "property"; "importance" is said as a function. */
function singular(kind: string): string {
  return kind === 'importance' ? 'function' : kind.endsWith('ies') ? `${kind.slice(0, -3)}y` : /(?:ss|x|ch|sh)es$/.test(kind) ? kind.slice(0, -2) : kind.replace(/s$/, '');
}
/** `phrase` with "a"/"an" by its sound ("an effect", "a use": repair.ts, `indefinite`). */
const withArticle = (phrase: string) => `${indefinite(phrase)} ${phrase}`;

/** How a stem names one of a list and all of it, from its kind and subject ("of" form) or its subject before the kind. */
function naming(kind: string, subject: string, before: boolean, doing = false): { one: string; all: string } {
  const plural = kind === 'importance' ? 'functions' : kind;
  // "a measure for correcting BOP deficit"
  if (doing) return { one: `${withArticle(singular(kind))} for ${subject}`, all: `${plural} for ${subject}` };
  if (before) {
    const s = subject.replace(/^(?:the|a|an)\s+/i, '');
    return { one: withArticle(`${s} ${singular(kind)}`), all: `${s} ${plural}` };
  }
  // "a type of warehouse", not "a type of warehouses"
  const one = groupOf(kind) === groupOf('types') ? subject.replace(/(?<=[^s])s$/, '') : subject;
  return { one: `${withArticle(singular(kind))} of ${one}`, all: `${plural} of ${subject}` };
}

/**
 * A subject headingTopic does not take ("calculating depreciation"): a short phrase of words, in lower case when the heading
 * is in capitals, but for a name the material writes only with its capital ("measuring national income in Nigeria"; round 37).
 */
function plainSubject(subject: string, material: string): string | null {
  if (subject.split(/\s+/).length > 5 || !/^[\p{L} '’-]+$/u.test(subject) || /\b(?:and|or)\b/i.test(subject)) return null;
  if (/\p{Ll}/u.test(subject)) return subject;
  const named = (w: string) => new RegExp(`(?<!\\p{L})${w.charAt(0).toUpperCase()}${w.slice(1)}(?!\\p{L})`, 'u').test(material) && !new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'u').test(material);
  return subject.toLowerCase().replace(/\p{L}{3,}/gu, (w) => (named(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w));
}

/** A slide's number written into its title ("Slide 9: ", "SLIDE 12 – "). */
const SLIDE_NUMBER = /^slide\s+\d{1,3}\s*[:.–-]\s*/i;

/** A heading line's kind and subject (null subject: the kind alone), or null when the line names no list. */
function readHeading(line: string, material: string): { kind: string; subject: string | null; before: boolean; doing?: boolean } | null {
  const h = line
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/\*\*/g, '')
    // (a deck whose titles carry their number: "Slide 9: Features of Capitalism"; round 46)
    .replace(SLIDE_NUMBER, '')
    .replace(SECTION_NUMBER, '')
    .replace(/\s*\(\d\)\s*$/, '')
    // (another name for the kind in brackets: "PROBLEMS (DIFFICULTIES) OF MEASURING …", "USES (IMPORTANCE) OF …"; round 37)
    .replace(new RegExp(`^(${KIND})\\s*\\([\\p{L} ]{3,30}\\)(?=\\s+of\\s)`, 'iu'), '$1')
    .replace(/[:.]\s*$/, '')
    .trim();
  if (!h || h.split(/\s+/).length > 9) return null;
  const of = KIND_OF.exec(h);
  if (of) {
    const subject = of[2] ? listSubject(of[2].trim(), material) ?? plainSubject(of[2].trim(), material) : null;
    return of[2] && !subject ? null : { kind: of[1]!.toLowerCase(), subject, before: false };
  }
  // "CORRECTING BOP DEFICIT", "Controlling malaria": what is listed under it are measures for doing it
  const doing = /^(correcting|controlling|preventing|reducing|improving|solving|checking|curbing|promoting|increasing)\s+(\p{L}[\p{L} '’-]{2,40})$/iu.exec(h);
  if (doing) {
    const object = listSubject(doing[2]!, material) ?? plainSubject(doing[2]!, material);
    return object ? { kind: 'measures', subject: `${doing[1]!.toLowerCase()} ${object.replace(/^(?:the|a|an)\s+/i, '')}`, before: false, doing: true } : null;
  }
  const sk = SUBJECT_KIND.exec(h);
  if (!sk || NOT_A_SUBJECT.test(sk[1]!.trim().split(/\s+/)[0]!)) return null;
  // ("WAREHOUSE DOCUMENTS": a noun before the kind; "HUMAN CAUSES" says which causes, not of what)
  const words = sk[1]!.trim().split(/\s+/);
  if (!/^(?:NOUN|PROPN)$/.test(tagSentence(`the ${sk[1]!.trim().toLowerCase()} ${sk[2]!.toLowerCase()} are here.`)[words.length]?.pos ?? '')) return null;
  const subject = listSubject(sk[1]!.trim(), material);
  return subject ? { kind: sk[2]!.toLowerCase(), subject, before: true } : null;
}

/** A paragraph that is a heading: one short line without a closing stop, in capitals or all bold ("3. REASONS FOR …", "**Disadvantages**"). */
function isHeadingLine(text: string): boolean {
  const t = text.trim();
  return !t.includes('\n') && t.split(/\s+/).length <= 10 && !/[.;:,]$/.test(t) && (!/\p{Ll}/u.test(t) || /^\*\*[^*]+\*\*$/.test(t));
}

/** A list item's marker at the start of a piece: "- ", "• ", "1. ", "(a) ", or a bold name. */
const ITEM_START = /^\s*(?:[-•*]\s+|\(?\d{1,2}[.)]\s+|\(?[a-h]\)\s+|\*\*)/;
/** Where one line of notes holds several items: before " - **…", " - Capital…" or " 2. …". */
const INLINE_ITEM = /\s+(?=-\s+(?:\*\*|\p{Lu}))|\s+(?=\d{1,2}\.\s+[\p{Lu}*])/u;
/** A bold line of its own that ends in a kind ("**Other measures**"): a subheading over items, not an item. */
const SUBHEADING = new RegExp(`^\\*\\*[^*]*\\b(?:${KINDS.join('|')})\\*\\*:?$`, 'i');

/** How a list item is marked: a bold name, a number or letter, or a dash or bullet. */
const markerStyle = (piece: string) => (/^\s*(?:[-•*]\s+)?(?:\(?\d{1,2}[.)]\s+)?\*\*/.test(piece) ? 'bold' : /^\s*\(?(?:\d{1,2}|[a-h])[.)]/.test(piece) ? 'number' : 'dash');

/** Slide and note shorthand that no option may carry (repair.ts's list, and a few more that only names use). */
const SHORTHAND_WORD = new RegExp(String.raw`\b(?:${SHORTHAND}|dev|prodn|intl|org|tech|mgmt|diff)\b`, 'i');

/** Irregular participles that follow their noun ("goods held in bond", "payments made"). */
const PARTICIPLE = /^(?:made|held|kept|paid|sold|built|sent|bought|brought|set|put|cut|laid|left|found|won|lost|taught)$/i;

/**
 * True when `t` reads as a clause, not a name: an auxiliary or a pronoun, or a verb opening it
 * with its complement — a present "-s" form ("Creates time utility"), a participle before a
 * preposition ("Located near transport") or a determiner ("Provides the …"). A participle before
 * a noun ("Bonded warehouses") and a word that is also a noun ("Transfer of ownership", "Wear
 * and tear") are names.
 */
function isClause(t: string): boolean {
  const tags = tagSentence(t.toLowerCase());
  if (tags.some((x) => x.pos === 'AUX' || x.pos === 'PRON')) return true;
  const [first, next] = tags;
  // a noun followed by a verb that is no participle makes a clause ("Big firms dominate"; not "coincidence of wants")
  if (tags.some((x, i) => i > 0 && x.pos === 'VERB' && !/(?:ing|ed|en)$/i.test(x.text) && !PARTICIPLE.test(x.text) && /^(?:NOUN|PROPN)$/.test(tags[i - 1]!.pos))) return true;
  // (a word the tagger took for an adjective between a noun and "the" is the verb: "Heavy machines compact the soil"; round 45)
  if (tags.some((x, i) => i >= 2 && x.pos === 'DET' && tags[i - 1]!.pos === 'ADJ' && /^(?:NOUN|PROPN)$/.test(tags[i - 2]!.pos))) return true;
  // (said after a subject, a verb with its object shows itself: "They controls money supply", "They grant loans")
  const framed = tagSentence(`They ${t.toLowerCase()}.`);
  if (framed[1]?.pos === 'VERB' && framed[2] && !/(?:ed|ing)$/i.test(framed[1].text) && (/[^s]s$/i.test(framed[1].text) || /^(?:DET|ADJ)$/.test(framed[2].pos) || (framed[2].pos === 'NOUN' && /[^s]s$/i.test(framed[2].text)))) return true;
  // a past form that is never a name's adjective ("Brought uniformity to …"), a participle before "to" ("Used to fight inflation")
  if (/^(?:brought|made|gave|took|became|began|led|won|got|saw)$/i.test(first?.text ?? '') || (/ed$/i.test(first?.text ?? '') && /^to$/i.test(next?.text ?? ''))) return true;
  if (first?.pos !== 'VERB' || !next) return false;
  return /[^s]s$/i.test(first.text) || (/ed$/i.test(first.text) && /^(?:ADP|ADV|DET)$/.test(next.pos)) || next.pos === 'DET';
}

/** The name an item gives its point ("Wear and tear" of "**Wear and tear** – physical …"), or null when it is no short noun phrase. */
export function itemName(piece: string): string | null {
  let t = piece.replace(/^\s*(?:[-•*]\s+)?(?:\(?\d{1,2}[.)]\s+|\(?[a-h]\)\s+)?/, '');
  const bold = /^\*\*(.+?)\*\*/.exec(t);
  // (an aside in brackets is no part of the name: "Depletion (production unit) method")
  t = (bold ? bold[1]! : t).replace(/\s*\([^)]*\)/g, '');
  t = bold ? t : t.split(/\s+(?:→|–|—|-|=)\s+|:|\(|;|\.(?:\s|$)/)[0]!;
  t = t.replace(/^\s*\(?\d{1,2}[.)]\s+/, '').replace(/[.:,;]+$/, '').replace(/\s*&\s*/g, ' and ').trim();
  const words = t.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > 5 || !/^\p{L}/u.test(t) || t.replace(/[^\p{L}]/gu, '').length < 3 || /[\d/?!"“”→←↑↓]/u.test(t) || SHORTHAND_WORD.test(t)) return null;
  // (a remark, a quantity or a comparison, not a name: "e.g. …", "One positive effect", "General crossing vs special crossing")
  // (and a purpose, not a name: "For economic planning"; no mark of emphasis inside a name)
  if (/^(?:e\.?g|i\.?e|nb|note|others?|to|for|it|they|one|two|three|four|some|many|most|any|no|all)\b/i.test(t) || t.includes('*') || /\b(?:vs|versus)\b/i.test(t)) return null;
  // (a label is no item: "Result → poor service delivery" sums the list up, "Structure" heads a note, "**Interesting fact:** …" an
  // aside, "Tools: MPR, CRR, OMO" the examples after it)
  if (/^(?:results?|summary|conclusion|examples?|remember|tip|meaning|definition|structure|note|(?:interesting\s+)?facts?|did\s+you\s+know|tools|instruments|types|kinds)$/i.test(t)) return null;
  if (isClause(t)) return null;
  // a name in capitals ("WEAR AND TEAR") is written in sentence case; otherwise as the material writes it
  // (a slide's emphasis in capitals, "Over-dependence on ONE export", is lowered; an acronym, "CBN", stays)
  const cased = /\p{Ll}/u.test(t) ? t.replace(/\b(?:ONE|TWO|THREE|NOT|ALL|ONLY|MORE|LESS|NO|AND|OR|OF|THE|IN|ON|AT|TO|FOR|WITH|BY|VERY|MOST)\b/g, (w) => w.toLowerCase()) : /^\p{Lu}{2,6}$/u.test(t) ? t : t.toLowerCase();
  return cased.charAt(0).toUpperCase() + cased.slice(1);
}

/**
 * What an item says of its name after a dash, a colon or an arrow ("Illiteracy – many producers cannot give correct
 * information about their output." → "many producers cannot give correct information about their output"; "&" as "and"),
 * or null: examples ("– e.g. …", a run of them: "fire, theft, spoilage", "from the sun, bulbs, lanterns"), a reference
 * back ("– it …"), a qualifier or a purpose ("– especially when …", "– for storing …"), notes run together with ";",
 * shorthand ("diff. groups"), a figure or a formula, fewer than five words or more than 30 (round 37's development run).
 */
export function itemDescription(piece: string): string | null {
  const m = /^\s*(?:[-•*]\s+)?(?:\(?\d{1,2}[.)]\s+|\(?[a-h]\)\s+)?(?:\*\*[^*]+\*\*\s*:?|[^–—:→=]+?)\s*(?:[-–—:→=]|->)\s+(.+)$/u.exec(piece);
  const d = m?.[1]?.replace(/\*\*/g, '').replace(/\s*\([^)]*\)/g, '').replace(/\s+&\s+/g, ' and ').trim().replace(/[.;,]+$/, '');
  if (!d || /[\d|→←=+×÷/;"“”&]/u.test(d) || d.split(',').filter((part) => part.trim().split(/\s+/).length <= 2).length >= 2 || SHORTHAND_WORD.test(d) || /\b\p{L}{1,6}\.\s/u.test(d)) return null;
  const lead = /^(?:e\.?g|i\.?e|etc|such\s+as|like|see|as|it|its|they|them|their|this|these|those|he|she|also|and|but|or|the\s+same|especially|mainly|mostly|usually|often|even|only|when|if|because|since|for|from|by|with|in|on|at|to)\b/i;
  if (lead.test(d)) return null;
  const n = d.split(/\s+/).length;
  return n >= 5 && n <= 30 ? d : null;
}

/**
 * The lists under kind headings in `passages`: on a slide, the bullets under its title (a slide
 * "… (2)" continues the one before); in notes, the items that follow a heading paragraph, in
 * the paragraphs after it, until prose or the next heading. A kind alone ("Disadvantages",
 * "FUNCTIONS / IMPORTANCE") is of the last subject a heading named, else of the material's title.
 */
export function headingLists(passages: Passage[]): HeadingList[] {
  const material = passages.map((p) => p.text).join('\n');
  const firstLine = passages[0]?.text.split('\n')[0] ?? '';
  const title = headingTopic(firstLine, material)?.phrase ?? null;
  const lists: HeadingList[] = [];
  let open: HeadingList | null = null;
  let lastSubject = title;
  let started = false;
  // (a list's items share its first item's marker: under numbered or bold names, a dash marks a remark — "- NOT transferable")
  let style: string | null = null;
  const add = (piece: string, citation: string) => {
    // a bold line that names a group of the items ("**Expenditure-switching measures**", "**Other measures**") heads them
    if (SUBHEADING.test(piece.trim())) return;
    const name = open && ITEM_START.test(piece) ? itemName(piece) : null;
    if (!name || !open || (style && markerStyle(piece) !== style)) return;
    // a lettered part of the list that names its own kind heads a share of it, and is none of its items ("(b) Beneficial
    // effects" under "EFFECTS OF INFLATION"; round 33) — a numbered "3. Revaluation method" under "METHODS …" is one
    if (/^\s*\(?[a-h][.)]\s/.test(piece) && singular(name.toLowerCase().split(/\s+/).pop()!) === singular(open.kind)) return;
    style ??= markerStyle(piece);
    if (!open.items.some((i) => i.text.toLowerCase() === name.toLowerCase())) open.items.push({ text: name, citation, description: itemDescription(piece) ?? undefined });
  };
  for (const p of passages) {
    const slide = p.citation.startsWith('slide');
    const lines = p.text.split('\n');
    const heading = readHeading(lines[0]!, material);
    if (slide) {
      const continues = open && heading && /\(\d\)\s*$/.test(lines[0]!) && heading.kind === open.kind && (heading.subject ?? lastSubject) === open.subject;
      if (!continues) open = null;
    }
    if (heading) {
      const subject = heading.subject ?? lastSubject;
      if (heading.subject) lastSubject = heading.subject;
      if (!(open && slide)) {
        style = null;
        open = subject ? { kind: heading.kind, subject, inherited: heading.subject === null, ...naming(heading.kind, subject, heading.subject !== null && heading.before, heading.subject !== null && heading.doing), items: [] } : null;
        if (open) lists.push(open);
      }
      started = false;
      for (const line of lines.slice(1)) for (const piece of line.split(INLINE_ITEM)) add(piece, p.citation);
      continue;
    }
    if (slide || !open) continue;
    // notes: item paragraphs follow the heading (after at most one lead-in such as "The main causes are:"); another heading ends them
    const pieces = p.text.split(INLINE_ITEM);
    if (isHeadingLine(p.text)) open = null;
    else if (ITEM_START.test(pieces[0]!)) {
      started = true;
      for (const piece of pieces) add(piece, p.citation);
    } else if (started || !/:\s*$/.test(p.text)) open = null;
  }
  return lists.filter((l) => l.items.length >= 1);
}

/**
 * Whether one list gives the features of a subject and the other its merits or demerits: a demerit of socialism
 * ("Lack of incentive") is as often called one of its features, so neither is the other's odd one out (round 46's
 * development packet). A merit of one subject is still the odd one out of another's features.
 */
function featureAndVerdict(a: HeadingList, b: HeadingList): boolean {
  const features = groupOf('features');
  const verdicts = [groupOf('merits'), groupOf('demerits')];
  const [ga, gb] = [groupOf(a.kind), groupOf(b.kind)];
  const pair = (ga === features && verdicts.includes(gb)) || (gb === features && verdicts.includes(ga));
  return pair && a.subject.toLowerCase() === b.subject.toLowerCase();
}

/**
 * The content stems of each slide whose title names `subject`, but those `other`'s items were read from: a key whose every
 * word such a slide says is no odd one out ("Essential services provided for all", a merit of socialism, is on the slide
 * "Mixed Economy – Meaning": "Government regulates & provides essential services"; round 46's development packet).
 */
function subjectSlides(passages: Passage[]): (subject: string, other: HeadingList) => Set<string>[] {
  const slides = passages.filter((p) => p.citation.startsWith('slide')).map((p) => ({ p, title: p.text.split('\n')[0]!.toLowerCase(), stems: new Set(contentStems(p.text)) }));
  return (subject, other) => {
    const own = new Set(other.items.map((i) => i.citation));
    return slides.filter((x) => x.title.includes(subject.toLowerCase()) && !own.has(x.p.citation)).map((x) => x.stems);
  };
}

/** An odd-one-out item planned from the lists: three items of `list` and the key from `other`. */
export interface OddOneOut {
  list: HeadingList;
  members: HeadingList['items'];
  other: HeadingList;
  key: HeadingList['items'][number];
}

/**
 * Three members, from `pool`, that share no word the key lacks (a shared "advertising" beside "Too many billboards" gives
 * the key away); a word inside another counts ("inflation" in "Hyperinflation"; round 33). Null when none do.
 */
function membersFor(pool: HeadingList['items'], key: string, rand: () => number): HeadingList['items'] | null {
  const tries = shuffled(pool, rand);
  const keyText = key.toLowerCase();
  for (let i = 0; i < tries.length; i++)
    for (let j = i + 1; j < tries.length; j++)
      for (let k = j + 1; k < tries.length; k++) {
        const three = [tries[i]!, tries[j]!, tries[k]!];
        const texts = three.map((m) => m.text.toLowerCase());
        const stems = new Set(three.flatMap((m) => contentStems(m.text)));
        if (![...stems].some((st) => texts.every((t) => t.includes(st)) && !keyText.includes(st))) return three;
      }
  return null;
}

/**
 * Plans odd-one-out items (docs/decisions.md, "Lists under a heading make odd-one-out items"):
 * for each list of three or more items, a key from a list of another kind group and three
 * members of the list. The key shares no content word with any item of the list, and no member
 * shares one with any item of the key's list (the lists' subjects' own words aside), so neither
 * side could be the other in other words ("Competitive adverts", a disadvantage, beside
 * "Competitive advertising", a type). Keys nearest the members' length come first; the three
 * members share no word the key lacks, and the key has none of the list's subject, even inside a word ("Galloping
 * inflation", "Hyperinflation" for a cause of inflation); causes and effects give each other no key, nor a subject's features
 * and its merits or demerits (featureAndVerdict); no key every word of which a slide on the list's subject says (subjectSlides,
 * from `passages`). Each list gives at most one item; keys are not reused.
 */
export function planOddOneOut(lists: HeadingList[], rand: () => number, passages: Passage[] = []): OddOneOut[] {
  const out: OddOneOut[] = [];
  const saidOf = subjectSlides(passages);
  const usedKeys = new Set<string>();
  const own = (text: string, subjects: Set<string>) => contentStems(text).filter((st) => !subjects.has(st));
  for (const list of lists) {
    if (list.items.length < 3) continue;
    const subjectStems = new Set(contentStems(list.subject));
    const listStems = new Set(list.items.flatMap((i) => own(i.text, subjectStems)));
    const meanWords = list.items.reduce((n, i) => n + i.text.split(/\s+/).length, 0) / list.items.length;
    const candidates = shuffled(
      lists.filter((o) => groupOf(o.kind) !== groupOf(list.kind) && !causeAndEffect(o.kind, list.kind) && !featureAndVerdict(o, list)).flatMap((o) => o.items.map((key) => ({ o, key }))),
      rand,
    )
      // (nor may the key name the list's own subject: "Galloping inflation" is no cause of inflation, and the stem says so; round 33)
      .filter(({ key }) => !usedKeys.has(key.text.toLowerCase()) && !own(key.text, subjectStems).some((st) => listStems.has(st)) && ![...subjectStems].some((st) => key.text.toLowerCase().includes(st)))
      .sort((x, y) => Math.abs(x.key.text.split(/\s+/).length - meanWords) - Math.abs(y.key.text.split(/\s+/).length - meanWords));
    for (const { o, key } of candidates) {
      if (saidOf(list.subject, o).some((text) => own(key.text, subjectStems).every((st) => text.has(st)))) continue;
      const both = new Set([...subjectStems, ...contentStems(o.subject)]);
      const otherStems = new Set(o.items.flatMap((i) => own(i.text, both)));
      const pool = list.items.filter((m) => !own(m.text, both).some((st) => otherStems.has(st)));
      const members = pool.length >= 3 ? membersFor(pool, key.text, rand) : null;
      if (!members) continue;
      usedKeys.add(key.text.toLowerCase());
      out.push({ list, members, other: o, key });
      break;
    }
  }
  return out;
}

const LABELS = 'ABCD';

/**
 * A one-mark MCQ of a list's items (this file's odd one out, described-items.ts): the key and three other items in a
 * shuffled order, labelled A–D, escaped for Markdown; `id` names the item, the rest is said as given.
 */
export function listMcq(q: { id: string; prompt: string; difficulty: QuestionDifficulty; citation: string; explanation: string }, key: string, others: string[], rand: () => number): GeneratedQuestion {
  const opts = shuffled([{ text: key, isCorrect: true }, ...others.map((text) => ({ text, isCorrect: false }))], rand);
  return { ...q, type: 'MCQ', marks: 1, options: opts.map((o, i) => ({ id: shortId('opt_', q.id, o.text), keyLabel: LABELS[i]!, text: mdEscape(o.text), isCorrect: o.isCorrect })) };
}

/** The MCQ "Which of the following is NOT a/an KIND of SUBJECT?" with its three members and the key, cited and explained. */
export function buildOddOneOut(plan: OddOneOut, difficulty: QuestionDifficulty, rand: () => number, seed: number): GeneratedQuestion {
  const { list, members, other, key } = plan;
  const id = shortId('q_', seed, 'MCQ', 'odd-one-out', list.kind, list.subject, key.text);
  const citations = [...new Set([...members.map((m) => m.citation), key.citation])];
  const explanation = explainFrom(`The answer is “${mdEscape(key.text)}”, which the material gives as ${mdEscape(other.one)}; the others are ${mdEscape(list.all)}.`, [
    ...members.map((m) => ({ citation: m.citation, text: m.text })),
    { citation: key.citation, text: key.text },
  ]);
  return listMcq({ id, prompt: `Which of the following is NOT ${mdEscape(list.one)}?`, difficulty, citation: joinCitations(citations), explanation }, key.text, members.map((m) => m.text), rand);
}

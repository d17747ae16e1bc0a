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
import { headingTopic, indefinite, listSubject, SECTION_NUMBER } from './repair.js';
import { emphasisLowered, EXAMPLES_LABEL, groupLabel, itemDescription, itemName } from './list-items.js';

export { itemDescription, itemName };

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

/**
 * Kinds whose items are things, not what is said of a thing: types, documents, sources ("Rivers and streams", "Lakes").
 * Such a list neither asks for an odd one out nor gives one: its items beside a list of problems or benefits, or those
 * beside it, are of another sort, and no candidate takes them for members ("Rivers and streams" as NOT a problem of
 * irrigation, "Higher yields" as NOT a source of water for it; issue 39 §2, round 58). What is said of a thing —
 * functions, problems, causes, features, methods — may be taken for another of it (round 49's "an importance of the rule
 * of law, not a way of upholding it", round 53's "a feature of democracy, not a problem": both judged usable as they were).
 */
const THINGS = new Set(['types', 'documents', 'sources'].map((k) => groupOf(k)));

/**
 * Kinds whose items' notes say why or how the item belongs to the list, not what the item is. ("Uses" is not one: "Fuel:
 * coal, petroleum …" under "Uses of minerals" sits beside "Taxes: charges levied by the government …", a definition.)
 */
const EXPLAINED = new Set(['causes', 'factors', 'effects', 'consequences', 'problems', 'challenges', 'disadvantages', 'advantages', 'benefits', 'merits', 'demerits', 'functions', 'roles', 'importance', 'features', 'characteristics']);

/**
 * Whether a heading names a list whose items' notes explain them ("CAUSES OF HUMAN TRAFFICKING (1)", "Effects on the
 * Victim", "Problems in the Fight"): under it, "**Poverty** — families looking for a way out" says how poverty is a cause,
 * and is no definition of poverty (issue 39 §2, round 59). Types and methods are not: "Sheet erosion — removal of a thin
 * layer …", "Mulching — covering the soil …" say what the thing is.
 */
export function explainsItems(heading: string): boolean {
  const h = heading.replace(/^\s*#{1,6}\s+/, '').replace(SECTION_NUMBER, '').trim().toLowerCase();
  const first = /^(?:(?:the\s+)?(?:main|major|key)\s+)?(\p{L}+)/u.exec(h)?.[1] ?? '';
  const last = SUBJECT_KIND.exec(h.replace(/\s*\(\d+\)$/, ''))?.[2] ?? '';
  return [first, last].some((k) => EXPLAINED.has(k));
}

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
    // a bold line that names a group of the items ("**Expenditure-switching measures**", "**Other measures**", "**Physical**"
    // over a slide's physical properties; round 47) heads them
    if (SUBHEADING.test(piece.trim()) || groupLabel(piece)) return;
    // the items after a label of examples ("Nigerian examples: …", then "- Notore") are its examples, none of the list's (round 47)
    if (open && EXAMPLES_LABEL.test(piece)) {
      open = null;
      return;
    }
    const name = open && ITEM_START.test(piece) ? itemName(piece) : null;
    if (!name || !open || (style && markerStyle(piece) !== style)) return;
    // a lettered part of the list that names its own kind heads a share of it, and is none of its items ("(b) Beneficial
    // effects" under "EFFECTS OF INFLATION"; round 33) — a numbered "3. Revaluation method" under "METHODS …" is one
    if (/^\s*\(?[a-h][.)]\s/.test(piece) && singular(name.toLowerCase().split(/\s+/).pop()!) === singular(open.kind)) return;
    style ??= markerStyle(piece);
    // (a use named with its subject names a form of it, "Liquid ammonia → refrigerant …" under "Uses of ammonia"; round 47)
    if (open.kind === 'uses' && contentStems(open.subject).some((st) => contentStems(name).includes(st))) return;
    const shown = emphasisLowered(name, material);
    if (!open.items.some((i) => i.text.toLowerCase() === shown.toLowerCase())) open.items.push({ text: shown, citation, description: itemDescription(piece) ?? undefined });
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
 * members of the list; a list of things (`THINGS`: types, documents, sources) neither asks
 * nor gives. The key shares no content word with any item of the list, and no member
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
    if (list.items.length < 3 || THINGS.has(groupOf(list.kind))) continue;
    const subjectStems = new Set(contentStems(list.subject));
    const listStems = new Set(list.items.flatMap((i) => own(i.text, subjectStems)));
    const meanWords = list.items.reduce((n, i) => n + i.text.split(/\s+/).length, 0) / list.items.length;
    const candidates = shuffled(
      lists.filter((o) => groupOf(o.kind) !== groupOf(list.kind) && !THINGS.has(groupOf(o.kind)) && !causeAndEffect(o.kind, list.kind) && !featureAndVerdict(o, list)).flatMap((o) => o.items.map((key) => ({ o, key }))),
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

/**
 * Reads a rubric criterion's description as the marking guidance teachers write
 * (WAEC/NECO/ICAN marking-scheme style): how many points are wanted ("Four valid
 * causes", "any three of", "up to 6"), marks per point ("2 marks each", "Award 1 mark
 * for each", "5 x 2 = 10", "2½ marks"), the stated/explained split ("1 for stating the
 * factor, 2 for explanation", "each stated and explained"), the acceptable points listed
 * ("Any five of: a; b; c", "Accept: a, b", "e.g. a, b, c", "(a, b, c)"), marks shown per
 * item ("supremacy of the law (1); equality (1)", "1 for identifying X, 1 for Y"), band
 * descriptors ("Clear argument: 5-6; some linking: 3-4") and "on the same basis" (as the
 * previous criterion). Pure; never throws: anything it cannot read is left undefined.
 */

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, half: 0.5, a: 1, an: 1 };
const NUM = String.raw`(\d+\s1\/2|1\/2|\d+(?:\.\d+)?(?:\s?½)?|½|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;

/** "2½" → 2.5, "1 1/2" → 1.5, "1/2" → 0.5, "four" → 4, "0.5" → 0.5; NaN when not a number. */
export function readNumber(s: string): number {
  const t = s.trim().toLowerCase().replace(/(^|\s)1\/2$/, '$1½');
  if (t in NUMBER_WORDS) return NUMBER_WORDS[t]!;
  const half = t.includes('½') ? 0.5 : 0;
  const digits = t.replace('½', '').trim();
  return (digits ? Number(digits) : 0) + half;
}

/** What the guidance says about marking a criterion. */
export interface Guidance {
  /** Points wanted ("any four", "Four valid causes", "up to 6"). */
  count?: number;
  /** Marks per point ("2 marks each"). */
  perPoint?: number;
  /** Share of a point's marks for stating it (the rest for explaining it), when the guidance splits them. */
  statedShare?: number;
  /** The acceptable points listed; each item may have "/" or " or " alternatives. */
  alternatives: string[];
  /** Items with their own marks ("equality (1)", "1 for identifying the non-disclosure"). */
  marked: { text: string; marks: number }[];
  /** Band descriptors ("5-6; 3-4; 1-2"): a holistic judgement, not a count of points. */
  banded: boolean;
  /** "on the same basis" / "as above": marked like the previous criterion. */
  sameAsPrevious: boolean;
  /** What the guidance says earns nothing ("Services to the retailer (breaking bulk, credit to retailers) earn no marks"). */
  excluded: string[];
}

/** A sentence of guidance that gives no credit for something. */
const NO_CREDIT = /\b(?:earns?\s+(?:no\s+marks?|nothing|no\s+credit)|no\s+credit|not\s+(?:accepted|credited|creditable|counted)|do\s+not\s+accept|don't\s+accept|rejected?)\b/i;

/** The guidance's sentences, split where a full stop ends one before a capital, a quote or a bracket. */
export function guidanceSentences(text: string): string[] {
  return text.replace(/\s+/g, ' ').split(/(?<=[.!])\s+(?=[A-Z'‘"“(])/).map((t) => t.trim()).filter(Boolean);
}

/**
 * What earns nothing, from sentences such as "Causes of drug abuse (peer pressure,
 * curiosity) are not effects - no credit" or "Errors that affect the agreement (single
 * entry, wrong addition) earn nothing": the items in their brackets and a short subject
 * before "is/are not" ("Internal factors", "Causes of drug abuse").
 */
export function excludedPoints(text: string): string[] {
  const out: string[] = [];
  for (const sentence of guidanceSentences(text)) {
    if (!NO_CREDIT.test(sentence)) continue;
    const listed = NO_CREDIT_LIST.exec(sentence);
    if (listed) out.push(...noCreditItems(listed[1]!));
    for (const m of sentence.matchAll(/\(([^()]*)\)/g)) {
      const inner = m[1]!.replace(/^\s*(?:e\.\s?g\.|such as|for example|i\.\s?e\.)\s*,?/i, '');
      // A remark in brackets ("the examiner's report notes …") is not a list of answers.
      if (/\b(?:report|notes?|examiner|candidates?)\b/i.test(inner)) continue;
      out.push(...splitList(inner));
    }
    const subject = /^([^()]{3,50}?)\s*(?:\([^)]*\)\s*)?(?:is|are)\s+not\b/i.exec(sentence)?.[1];
    if (subject && !/\b(?:that|which|who|points?|statements?|answers?)\b/i.test(subject)) out.push(subject.trim());
  }
  return out;
}

/** A no-credit sentence that lists what earns nothing after a colon: "Not credited: 'to heat the metal', riveting, folded seaming 0". */
const NO_CREDIT_LIST = /^(?:not\s+(?:credited|accepted|counted)|no\s+credit|do\s+not\s+accept|rejected?)\b[^:.]{0,40}:\s*(.+)$/i;

/**
 * The things a "Not credited: …" list names, one per item (split at its commas and semicolons
 * outside brackets), without a trailing bare 0. An item in brackets after a heading ("types of
 * file (master, transaction, reference)") gives its own items; a gloss in brackets ("welding
 * (edges of the metals melted)") is dropped. Quoted statements ("'it is very important'") and
 * lesser answers ("'corruption' alone", "unexplained") are not taken: they say what falls short
 * of a point, not another subject.
 */
function noCreditItems(list: string): string[] {
  return cutOutsideBrackets(list, (i) => list[i] === ';' || list[i] === ',').flatMap((raw) => {
    const item = raw.replace(/\s+(?:0|nil)\s*\.?\s*$/i, '').trim();
    if (/['‘’"“”]/.test(item) || /\b(?:alone|unexplained|without|only)\b/i.test(item)) return [];
    const inner = /\(([^()]*)\)/.exec(item)?.[1];
    if (inner && /[,;]|\bor\b/.test(inner)) return splitList(inner.replace(/^\s*(?:e\.\s?g\.|such as|for example)\s*,?/i, '').replace(/\s+or\s+/g, ', '));
    const head = item.replace(/\([^()]*\)/g, ' ').replace(/^\s*(?:and|or)\s+/i, '').replace(/[.\s]+$/, '').trim();
    return /\p{L}{3}/u.test(head) && !/^(?:etc|and so on|others?|and others)$/i.test(head) ? [head] : [];
  });
}

/** The guidance without its no-credit sentences (what the question's material is). */
export function creditedGuidance(text: string | undefined): string {
  return guidanceSentences(text ?? '').filter((t) => !NO_CREDIT.test(t)).join(' ');
}

const STATE = String.raw`(?:nam|stat|identif|list|mention|giv)\w*`;
const EXPLAIN = String.raw`(?:explain|explanation|discuss|describ|elaborat|develop|illustrat|reason|show|example)\w*`;

const COUNT_PATTERNS = [
  // "stated only 1" gives a point's marks, not the count of points.
  // "only one side is correct" is about a point's parts, not the count of points.
  new RegExp(String.raw`\b(?:any|up to|maximum(?: of)?|max\.?|best|first)\s+${NUM}\b|\b(?<!(?:${STATE}|${EXPLAIN})\s+)only\s+${NUM}\b(?!\s+(?:side|part|half|limb|element|word)s?\b)`, 'i'),
  // "Four valid causes" counts points; "3 marks each" does not.
  new RegExp(String.raw`^\s*${NUM}\s+(?:valid|correct|relevant|well[- ]explained|different|distinct|good)?\s*(?!marks?\b|for\b)[a-z]+`, 'i'),
  new RegExp(String.raw`\b${NUM}\s*[x×]\s*${NUM}\s*=`, 'i'),
];
const PER_POINT_PATTERNS = [
  new RegExp(String.raw`\b${NUM}\s*marks?\s*(?:each|per\b|apiece|for (?:each|every))`, 'i'),
  new RegExp(String.raw`\beach[^.;:]*?\(?${NUM}\s*marks?\s*(?:each)?\)?`, 'i'),
  new RegExp(String.raw`\b${NUM}\s*marks?\s+for\s+(?:the\s+)?(?:first|second|third|fourth|fifth|one|a|an)\b`, 'i'),
  new RegExp(String.raw`\b\d+\s*[x×]\s*${NUM}\s*=`, 'i'),
];
function firstNumber(text: string, patterns: RegExp[]): number | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    const n = readNumber(m.slice(1).find((g) => g !== undefined)!);
    if (Number.isFinite(n) && n > 0) return n;
  }
  return undefined;
}

/** List openers, most explicit first. */
const LIST_TRIGGERS = [
  /\bany\s+\S+(?:\s+\S+){0,3}?\s+of\s*:?\s*/i,
  /\baccept\b(?!\s+(?:only|if|as|also\s+if))\s*:?\s*/i,
  // "Acceptable problems: a; b; c", "Acceptable lessons include: …"
  /\b(?:acceptable|creditable)\s+[a-z]+(?:\s+[a-z]+){0,3}?\s*(?:include\s*)?:\s*/i,
  /\b(?:e\.\s?g\.\s*,?|such as|for example|examples?\s*:|include\s*:)\s*/i,
  /\bany\s+\S+(?:\s+[a-z]+){0,3}\s*\(\s*/i,
  /\b(?:any\s+\S+(?:\s+[a-z]+){0,3}\s*:|(?:marks?\s+)?each\s*:)\s*/i,
  // "Any three, 1 mark each (stating is enough): a; b; c" — the list after the colon that ends the count's sentence.
  /\b(?:any|up to|maximum(?: of)?)\s+\S+[^:.]{0,60}?:\s*/i,
];

/** The acceptable points listed in the guidance (first list opener that yields two or more items). */
function listedPoints(text: string): string[] {
  for (const trigger of LIST_TRIGGERS) {
    const m = trigger.exec(text);
    if (!m) continue;
    let rest = text.slice(m.index + m[0].length);
    if (m[0].trim().endsWith('(')) rest = rest.slice(0, Math.max(0, rest.indexOf(')')));
    // "Accept effects on the individual or society: a; b; c" — a lead-in before the list's colon is not an item.
    rest = rest.replace(/^[^:;,.()]{3,60}:\s*(?=[^:]*[;,])/, '');
    // The list ends at the end of its sentence (a full stop before a capital or a digit) or a closing bracket it did not open.
    const end = rest.search(/\.\s+(?=[A-Z(\d])|\.\s*$|\)\s*(?:\.|$)/);
    const items = splitList(end >= 0 ? rest.slice(0, end) : rest);
    if (items.length >= 2 || (items.length === 1 && /e\.\s?g|such as|for example/i.test(m[0]))) return items;
  }
  return [];
}

const ALLOCATION_WORD = new RegExp(String.raw`^(?:${STATE}|${EXPLAIN}|\d+(?:\.\d+)?|½|1\/2|marks?|for|the|a|an|it|its|each|every|one|any|point|points|clear|clearly|correct|correctly|valid|well|full|fully|proper|properly|mere|merely|only|and|or|plus|with|of|max|maximum|up|to|x|×)$`, 'i');

/**
 * True when `text` only says how marks are awarded ("1 for stating the point", "2 for clear
 * explanation", "1/2 mark each") and names nothing to find: teachers' mark allocation is
 * guidance, never the content of an answer (issue 39 §1).
 */
export function isAllocation(text: string): boolean {
  const tokens = text.toLowerCase().replace(/[()[\]:;,.=+-]/g, ' ').split(/\s+/).filter(Boolean);
  return tokens.length > 0 && tokens.every((t) => ALLOCATION_WORD.test(t));
}

/** Splits a list into items: at ";" when it has them, else at commas not inside brackets. */
export function splitList(list: string): string[] {
  const cleaned = list.replace(/^\s*[(:]/, '');
  const sep = cleaned.includes(';') ? ';' : ',';
  return cutOutsideBrackets(cleaned, (i) => cleaned[i] === sep)
    .map((i) => i.replace(/^\s*(?:and|or)\s+/i, '').replace(/[.\s]+$/, '').trim())
    .filter((i) => /\p{L}{3}/u.test(i) && !/^(?:etc|and so on|others?|and others)$/i.test(i) && !isAllocation(i));
}

/** A piece of guidance ending in its bare mark: "Female Anopheles mosquito 1", "Culex, Aedes 0". */
const BARE_MARK = /^(.*\p{L}.*?)[\s,]+(\d\s1\/2|1\/2|½|[0-5](?:\.5)?(?:\s?½)?)$/u;
/** A lesser answer scored below the points ("Anopheles without 'female' 1/2", "'mosquito' alone"). */
const LESSER = /\b(?:without|alone|only|not)\b/i;

/**
 * Items scored by a bare mark after each, as markers write short schemes: "Plasmodium (any
 * species) 1; 'a protozoan' without the name 0. Female Anopheles mosquito 1; Anopheles without
 * 'female' 1/2; Culex, Aedes 0." Of the pieces (split at ";" and at sentence ends, outside
 * brackets) that end in a mark, those above 0 are the points, except a lesser answer scored
 * below the best ("without", "alone"), and those at 0 earn nothing. Null unless two pieces or
 * more end in a mark above 0, the marked pieces are most of the pieces, and no mark is written
 * in brackets ("(1)": `markedItems` reads those).
 */
export function scoredItems(text: string): { marked: { text: string; marks: number }[]; zero: string[] } | null {
  if (/\((?:\d(?:\.\d)?|½|1\/2)\)/.test(text)) return null;
  const pieces = topLevel(text.replace(/\s+/g, ' ')).flatMap(sentencesOutsideBrackets).map((p) => p.trim().replace(/[.\s]+$/, '')).filter(Boolean);
  const scored = pieces.flatMap((p) => {
    const m = BARE_MARK.exec(p);
    return m ? [{ text: m[1]!.trim(), marks: readNumber(m[2]!) }] : [];
  });
  const best = Math.max(0, ...scored.map((i) => i.marks));
  const marked = scored.filter((i) => i.marks > 0 && !(i.marks < best && LESSER.test(i.text)));
  if (marked.length < 2 || scored.length * 2 <= pieces.length) return null;
  return { marked, zero: scored.filter((i) => i.marks === 0).map((i) => i.text) };
}

/** `text` split where a full stop outside brackets ends a sentence (before a capital or a quote; not "e.g.", "P. vivax"). */
function sentencesOutsideBrackets(text: string): string[] {
  const ends = (i: number, from: number) => text[i] === '.' && /^\s+['‘"“\p{Lu}]/u.test(text.slice(i + 1, i + 3)) && !/(?:^|\s)(?:\p{L}|e\.g|i\.e|etc|cf)$/iu.test(text.slice(from, i));
  return cutOutsideBrackets(text, ends, true);
}

/**
 * `text` cut at each character outside brackets where `cutAt(i, from)` is true (`from`: where the
 * current piece began). The cut character is dropped (a ";" or "," between items), or with `keep`
 * ends its piece (a sentence's full stop).
 */
function cutOutsideBrackets(text: string, cutAt: (i: number, from: number) => boolean, keep = false): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && cutAt(i, from)) {
      out.push(text.slice(from, keep ? i + 1 : i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** Items that carry their own marks: "text (1)" and "1 for text". */
function markedItems(text: string): { text: string; marks: number }[] {
  const trailing: { text: string; marks: number }[] = [];
  let from = 0;
  for (const m of text.matchAll(/\((\d(?:\.\d)?|½|1\/2)\)/g)) {
    // "1 mark each for the following points, maximum 8: block weighed (1); …": the heading before the colon is not part of the first item.
    const item = text.slice(from, m.index).replace(/^[\s;,.-]+/, '').replace(/^[^:]*\b(?:marks?|points?|following|maximum|award)\b[^:]*:\s*/i, '');
    trailing.push({ text: item.trim(), marks: readNumber(m[1]!) });
    from = m.index + m[0].length;
  }
  if (trailing.length >= 2 || (trailing.length === 1 && trailing[0]!.text.length > 10)) return trailing;
  // "1 for stating, 2 for explanation" is how a point's marks divide, not two items to find.
  const leading = [...text.matchAll(new RegExp(String.raw`(?:^|[(,;:]\s*)${NUM}\s*(?:marks?\s*)?for\s+([^,;)]+)`, 'gi'))].map((m) => ({ text: m[2]!.trim(), marks: readNumber(m[1]!) })).filter((m) => !isAllocation(m.text));
  if (leading.length >= 2) return leading;
  return components(text);
}

const COMPONENT = new RegExp(String.raw`^\s*([^()]{3,60}?)\s*[-–:,]?\s*${NUM}\s*marks?\b\s*(?:\((.*)\))?[\s.]*$`, 'i');

/**
 * Parts of an answer with their own marks, "; "-separated: "Definition 1 mark (income when
 * earned …); explaining the significance 2 marks (e.g. …)". Each keeps its name ("Definition")
 * and its content in brackets, as "name: content".
 */
function components(text: string): { text: string; marks: number }[] {
  const parts = topLevel(text);
  const out = parts.map((p) => COMPONENT.exec(p)).filter((m): m is RegExpExecArray => m !== null).map((m) => ({ text: m[3] ? `${m[1]!.trim()}: ${m[3].replace(/^e\.\s?g\.\s*,?\s*/i, '').trim()}` : m[1]!.trim(), marks: readNumber(m[2]!) }));
  return out.length >= 2 && out.length === parts.length ? out : [];
}

/** `text` split at ";" outside brackets. */
function topLevel(text: string): string[] {
  return cutOutsideBrackets(text, (i) => text[i] === ';').map((p) => p.trim()).filter(Boolean);
}

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii'];

/** The markers of a run numbered 1, 2, 3 … in order (`name(n)` is the n-th marker's text), three or more, else null. */
function numberRun(text: string, marker: RegExp, name: (n: number) => string): RegExpMatchArray[] | null {
  const markers = [...text.matchAll(marker)];
  const run = markers.findIndex((m) => m[1] === name(1));
  if (run < 0) return null;
  const seq = [markers[run]!];
  for (const m of markers.slice(run + 1)) if (m[1] === name(seq.length + 1)) seq.push(m);
  return seq.length >= 3 ? seq : null;
}

/**
 * A numbered list of acceptable points, "(1) David sent Joab …; (2) one evening …; (3) …":
 * bracketed numbers 1, 2, 3 … (or i, ii, iii …: "(i) Arrangement: …; (ii) Access: …") in
 * order, three or more, each opening an item, as marking schemes number a narrative's points
 * or a comparison's headings. Returns the items and the guidance without them (where
 * the count and the marks are said), or null. Marks shown after a phrase ("… mass (1) by one
 * kelvin (1)") are not numbered in order and are left to `markedItems`.
 */
export function numberedPoints(text: string): { items: string[]; rest: string } | null {
  const seq = numberRun(text, /\((\d{1,2})\)\s+(?=\S)/g, (n) => String(n)) ?? numberRun(text, /\(([ivx]{1,4})\)\s+(?=\S)/g, (n) => ROMAN[n - 1]!);
  if (!seq) return null;
  const items: string[] = [];
  for (const [k, m] of seq.entries()) {
    const from = m.index! + m[0].length;
    const next = seq[k + 1];
    const body = text.slice(from, next ? next.index : undefined);
    // The last item ends with its sentence: a full stop before a capital or a quote.
    const end = next ? body.length : body.search(/\.\s+(?=[A-Z\d'‘"“])|\.\s*$/);
    items.push(body.slice(0, end >= 0 ? end : body.length).replace(/[;,.\s]+$/, '').trim());
  }
  const last = seq[seq.length - 1]!;
  const tail = text.slice(last.index! + last[0].length + items[items.length - 1]!.length).replace(/^[;,.\s]+/, '');
  return { items: items.filter((i) => /\p{L}{3}/u.test(i)), rest: `${text.slice(0, seq[0]!.index).trim()} ${tail}`.trim() };
}

/**
 * "2½ marks for the second principle, on the same basis", "as above", "marked in the same
 * way": the criterion is marked like the one before. "The same way in other words is credited
 * once" is about a candidate's repeated point, "the two sides must be on the same basis" about
 * a pair within one point, and "go and do likewise" is content.
 */
const SAME_AS_PREVIOUS = /\b(?:(?<!\b(?:must|should)\s+be\s+)on the same basis|as above|as for the first|(?:marked|awarded|credited)\s+(?:in\s+)?(?:the\s+same\s+way|likewise))\b(?!\s+in other words)/i;

/** Reads a criterion's description; `maxMarks` completes a count or a per-point mark given alone. */
export function parseGuidance(description: string | undefined, maxMarks: number): Guidance {
  const full = (description ?? '').replace(/\s+/g, ' ').trim();
  // A numbered list's items are the points to find; the count and the marks are read from the rest ("only one little ewe lamb" is content).
  const numbered = numberedPoints(full);
  const text = numbered ? numbered.rest : full;
  // Items each followed by its mark ("Plasmodium 1; 'a parasite' 0") are the points; an "e.g." among them lists no points.
  const scored = numbered ? null : scoredItems(text);
  const alternatives = numbered ? numbered.items : scored ? [] : listedPoints(text);
  let count = firstNumber(text, COUNT_PATTERNS);
  let perPoint = firstNumber(text, PER_POINT_PATTERNS);
  if (perPoint !== undefined && perPoint > maxMarks) perPoint = undefined;
  if (count !== undefined && (count > 20 || !Number.isInteger(count))) count = undefined;
  // Stated/explained split: "1 for stating ..., 2 for explanation", "stated - 1 mark; discussed - 1 mark", "stated and explained".
  let statedShare: number | undefined;
  const s1 = new RegExp(String.raw`${NUM}\s*(?:marks?\s*)?for\s+(?:\w+\s+){0,2}${STATE}[^;]*?[;,]?\s*(?:and\s+|plus\s+)?${NUM}\s*(?:marks?\s*)?for\s+(?:\w+\s+){0,3}${EXPLAIN}`, 'i').exec(text);
  const s2 = new RegExp(String.raw`${STATE}\w*\s*[-–:]\s*${NUM}\s*marks?[^.]*?${EXPLAIN}[^-–:]*[-–:]\s*${NUM}\s*marks?`, 'i').exec(text);
  // ICAN's guide: "Award 1/2 Mark each for any 4 techniques listed (1/2 x 4) 2; Award 1 1/2 Marks each for any 4 techniques explained".
  const s3 = new RegExp(String.raw`${NUM}\s*marks?\s+each\s+for\s+[^;.]*?${STATE}[^;]*;\s*(?:award\s+)?${NUM}\s*marks?\s+each\s+for\s+[^;.]*?${EXPLAIN}`, 'i').exec(text);
  const split = s1 ?? s2 ?? s3;
  if (split) {
    const [a, b] = [readNumber(split[1]!), readNumber(split[2]!)];
    statedShare = a / (a + b);
    // "1 mark for naming each factor and 1 mark for explaining it": a point is worth both.
    if (perPoint === undefined || perPoint === a) perPoint = a + b;
  } else if (new RegExp(String.raw`${STATE}\w*\s+and\s+${EXPLAIN}`, 'i').test(text)) statedShare = 0.5;
  // "nothing for a restatement of the name", "no mark for merely listing": the marks are for the explanation alone.
  if (new RegExp(String.raw`\b(?:nothing|no\s+marks?|no\s+credit|0)\s+for\s+(?:a\s+|the\s+|mere(?:ly)?\s+|just\s+)*(?:re)?(?:statement\s+of\s+the\s+names?|${STATE}|the\s+names?\b)`, 'i').test(text)) statedShare = 0;
  if (perPoint && count && count * perPoint > maxMarks * 1.01) count = Math.max(1, Math.round(maxMarks / perPoint)); // "up to 10" meant marks
  if (count === undefined && perPoint) count = Math.max(1, Math.round(maxMarks / perPoint));
  if (perPoint === undefined && count) perPoint = maxMarks / count;
  const marked = scored ? scored.marked : numbered || (count && alternatives.length) ? [] : markedItems(text);
  return {
    count,
    perPoint,
    statedShare,
    alternatives,
    marked,
    banded: /\b\d\s*[-–]\s*\d\b[^.]*;[^.]*\b\d\s*[-–]\s*\d\b/.test(text) || /:\s*\d\s*;[^;]*:\s*\d\s*;/.test(text),
    sameAsPrevious: SAME_AS_PREVIOUS.test(text),
    excluded: [...excludedPoints(full), ...(scored?.zero ?? [])],
  };
}

/**
 * Tables in the material, and the MCQs a WAEC/NECO paper makes of them (docs/decisions.md,
 * "Tables make items"). Teachers put what they want remembered in tables: a row per
 * disease with its cause and its signs, a column per system with its features. The readers
 * hand a table over as one passage of rows written `| cell | cell |` (a DOCX or PPTX table,
 * or a Markdown pipe table); this module reads them and plans three kinds of item, each with
 * its distractors taken from the same table, so they are of the key's kind and of the topic:
 *
 * - a **record** table (a row per thing, a column per attribute): "Which of the following is the
 *   cause of Newcastle disease?", the options the column's other values; and the reverse, "Which
 *   of the following diseases has 'Virus' as its cause?", the options the row names;
 * - a **contrast** table of statements (a column per subject: "| Inflation | Deflation |"):
 *   "Which of the following is true of deflation?", the key a deflation cell, the
 *   distractors the inflation cells;
 * - a contrast table with a column of attributes ("| Feature | Tilapia | African catfish |"):
 *   the same, each option "Attribute: value".
 *
 * - a **list** table (members sorted under its headings, "| Debit balances | Credit balances |"):
 *   "Which of the following is a credit balance?" (member-items.ts).
 *
 * Tables of figures (prices, a worked ledger) make no item. Pure: no I/O.
 */
import type { Passage } from '../passage.js';
import type { GeneratedQuestion } from '../schemas.js';
import { contentStems, words } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shortId, shuffled } from '../text/seed.js';
import { explainFrom, mdEscape } from './markdown.js';
import { LEX_POS, type Lexicon } from './lexicon.js';
import { indefinite, SHORTHAND } from './repair.js';
import { listTable, memberItems } from './member-items.js';
import { FIGURES, line, type MaterialTable, type TableItem } from './table-types.js';
import { forwardStem, NOTES_HEADER, optionText, reverseStem, rowName, shortHeader, wayName } from './table-stems.js';
import { stripMarkdown } from './sentences.js';

export type { MaterialTable, TableItem } from './table-types.js';

/** The material's prose (its passages' text without table rows), and whether a word is an English word (WordNet, when given). */
interface Prose {
  text: string;
  /** the prose without its title-case lines (headings: "Causes of Inflation") */
  running: string;
  known: (word: string) => boolean;
  /** whether a noun names a part of the body: it takes "the" (`withArticle`) */
  organ: (word: string) => boolean;
}

/** A line in title case, a heading: every word of four letters or more capitalised ("Causes of Inflation"). */
const TITLE_CASE = /^(?:#+\s*)?(?:(?:\p{Lu}[\p{L}'’-]*|\p{L}{1,3}|[\d.:()&,–-]+)\s+){0,11}\p{Lu}[\p{L}'’-]*[:.]?$/u;

/** A line of a table: `| a | b |`. */
const ROW = /^\s*\|(.*)\|\s*$/;
/** A Markdown table's rule under its header: `|---|:--:|`. */
const RULE_CELL = /^:?-{2,}:?$/;
/** A first header cell naming attributes, not things: the table's columns are then its subjects. */
const ATTRIBUTE_HEADER = /^(?:features?|basis|bases|points?(?:\s+of\s+(?:difference|comparison))?|differences?|characteristics?|characters?|aspects?|criteri(?:on|a)|propert(?:y|ies)|items?\s+compared)$/i;
/** A first header cell over data, not things to ask about: years, serial numbers, ledger sides, samples. */
const DATA_HEADER = /^(?:years?|dates?|n|no\.?|s\/n|q|dr|cr|samples?|items?|commodit(?:y|ies)|particulars|details|month|day|week|period|step|\(?[a-z]\)?)$/i;
/** A kind too general to name the rows' set in a stem ("Which of the following types …"). */
const GENERIC_KIND = /^(?:types?|kinds?|class(?:es)?|groups?|categor(?:y|ies)|forms?|names?|terms?)$/i;
/** A yes/no cell: no option of its own. */
const YES_NO = /^(?:yes|no|partly|none|nil|n\/a)\b/i;
/** Verbs after a thing the material speaks of ("Inflation is …", "Tilapia breeds …"). */
const SUBJECT_VERB = 'is|are|was|were|has|have|had|refers?|means?|occurs?|can|may|will|does|do|takes?|involves?|uses?|needs?|grows?|breeds?|feeds?|produces?|causes?|leads?|depends?|requires?|gives?|makes?|helps?|tends?|shows?|must|should|consists?|contains?';
/** Most words an option may have: a long cell is a paragraph, not an option. */
const MAX_OPTION_WORDS = 14;
/** Most items from one table: a table of eight rows gives four different questions, not sixteen alike. */
const PER_TABLE = 4;

/** Cells of a table line, Markdown emphasis removed and whitespace squashed. */
const cells = (line: string) => ROW.exec(line)![1]!.split('|').map((c) => stripMarkdown(c).replace(/\\$/, '').replace(/\s+/g, ' ').trim());

/**
 * The tables of the material: each run of two or more `| … |` lines in a passage whose rows
 * have as many cells as the first (the header), a Markdown rule row dropped, with the
 * passage's citation. A run whose rows disagree in length is not read.
 */
export function materialTables(passages: readonly Passage[]): MaterialTable[] {
  const out: MaterialTable[] = [];
  for (const p of passages) {
    let run: string[][] = [];
    const flush = () => {
      const [header, ...rest] = run.filter((r) => !r.every((c) => RULE_CELL.test(c)));
      run = [];
      if (!header || header.length < 2 || !rest.length || rest.some((r) => r.length !== header.length)) return;
      out.push({ header, rows: rest, citation: p.citation });
    };
    for (const line of p.text.split('\n')) {
      if (ROW.test(line)) run.push(cells(line));
      else flush();
    }
    flush();
  }
  return out;
}

const normal = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const wordCount = (s: string) => words(s).length;
/**
 * Whether two cells overlap in meaning: one's content words all among the other's, or a
 * content word in both that is not `common` (a word most cells of the column have, "stored"
 * in "Stored maize" and "Stored cowpea", says nothing).
 */
function overlaps(a: string, b: string, common: ReadonlySet<string> = new Set()): boolean {
  // the same figure first is the same value ("9 months (about 280 days)", "9 months (about 38 weeks …)")
  const lead = (x: string) => /^\D{0,3}(\d[\d.,]*\s*\p{L}*)/u.exec(x)?.[1];
  if (lead(a) && lead(a) === lead(b)) return true;
  const sa = new Set(contentStems(a));
  const sb = new Set(contentStems(b));
  if (!sa.size || !sb.size) return false;
  if ([...sa].every((x) => sb.has(x)) || [...sb].every((x) => sa.has(x))) return true;
  return [...sa].some((x) => sb.has(x) && !common.has(x));
}

// whether two texts have a content word in common
const sharesWord = (a: string, b: string) => contentStems(b).some((x) => contentStems(a).includes(x));

/** A chemical formula ("CuCO₃", "ZnO", "2NaHCO₃", "(NH₄)₂CO₃"): element symbols, brackets and counts only. */
const FORMULA = /^\d*(?:[A-Z][a-z]?[₀-₉\d]*|\((?:[A-Z][a-z]?[₀-₉\d]*)+\)[₀-₉\d]*){2,}[⁺⁻²³]*$/u;
/** The element symbols of a text's formulas, but the ones most formulas share (C, O, H). */
const symbols = (s: string) => new Set(s.split(/[\s,;+→=]+/).filter((t) => FORMULA.test(t)).flatMap((t) => t.match(/[A-Z][a-z]?/g) ?? []).filter((x) => !/^[COH]$/.test(x)));
/** Whether a value names its row's element in a formula ("green → black CuO + CO₂" for CuCO₃; round 54): a giveaway. */
const sharesSymbol = (value: string, name: string) => [...symbols(name)].some((x) => symbols(value).has(x));

/** Content words in at least half of the cells. */
function commonStems(column: string[]): Set<string> {
  const n = new Map<string, number>();
  for (const c of column) for (const x of new Set(contentStems(c))) n.set(x, (n.get(x) ?? 0) + 1);
  return new Set([...n].filter(([, k]) => k * 2 >= column.length).map(([x]) => x));
}
/** Whether a cell can be an option: words, not figures alone, and short. */
// (nor a cell in a note's shorthand, "Pressure, temp., pain": round 56)
const optionLike = (c: string) => !!c && !FIGURES.test(c) && wordCount(c) <= MAX_OPTION_WORDS && /\p{L}{2}/u.test(c) && !CELL_SHORTHAND.test(c);
/** How a cell lists: 0 one thing ("Sight", "Hearing & balance"), 1 two ("Cotton, okra"), 2 three or more ("Touch, pain, heat, cold"). */
const listOf = (c: string) => Math.min(2, c.replace(/\([^()]*\)/g, '').match(/,/g)?.length ?? 0);
/** A word of a note's shorthand with its full stop ("temp.", "approx."); not "e.g.", "i.e.", "etc." or "No.". */
const CELL_SHORTHAND = new RegExp(String.raw`\b(?!e\.g|i\.e|etc|no\b)(?:${SHORTHAND})\.`, 'iu');

/**
 * A cell or name written as running text writes it. A name in title case keeps its capitals
 * unless the material has it in lower case ("pressure groups"). Otherwise the first letter is
 * lowered ("Rat" → "rat", "Has scales" → "has scales") when the prose has the word in lower
 * case more often than with a capital inside a line or in italics ("Newcastle disease",
 * "*Clarias*" keep theirs; "Inflation" in a heading "Causes of Inflation" does not), or has it
 * neither way and WordNet knows it ("Nail polish" → "nail polish"); a word neither says anything
 * of stays as written ("Gumboro disease"): a capital left is a blemish, a name lowered an error.
 */
function asInText(name: string, prose: Prose): string {
  const first = /^(\p{Lu})(\p{Ll}+)\b/u.exec(name);
  if (!first) return name;
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const allLowered = name.replace(/(?<![\p{L}])\p{Lu}\p{Ll}+/gu, (w) => w.toLowerCase());
  if (/\s\p{Lu}\p{Ll}/u.test(name)) {
    if (new RegExp(`(?<![\\p{L}])${esc(allLowered)}(?![\\p{L}])`, 'u').test(prose.text)) return allLowered;
    // (a title-case name the material gives no lead on, "National Directorate of Employment (NDE)", stays as it is)
    return name;
  }
  const word = first[0];
  // (capitals inside a line are counted in running text only: a title-case heading, "Causes of Inflation", has them too)
  // (italics are a name's, "*Clarias*"; bold is a label's, "**Thymus gland**": round 55)
  const proper = (prose.running.match(new RegExp(`(?:\\p{Ll}[,;]?\\s+[(]?|(?<![*_])[*_])${word}\\b`, 'gu')) ?? []).length;
  const common = (prose.text.match(new RegExp(`(?:^|[^\\p{L}])${word.toLowerCase()}(?=[^\\p{L}]|$)`, 'gu')) ?? []).length;
  return common > proper || (!proper && prose.known(word.toLowerCase())) ? word.toLowerCase() + name.slice(word.length) : name;
}

/** The plural of a kind noun in a header ("Disease" → "diseases", "Family" → "families", "Process" → "processes"). */
function plural(noun: string): string {
  const n = noun.toLowerCase();
  if (/[^aeiou]y$/.test(n)) return n.slice(0, -1) + 'ies';
  if (/(?:s|x|z|ch|sh)$/.test(n)) return n + 'es';
  return n + 's';
}

/** Whether a header names things one at a time ("Disease", "Pest", "Method of propagation"): a noun, singular, a few words. */
function kindHeader(h: string): boolean {
  if (!h || DATA_HEADER.test(h) || ATTRIBUTE_HEADER.test(h) || /[\p{Sc}(]/u.test(h) || wordCount(h) > 3) return false;
  const head = tagSentence(h.toLowerCase()).filter((t) => /\p{L}/u.test(t.text)).pop();
  return !!head && /^(?:NOUN|PROPN)$/.test(head.pos) && !/[^s]s$/i.test(head.text);
}

/** Whether a table's columns are its subjects: a first header of attributes, or two columns of statements that answer each other row by row. */
function contrastShape(t: MaterialTable): 'attributes' | 'statements' | null {
  if (ATTRIBUTE_HEADER.test(t.header[0]!) || (!t.header[0] && t.header.length >= 3)) return 'attributes';
  if (t.header.length !== 2) return null;
  const answering = t.rows.filter((r) => overlaps(r[0]!, r[1]!)).length;
  const statements = t.rows.every((r) => wordCount(r[0]!) >= 2 && wordCount(r[1]!) >= 2);
  return answering * 2 >= t.rows.length || (statements && overlaps(t.header[0]!, t.header[1]!)) ? 'statements' : null;
}

/** A subject column's header as a stem names it ("Inflation" → "inflation"), or null when it is no noun phrase ("Federal"). */
function subjectName(h: string, prose: Prose): string | null {
  if (!h || wordCount(h) > 5) return null;
  // (tagged in lower case: the tagger takes any capitalised word for a name, "Federal" too)
  const head = tagSentence(h.toLowerCase()).filter((t) => /\p{L}/u.test(t.text)).pop();
  if (!head || !/^(?:NOUN|PROPN)$/.test(head.pos)) return null;
  const name = asInText(h, prose);
  const pattern = normal(name).replace(/ /g, '\\W+');
  // a subject the material speaks of as one ("Inflation is …", "Wind-pollinated flowers have …"), not an adjective ("recessive gene")
  if (!new RegExp(`\\b${pattern}(?:s|es)?\\s+(?:${SUBJECT_VERB})\\b`, 'i').test(prose.text)) return null;
  // "the balance of trade" where the prose mostly writes "the"
  const all = prose.text.match(new RegExp(`\\b(?:the\\s+)?${pattern}\\b`, 'gi')) ?? [];
  if (all.filter((m) => /^the\s/i.test(m)).length * 2 > all.length) return `the ${name}`;
  // "an insect-pollinated flower" where the prose has "a/an" before it, or has it in the plural as well as singular (a thing
  // one counts); "oxidising agents" where it has only the plural; else bare ("inflation")
  if (new RegExp(`\\ban?\\s+${pattern}\\b`, 'i').test(prose.text)) return `${indefinite(name)} ${name}`;
  if (new RegExp(`\\b${pattern}s\\b`, 'i').test(prose.text)) return new RegExp(`\\b${pattern}\\b`, 'i').test(prose.text) ? `${indefinite(name)} ${name}` : `${name}s`;
  return name;
}

/** Distinct values from `pool` (in order) unlike the key and each other; with `common` (strict), none overlapping the key (`overlaps`). */
function distinctFrom(key: string, pool: string[], n: number, common?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const v of pool) {
    if (out.length >= n) break;
    if (normal(v) === normal(key) || out.some((o) => normal(o) === normal(v))) continue;
    // (nor like another distractor: "North" beside "North (Kano)" is one answer twice; round 50)
    if (common && (overlaps(v, key, common) || out.some((o) => overlaps(v, o, common)))) continue;
    out.push(v);
  }
  return out;
}

/** A table line as the readers write it: the explanation quotes header and row so, word for word (the quality model finds the distractors beside the key). */

/**
 * A row's name with "the" where the prose mostly writes it so ("the Council of Ministers"), or where it names a part of
 * the body (WordNet: "the pancreas", "the adrenals"; round 55's "the location of pituitary"); else as it is.
 */
function withArticle(name: string, prose: Prose): string {
  const pattern = normal(name).replace(/ /g, '\\W+');
  if (!pattern || /^the\s/i.test(name)) return name;
  const all = prose.text.match(new RegExp(`\\b(?:the\\s+)?${pattern}\\b`, 'gi')) ?? [];
  if (all.length && all.filter((m) => /^the\s/i.test(m)).length * 2 > all.length) return `the ${name}`;
  // (the name's head is its last word before a preposition: "dyes in ink" names dyes)
  return /^\p{Ll}/u.test(name) && prose.organ(name.split(/\s+(?:of|in|on|at|for|with|from|to|by)\s+/)[0]!.split(/\s+/).pop()!) ? `the ${name}` : name;
}

/**
 * An attribute column's header as a stem names it ("Main use" → "main use", "Some signs" →
 * "signs"), or null when it is no noun phrase: a question ("Used for NH3?"), a clause ("How to
 * recognise it") or a phrase left open ("Best suited for").
 */
function attributeName(h: string, prose: Prose): string | null {
  const name = h.replace(/^some\s+/i, '');
  if (!name || /[?]$/.test(name) || /^(?:how|what|why|when|where|which|who|is|are|does|do|can|used)\b/i.test(name) || /\b(?:for|of|to|in|by|with|on|at|from)$/i.test(name) || NOTES_HEADER.test(name)) return null;
  // each word as running text writes it ("Prevention/Control" → "prevention/control"; "IUPAC name" keeps its acronym)
  return name.replace(/(?<![\p{L}])\p{Lu}\p{Ll}+/gu, (w) => asInText(w, prose)).replace(/^(\p{Lu})(?=\p{Ll})/u, (c) => c.toLowerCase());
}

/** Record-table items: per usable attribute column, a row's value (forward) or the row with a value (reverse). */
function recordItems(t: MaterialTable, ti: number, prose: Prose, rand: () => number): TableItem[] {
  const kind = t.header[0]!;
  if (!kindHeader(kind) || listTable(t)) return [];
  const rows = t.rows.filter((r) => optionLike(r[0]!) && wordCount(r[0]!) <= 8 && /\p{L}{3}/u.test(r[0]!) && !/^total\b/i.test(r[0]!));
  if (rows.length < 4 || new Set(rows.map((r) => normal(r[0]!))).size !== rows.length) return [];
  const out: TableItem[] = [];
  for (let j = 1; j < t.header.length; j++) {
    const attr = attributeName(t.header[j]!, prose);
    if (!attr || /\p{Sc}|\(N\)/u.test(attr) || shortHeader(t.header[j]!) || rows.filter((r) => optionLike(r[j]!)).length < 4) continue;
    // (a column whose values write their rows' formulas is answered by matching symbols, either way: round 54)
    if (rows.filter((r) => sharesSymbol(r[j]!, r[0]!)).length >= 2) continue;
    const common = commonStems(rows.map((r) => r[j]!));
    for (const r of shuffled(rows, rand)) {
      const value = r[j]!;
      // (a row of two things, "Testes / Ovaries", is asked of neither, though it may be another row's distractor: round 55)
      const bare = rowName(r[0]!);
      if (!optionLike(value) || YES_NO.test(value) || !bare) continue;
      const name = asInText(bare, prose);
      const quoted = { header: line(t.header), row: line(r) };
      const others = shuffled(rows.filter((o) => o !== r), rand);
      // (a row named by an adjective or a participle, "Cyclical", "Disguised", is no thing to ask about: the table's kind is unsaid)
      const named = /^(?:NOUN|PROPN)$/.test(tagSentence(r[0]!.toLowerCase()).filter((x) => /\p{L}/u.test(x.text)).pop()?.pos ?? '');
      // distractors written as the key is: figures beside figures ("500–1,000 mm"), words beside words ("Heavy")
      const sameForm = (v: string) => /\p{N}/u.test(v) === /\p{N}/u.test(value);
      // a value that names its row gives itself away ("Ethanol (tincture of iodine)" for iodine; round 49): no item either way
      if (sharesWord(value, r[0]!)) continue;
      // (values listed as the key is come first, and a key whose list no distractor comes near stands out: "Touch, pain,
      // heat, cold" among "Sight", "Smell", "Taste"; round 56)
      const apart = (v: string) => Math.abs(listOf(v) - listOf(value));
      const pool = others.map((o) => o[j]!).filter((v) => optionLike(v) && sameForm(v)).sort((a, b) => apart(a) - apart(b));
      const chosen = named ? distinctFrom(value, pool, 3, common) : [];
      const forward = chosen.every((d) => apart(d) >= 2) ? [] : chosen;
      if (forward.length === 3) {
        out.push({ stem: forwardStem(attr, wayName(withArticle(name, prose), kind, attr)), key: optionText(value), distractors: forward.map(optionText), ...quoted, citation: t.citation, form: 'forward', place: `${ti}:${r[0]}`, lane: `${ti}:f${j}` });
      }
      // the reverse needs the value to belong to this row alone: another row's value like it ("Vaccination" beside
      // "Vaccination, good hygiene") makes that row no distractor; a generic kind ("Type") names no set to choose from
      if (!GENERIC_KIND.test(kind) && wordCount(value) <= 6) {
        const names = distinctFrom(r[0]!, others.filter((o) => !overlaps(o[j]!, value, common)).map((o) => o[0]!), 3);
        if (names.length === 3) {
          out.push({ stem: reverseStem(plural(kind), value, attr), key: optionText(r[0]!), distractors: names.map(optionText), ...quoted, citation: t.citation, form: 'reverse', place: `${ti}:${r[0]}`, lane: `${ti}:r${j}` });
        }
      }
    }
  }
  return out;
}

/** Contrast-table items: a subject's statement as the key, the other subjects' statements (other rows' too) as distractors. */
function contrastItems(t: MaterialTable, ti: number, prose: Prose, rand: () => number): TableItem[] {
  const shape = contrastShape(t);
  if (!shape) return [];
  const first = shape === 'attributes' ? 1 : 0;
  const label = (r: string[], k: number) => (shape === 'attributes' ? `${r[0]}: ${asInText(r[k]!, prose)}` : r[k]!);
  // the words that tell the subjects apart ("inflation", "deflation"): an option naming one gives itself away
  const telling = new Set(t.header.slice(first).flatMap((h) => contentStems(h)).filter((x, _, all) => all.filter((y) => y === x).length < t.header.length - first));
  const usable = (c: string | undefined) => !!c && optionLike(c) && !contentStems(c).some((x) => telling.has(x));
  const out: TableItem[] = [];
  for (let j = first; j < t.header.length; j++) {
    const subject = subjectName(t.header[j]!, prose);
    if (!subject) continue;
    for (const r of shuffled(t.rows, rand)) {
      if (!usable(r[j]) || (shape === 'attributes' && !r[0])) continue;
      // the other subjects' statements, this row's first; one that says what this subject's does is no distractor
      const pool = [r, ...shuffled(t.rows.filter((o) => o !== r), rand)].flatMap((o) =>
        t.header.map((_, k) => k).filter((k) => k >= first && k !== j && usable(o[k]) && normal(o[k]!) !== normal(o[j]!)).map((k) => label(o, k)),
      );
      const distractors = distinctFrom(label(r, j), pool, 3);
      if (distractors.length < 3) continue;
      out.push({ stem: `Which of the following is true of ${subject}?`, key: label(r, j), distractors, header: line(t.header), row: line(r), citation: t.citation, form: 'contrast', place: `${ti}:${r[0]}`, lane: `${ti}:c${j}` });
    }
  }
  return out;
}

/**
 * The items the material's tables give, planned in an order that takes turns between tables
 * (one row per item; at most PER_TABLE items per table). `material` is the whole material (its passages'
 * text, to write names as its prose does); `lexicon` (WordNet), when given, says which words are English words. Deterministic for a given `rand`.
 */
export function planTableItems(tables: readonly MaterialTable[], rand: () => number, material: string, lexicon?: Lexicon): TableItem[] {
  // (how the material writes a name is read from its prose: the tables' own cells are no evidence)
  const prose: Prose = {
    text: material.split('\n').filter((l) => !ROW.test(l)).join('\n'),
    running: material.split('\n').filter((l) => !ROW.test(l) && !TITLE_CASE.test(l.trim())).join('\n'),
    // (a word WordNet knows only as a place or a person is a name: "Newcastle disease" keeps its capital)
    known: (w) => !!lexicon && LEX_POS.some((pos) => { const k = lexicon(w, pos); return !!k && [...k.lexFiles].some((f) => f !== 15 && f !== 18); }),
    // (lexnames(5WN): noun.body is file 8. Not a made thing, file 6: "the speed of rail", "the formula of ethanoic acid"
    // read wrong with "the")
    organ: (w) => !!lexicon?.(w.toLowerCase(), 'noun')?.lexFiles.has(8),
  };
  const perTable = tables.map((t, ti) => {
    const items = contrastShape(t) ? contrastItems(t, ti, prose, rand) : listTable(t) ? memberItems(t, ti, rand, (h) => asInText(h, prose)) : recordItems(t, ti, prose, rand);
    const used = new Set<string>();
    const kept: TableItem[] = [];
    // the table's columns and forms take turns, a row used once
    const lanes = [...new Set(items.map((it) => it.lane))].map((l) => items.filter((it) => it.lane === l));
    for (let k = 0; kept.length < PER_TABLE && lanes.some((l) => l.length > k); k++) {
      for (const l of lanes) {
        const it = l[k];
        // (one item per subject of a contrast table and per column of a list: "Which of the following is true of ECOWAS?"
        // twice on a paper asks one question twice; round 51)
        if (!it || kept.length >= PER_TABLE || used.has(it.place) || ((it.form === 'contrast' || it.form === 'member') && kept.some((x) => x.lane === it.lane))) continue;
        used.add(it.place);
        kept.push(it);
      }
    }
    return kept;
  });
  const out: TableItem[] = [];
  for (let k = 0; perTable.some((l) => l.length > k); k++) for (const l of perTable) if (l[k]) out.push(l[k]!);
  return out;
}

/** The MCQ of a planned table item (four options, one key, shuffled by `rand`): simple when it asks for a row's value, else intermediate. */
export function buildTableItem(item: TableItem, rand: () => number, seed: number): GeneratedQuestion {
  const id = shortId('q_', seed, 'MCQ', 'table', item.place, item.stem);
  const opts = shuffled([{ text: item.key, isCorrect: true }, ...item.distractors.map((d) => ({ text: d, isCorrect: false }))], rand);
  return {
    id,
    prompt: mdEscape(item.stem),
    type: 'MCQ',
    marks: 1,
    // (what the item asks, not the slot it fills: a value read off a row is recall, the thing with a value or a subject's
    // statement among another's asks more)
    difficulty: item.form === 'forward' || item.form === 'member' ? 'simple' : 'intermediate',
    citation: item.citation,
    explanation: explainFrom(`The answer is “${mdEscape(item.key)}”.`, [item.header, item.row].map((text) => ({ citation: item.citation, text }))),
    options: opts.map((o, i) => ({ id: shortId('opt_', id, o.text), keyLabel: 'ABCD'[i]!, text: mdEscape(o.text), isCorrect: o.isCorrect })),
  };
}

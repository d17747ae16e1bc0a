/**
 * Tables that list members under their headings, and the MCQs they give (docs/decisions.md,
 * "Lists under headings make items"). A teacher sorts things into columns: "| Debit balances |
 * Credit balances |" with an account in each cell, "| Acidic oxides | Basic oxides |". A row of
 * such a table is no record (the cells of a row only share a line), so it gives no record item
 * (table-items.ts); but each column is a set, and the other columns are the things it is not:
 * "Which of the following is a credit balance?", the key a cell of that column, the distractors
 * cells of the others. Pure: no I/O.
 */
import { contentStems, words } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shuffled } from '../text/seed.js';
import { indefinite } from './repair.js';
import { FIGURES, line, type MaterialTable, type TableItem } from './table-types.js';

/** The longest member an option may be, in words. */
const MAX_MEMBER_WORDS = 6;

const lastWord = (h: string) => /(\p{L}+)\W*$/u.exec(h.toLowerCase())?.[1] ?? '';

/** Whether a header's last word is a plural noun ("Debit balances", "Basic oxides"; not "Process", "Cell"). */
function pluralHead(h: string): boolean {
  const head = tagSentence(h.toLowerCase()).filter((t) => /\p{L}/u.test(t.text)).pop();
  return !!head && head.pos === 'NOUN' && /[^su]s$/i.test(head.text);
}

/**
 * Whether a table lists members under its headings rather than a record per row (issue 39 §2,
 * rounds 51 and 52):
 * - a row with no first cell, or two rows with an empty cell or a dash (columns of unequal length);
 * - three headings or more ending alike ("Anglophone | Francophone | Lusophone");
 * - or headings of one plural noun with different qualifiers ("Debit balances | Credit balances").
 */
export function listTable(t: MaterialTable): boolean {
  const gaps = t.rows.filter((r) => r.some((c) => !c || /^[–—-]$/.test(c))).length;
  if (t.rows.some((r) => !r[0]) || gaps >= 2) return true;
  const ends = t.header.map((h) => /(\p{L}{4,})$/u.exec(h.toLowerCase())?.[1] ?? '');
  const tail = (a: string, b: string) => { let k = 0; while (k < Math.min(a.length, b.length) && a[a.length - 1 - k] === b[b.length - 1 - k]) k++; return k; };
  if (t.header.length >= 3 && ends.every((e) => e && tail(e, ends[0]!) >= 4)) return true;
  return t.header.length >= 2 && t.header.every((h) => words(h).length >= 2 && lastWord(h) === lastWord(t.header[0]!)) && new Set(t.header.map((h) => h.toLowerCase())).size === t.header.length && pluralHead(t.header[0]!);
}

/** "Debit balances" → "debit balance", or null when the header is no plural noun phrase of a few words. */
function singularOf(h: string, asText: (s: string) => string): string | null {
  if (!h || words(h).length > 4 || /[^\p{L}\s'’-]/u.test(h) || !pluralHead(h)) return null;
  const name = asText(h);
  return name.replace(/(\p{L}+)$/u, (w) => (/[^aeiou]ies$/i.test(w) ? w.slice(0, -3) + 'y' : /(?:sses|xes|ches|shes)$/i.test(w) ? w.slice(0, -2) : w.slice(0, -1)));
}

/**
 * Whether a cell names one member: words, short, not a label with its list ("Expenses: wages,
 * rent") or two members ("Cash in hand; cash at bank", "Rent / commission received").
 */
const memberLike = (c: string) => !!c && /\p{L}{2}/u.test(c) && !/[;:]|\s\/\s/.test(c) && words(c).length <= MAX_MEMBER_WORDS;

/** Whether two members are one thing: one's content words all among the other's ("Sales" and "Sales (revenue)"). */
function same(a: string, b: string): boolean {
  const sa = contentStems(a);
  const sb = contentStems(b);
  return !!sa.length && !!sb.length && (sa.every((x) => sb.includes(x)) || sb.every((x) => sa.includes(x)));
}

/**
 * The member items of a list table: per column whose header is a plural noun phrase, a member
 * of it as the key ("Which of the following is a credit balance?") and three members of the other
 * columns as distractors. A member found in two columns is no option. `asText` writes a header
 * as running text writes it (its first capital lowered where the prose does). None when the
 * table is no list table. Deterministic for a given `rand`.
 */
export function memberItems(t: MaterialTable, ti: number, rand: () => number, asText: (s: string) => string): TableItem[] {
  // (a column of figures makes it an account, "| Receipts | N | Payments | N |": its entries are no members to sort)
  const figures = (j: number) => t.rows.filter((r) => !!r[j] && FIGURES.test(r[j]!)).length * 2 >= t.rows.length;
  if (!listTable(t) || t.header.length < 2 || t.header.some((_, j) => figures(j))) return [];
  const columns = t.header.map((_, j) => t.rows.map((r) => r[j] ?? '').filter(memberLike));
  const everywhere = columns.flat();
  const single = (m: string, j: number) => columns.every((col, k) => k === j || !col.some((o) => same(o, m))) && everywhere.filter((o) => same(o, m)).length === 1;
  const out: TableItem[] = [];
  for (let j = 0; j < t.header.length; j++) {
    const kind = singularOf(t.header[j]!, asText);
    if (!kind) continue;
    const others = columns.flatMap((col, k) => (k === j ? [] : col.filter((m) => single(m, k))));
    if (others.length < 3) continue;
    for (const key of shuffled(columns[j]!.filter((m) => single(m, j)), rand)) {
      const distractors = shuffled(others, rand).slice(0, 3);
      const row = t.rows.find((r) => r[j] === key)!;
      out.push({ stem: `Which of the following is ${indefinite(kind)} ${kind}?`, key, distractors, header: line(t.header), row: line(row), citation: t.citation, form: 'member', place: `${ti}:${key}`, lane: `${ti}:m${j}` });
    }
  }
  return out;
}

/**
 * GIFT escaping (Moodle Docs, "GIFT format"; Moodle's qformat_gift): the characters
 * `~ = # { } :` and the backslash are written with a leading backslash, and a line
 * break inside a text is written `\n`, because a blank line ends a question.
 *
 * The parser first swaps every escape for a private-use placeholder so that the
 * structure (`{`, `}`, `=`, `~`, `#`, `::`) can be split with plain string operations,
 * then restores the literal characters in each text it keeps.
 */

const ESCAPES: Record<string, string> = {
  '\\': '\uE000',
  '~': '\uE001',
  '=': '\uE002',
  '#': '\uE003',
  '{': '\uE004',
  '}': '\uE005',
  ':': '\uE006',
};
const RESTORE = new Map(Object.entries(ESCAPES).map(([ch, ph]) => [ph, ch]));
const NEWLINE = '\uE007';

/** Replaces `\x` escapes with placeholders (`\n` becomes a newline placeholder). Unknown escapes stay as written. */
export function protectEscapes(text: string): string {
  return text.replace(/\\(.)/gs, (whole, ch: string) => (ch === 'n' ? NEWLINE : (ESCAPES[ch] ?? whole)));
}

/** Turns placeholders back into the literal characters they stand for. */
export function restoreEscapes(text: string): string {
  let out = '';
  for (const ch of text) out += ch === NEWLINE ? '\n' : (RESTORE.get(ch) ?? ch);
  return out;
}

/** Escapes a text for writing into a GIFT file (inverse of protect + restore). */
export function escapeGift(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\\~=#{}:]/g, (ch) => `\\${ch}`)
    .replace(/\n/g, '\\n');
}

/** Drops a leading `[markdown]`, `[html]`, `[plain]` or `[moodle]` text-format marker. */
export function stripFormatMarker(text: string): { text: string; format?: string } {
  const m = /^\s*\[(markdown|html|plain|moodle)\]\s*/i.exec(text);
  return m ? { text: text.slice(m[0].length), format: m[1]!.toLowerCase() } : { text };
}

/** One answer of a GIFT answer block: `=text#feedback`, `~%50%text`, `=a -> b`. */
export interface GiftAnswer {
  kind: '=' | '~';
  /** percentage weight given as `%n%`, if any */
  weight?: number;
  text: string;
  feedback?: string;
}

/**
 * Splits a (placeholder-protected) answer block body into its answers and the general
 * feedback (`####text`). Text before the first `=`/`~` is returned as `lead` (it holds
 * `T`/`F`, `#numeric`, or nothing).
 */
export function splitAnswers(body: string): { lead: string; answers: GiftAnswer[]; generalFeedback?: string } {
  let generalFeedback: string | undefined;
  const gf = body.indexOf('####');
  if (gf >= 0) {
    generalFeedback = body.slice(gf + 4).trim();
    body = body.slice(0, gf);
  }
  const parts = body.split(/(?=[=~])/);
  const lead = /^[=~]/.test(parts[0] ?? '') ? '' : (parts.shift() ?? '');
  const answers = parts.map((p): GiftAnswer => {
    const kind = p[0] as '=' | '~';
    let rest = p.slice(1);
    let weight: number | undefined;
    const w = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(rest);
    if (w) {
      weight = Number(w[1]);
      rest = rest.slice(w[0].length);
    }
    const hash = rest.indexOf('#');
    const text = (hash >= 0 ? rest.slice(0, hash) : rest).trim();
    const feedback = hash >= 0 ? rest.slice(hash + 1).trim() : undefined;
    return { kind, text, ...(weight !== undefined ? { weight } : {}), ...(feedback ? { feedback } : {}) };
  });
  return { lead, answers, ...(generalFeedback ? { generalFeedback } : {}) };
}

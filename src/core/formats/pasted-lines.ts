/**
 * What one line of a pasted paper is (issue 21): the classifiers behind the pasted-paper
 * reader (pasted-paper.ts). A paper copied as plain text from a website or a word
 * processor numbers its questions "1." / "1)" / "Q1." / "Question 1:", letters its
 * options "A." / "(A)" / "a)" / "[A]" (sometimes several on one line, separated by
 * tabs), and carries answers as "Answer: C" / "Ans: C" / "Key - C" lines after each
 * question or as an answer key at the end ("1. C 2. A …", "1-C", "| 1 | C |").
 * Worked solutions follow "Solution", "Explanation", "Working" or "Hint" labels, with or
 * without a colon, in any case. All functions are pure.
 *
 * Every classifier first collapses runs of white space to one space (`flat`): a pasted
 * line may hold thousands of spaces or tabs, and no pattern here may then backtrack
 * more than linearly.
 */

/** The line trimmed, with every run of white space (tabs included) as one space. */
export function flat(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** A numbered question line: its number and the text after the numbering ('' when none). */
export function questionStart(line: string): { number: number; text: string } | null {
  const m = /^(?:Q(?:uestion|n)? ?\.? ?(\d{1,4}) ?(?:[.):\-–—]|$)|\(?(\d{1,4}) ?[.)]|(\d{1,4}) ?:)(?: (.*)|)$/i.exec(flat(line));
  if (!m) return null;
  return { number: Number(m[1] ?? m[2] ?? m[3]), text: m[4] ?? '' };
}

const OPTION = /^(?:\(([A-Ja-j])\)|\[([A-Ja-j])\]|([A-Ja-j]) ?([.):]))(?: (.*)|)$/;

/** An option line: its letter (upper case), text, and label style ("(", "[", ".", ")" or ":", plus "a" when lower case). */
export function optionLine(line: string): { letter: string; text: string; style: string } | null {
  const m = OPTION.exec(flat(line));
  if (!m) return null;
  const raw = m[1] ?? m[2] ?? m[3]!;
  const style = m[1] ? '(' : m[2] ? '[' : m[4]!;
  return { letter: raw.toUpperCase(), text: m[5] ?? '', style: raw === raw.toLowerCase() ? `${style}a` : style };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits an option line that holds several options ("a) 0<TAB>b) 1<TAB>c) 3") at the
 * following letters in order and in the same label style; a letter out of order or in
 * another style stays part of the text.
 */
export function splitInlineOptions(first: { letter: string; text: string; style: string }): string[] {
  const texts: string[] = [];
  const lower = first.style.endsWith('a');
  const style = first.style.replace(/a$/, '');
  let rest = first.text;
  for (let code = first.letter.charCodeAt(0) + 1; code <= 74; code++) {
    const letter = lower ? String.fromCharCode(code).toLowerCase() : String.fromCharCode(code);
    const label = style === '(' ? `\\(${letter}\\)` : style === '[' ? `\\[${letter}\\]` : `${letter} ?${escape(style)}`;
    const m = new RegExp(String.raw` ${label} `).exec(rest);
    if (!m) break;
    texts.push(rest.slice(0, m.index).trim());
    rest = rest.slice(m.index + m[0].length);
  }
  texts.push(rest.trim());
  return texts;
}

/**
 * An answer line: "Answer: C", "Ans: (c)", "Key - C", "Correct answer is option C",
 * "ANSWER C". `letter` is set when the answer is a letter, else `text` holds what was
 * written (it may be an option's text). `rest` is text after the letter ("C. because …").
 */
export function answerLine(line: string): { letter?: string; text: string; rest: string } | null {
  const m = /^(?:the )?(?:correct )?(?:answer|ans|key|correct option)\b ?(?:is\b ?)?([:.\-–—=]?) ?(.*)$/i.exec(flat(line));
  if (!m || !m[2]) return null;
  const value = m[2];
  // a letter alone or followed by a delimiter; "C because …" only in upper case ("a boy …" is text)
  const l = /^(?:option ?)?([(\[])?([A-Ja-j])([)\]])?(?: ?[.:\-–—)] ?(.*)| (.*)|)$/i.exec(value);
  if (l && (l[5] === undefined || /[A-J]/.test(l[2]!) || l[1] || l[3])) return { letter: l[2]!.toUpperCase(), text: value, rest: (l[4] ?? l[5] ?? '').trim() };
  // "Answer: the text of an option" needs a delimiter ("Answer all questions" is an instruction)
  return m[1] && m[1] !== '.' ? { text: value, rest: '' } : null;
}

const SOLUTION = /^(solution|explanation|workings?|worked solution|hint)\b ?(?:[:.\-–—] ?)?(.*)$/i;

/** A worked-solution label line: which label ("hint" is kept in the text) and the text after it. */
export function solutionLine(line: string): { label: string; text: string } | null {
  const m = SOLUTION.exec(flat(line));
  if (!m) return null;
  return { label: m[1]!.toLowerCase(), text: m[2] ?? '' };
}

/** A heading that opens an answer key or a section of solutions at the end of a paper. */
export function keyHeading(line: string): boolean {
  return /^(?:answer ?keys?|answers?(?: ?(?:and|&|with) ?(?:solutions?|explanations?|workings?))?|keys?(?: to (?:the )?questions)?|correct answers|marking scheme|(?:worked )?solutions|explanations|answers? to (?:the )?questions) ?:?$/i.test(flat(line));
}

const PAIR = String.raw`(\d{1,4}) ?(?:[.):\-–—=] ?)?[(\[]?([A-Ja-j])[)\]]?`;

/**
 * The (question number, letter) pairs of an answer-key line such as "1. C 2. A 3. D",
 * "1-C, 2-A", "1) c" or a table row "| 1 | C |", or null when the line holds anything
 * else. Letters are returned in upper case.
 */
export function keyPairs(line: string): { number: number; letter: string }[] | null {
  // "Answers: 1. C 2. A" carries its heading on the same line
  const cells = flat(flat(line).replace(/^(?:answer ?keys?|answers?|keys?|correct answers) ?[:\-–—] ?/i, '').replace(/\|/g, ' '));
  if (!cells) return null;
  const whole = new RegExp(String.raw`^(?:${PAIR}(?:[ ,;]+|$))+$`);
  if (!whole.test(cells)) return null;
  return [...cells.matchAll(new RegExp(PAIR, 'g'))].map((m) => ({ number: Number(m[1]), letter: m[2]!.toUpperCase() }));
}

/** A table header or rule of an answer key ("Question | Answer", "Q/No  Key", "|---|---|"). */
export function keyTableHeader(line: string): boolean {
  const t = flat(line);
  return (t.includes('|') && /^[ |:+\-–—=]+$/.test(t)) || /^\|? ?(?:q(?:uestion)?s?\.?|no\.?|q\/no\.?|s\/n|number) ?\|? ?(?:answers?|keys?|options?|ans\.?) ?\|?$/i.test(t);
}

/**
 * Page furniture a copy carries between questions: "Page 2 of 5", "— 2 —", "Turn over",
 * "Continued on next page", and a website's sharing and navigation links.
 */
export function pageFurniture(line: string): boolean {
  const t = flat(line);
  return (
    /^page\s+\d+(?:\s*(?:of|\/)\s*\d+)?$/i.test(t) ||
    /^[-_=*~•.]{3,}$/.test(t) ||
    /^[-–—]+ ?\d{1,3} ?[-–—]+$/.test(t) ||
    /^(?:please\s+)?turn\s+over\.?$|^p\.?\s?t\.?\s?o\.?$|^(?:\(?continued(?:\s+on\s+(?:the\s+)?next\s+page)?\)?|contd\.?)$/i.test(t) ||
    /^(?:share\s+(?:this|on)\b|advertisement$|view\s+answers?\b|discuss(?:ion)?\s*(?:\(\d+\))?$|report\s+(?:an?\s+)?error\b|click\s+here\b|(?:https?:\/\/|www\.)\S+$|©|copyright\b|all\s+rights\s+reserved)/i.test(t)
  );
}

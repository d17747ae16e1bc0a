/**
 * The candidate calculator's arithmetic (issue 37 item 7): reads an expression as the
 * calculator shows it and computes it, without eval or new Function (the page's CSP
 * forbids both; docs/decisions.md, "The candidate's calculator"). No DOM: unit-tested.
 *
 * Grammar, loosest first (a recursive-descent parser, one function per level):
 *   sum     = product { ("+" | "−") product }        a ± b% is a ± (a × b / 100)
 *   product = unary { ("×" | "÷") unary | unary }     juxtaposition multiplies: 2π, 3(4), 2sin(30)
 *   unary   = ("−" | "+") unary | power               −2^2 = −4
 *   power   = postfix [ "^" unary ]                   right-associative: 2^3^2 = 2^9; 2^−1 = 0.5
 *   postfix = primary { "%" }                         x% = x / 100
 *   primary = number | "π" | "(" sum [")"] | fn ( "(" sum [")"] | unary )
 *   fn      = sin | cos | tan (degrees) | log (base 10) | ln | √
 * A ")" may be left out only at the very end (the calculator closes what is open).
 * ASCII forms are read too: - * / x and "sqrt", "pi". Numbers: 12, 0.5, .5, 5., 1.5e-7.
 */

/** A calculation the calculator refuses: its message is what the display shows. */
export class CalcError extends Error {}

const DIVIDE_BY_ZERO = 'Cannot divide by zero';
const MATH_ERROR = 'Math error';
const SYNTAX_ERROR = 'Syntax error';

type Token = { kind: 'num'; value: number } | { kind: 'op'; op: string } | { kind: 'fn'; name: string };

const FUNCTIONS = ['sqrt', 'sin', 'cos', 'tan', 'log', 'ln', '√'];
const ALIASES: Record<string, string> = { '-': '−', '*': '×', x: '×', '/': '÷', '·': '×' };

/** Splits an expression into numbers, operators and function names. @throws CalcError on a stray character */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:e[+−-]?\d+)?/i.exec(text.slice(i));
    if (num) {
      out.push({ kind: 'num', value: Number(num[0].replace('−', '-')) });
      i += num[0].length;
      continue;
    }
    const rest = text.slice(i).toLowerCase();
    const fn = FUNCTIONS.filter((f) => rest.startsWith(f))[0];
    if (fn) {
      out.push({ kind: 'fn', name: fn === 'sqrt' ? '√' : fn });
      i += fn.length;
      continue;
    }
    if (rest.startsWith('pi') || c === 'π') {
      out.push({ kind: 'num', value: Math.PI });
      i += c === 'π' ? 1 : 2;
      continue;
    }
    const op = ALIASES[c] || c;
    if ('+−×÷^%()'.indexOf(op) < 0) throw new CalcError(SYNTAX_ERROR);
    out.push({ kind: 'op', op });
    i++;
  }
  return out;
}

/** A number of degrees reduced to [0, 360). */
const turn = (deg: number) => ((deg % 360) + 360) % 360;
/** sin of the angles whose value is exact (a multiple of 30°), so sin 30 is 0.5 and sin 180 is 0 */
const EXACT_SIN: Record<number, number> = { 0: 0, 30: 0.5, 90: 1, 150: 0.5, 180: 0, 210: -0.5, 270: -1, 330: -0.5 };

function sinDeg(x: number): number {
  const r = turn(x);
  return r in EXACT_SIN ? EXACT_SIN[r]! : Math.sin((r * Math.PI) / 180);
}
const cosDeg = (x: number) => sinDeg(turn(x) + 90);
function tanDeg(x: number): number {
  const r = turn(x) % 180;
  if (r === 90) throw new CalcError(MATH_ERROR);
  if (r === 0) return 0;
  if (r === 45) return 1;
  if (r === 135) return -1;
  return Math.tan((r * Math.PI) / 180);
}

function apply(name: string, x: number): number {
  switch (name) {
    case 'sin':
      return sinDeg(x);
    case 'cos':
      return cosDeg(x);
    case 'tan':
      return tanDeg(x);
    case 'log':
    case 'ln':
      if (x <= 0) throw new CalcError(MATH_ERROR);
      return name === 'ln' ? Math.log(x) : Math.log10(x);
    default:
      if (x < 0) throw new CalcError(MATH_ERROR);
      return Math.sqrt(x);
  }
}

/** A finite number, or the calculator's error. */
function finite(x: number): number {
  if (!isFinite(x)) throw new CalcError(MATH_ERROR);
  return x;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  /** Reads the whole expression. */
  run(): number {
    if (!this.tokens.length) throw new CalcError(SYNTAX_ERROR);
    const v = this.sum();
    if (this.i < this.tokens.length) throw new CalcError(SYNTAX_ERROR);
    return finite(v);
  }

  private peekOp(): string | null {
    const t = this.tokens[this.i];
    return t && t.kind === 'op' ? t.op : null;
  }

  private startsOperand(): boolean {
    const t = this.tokens[this.i];
    return !!t && (t.kind !== 'op' || t.op === '(');
  }

  private sum(): number {
    let v = this.product().value;
    for (let op = this.peekOp(); op === '+' || op === '−'; op = this.peekOp()) {
      this.i++;
      const r = this.product();
      // a + b% adds b per cent of a, as a desk calculator does
      const rv = r.percent ? (v * r.value) : r.value;
      v = finite(op === '+' ? v + rv : v - rv);
    }
    return v;
  }

  /** A product, and whether it was a lone percentage (for a ± b%). */
  private product(): { value: number; percent: boolean } {
    const first = this.unary();
    let v = first.value;
    let percent = first.percent;
    for (;;) {
      const op = this.peekOp();
      if (op === '×' || op === '÷') this.i++;
      else if (!this.startsOperand()) break;
      const r = this.unary().value;
      percent = false;
      if (op === '÷') {
        if (r === 0) throw new CalcError(DIVIDE_BY_ZERO);
        v = finite(v / r);
      } else v = finite(v * r);
    }
    return { value: v, percent };
  }

  private unary(): { value: number; percent: boolean } {
    const op = this.peekOp();
    if (op === '−' || op === '+') {
      this.i++;
      const r = this.unary();
      return { value: op === '−' ? -r.value : r.value, percent: r.percent };
    }
    return this.power();
  }

  private power(): { value: number; percent: boolean } {
    const base = this.postfix();
    if (this.peekOp() !== '^') return base;
    this.i++;
    const exp = this.unary().value;
    if (base.value === 0 && exp < 0) throw new CalcError(DIVIDE_BY_ZERO);
    const v = Math.pow(base.value, exp);
    if (isNaN(v)) throw new CalcError(MATH_ERROR); // a negative number to a fractional power
    return { value: finite(v), percent: false };
  }

  private postfix(): { value: number; percent: boolean } {
    let v = this.primary();
    let percent = false;
    while (this.peekOp() === '%') {
      this.i++;
      v /= 100;
      percent = true;
    }
    return { value: v, percent };
  }

  private primary(): number {
    const t = this.tokens[this.i];
    if (!t) throw new CalcError(SYNTAX_ERROR);
    this.i++;
    if (t.kind === 'num') return t.value;
    if (t.kind === 'fn') return finite(apply(t.name, this.peekOp() === '(' ? this.primary() : this.unary().value));
    if (t.op !== '(') throw new CalcError(SYNTAX_ERROR);
    const v = this.sum();
    if (this.peekOp() === ')') this.i++;
    else if (this.i < this.tokens.length) throw new CalcError(SYNTAX_ERROR);
    return v;
  }
}

/**
 * Computes an expression as the calculator shows it, e.g. "2.5×(3+4)" → 17.5, "sin(30" → 0.5.
 * @returns a finite number (not rounded: see formatNumber)
 * @throws CalcError "Cannot divide by zero", "Math error" (log of 0, √ of a negative,
 *   tan 90, overflow) or "Syntax error"
 */
export function evaluate(expression: string): number {
  return new Parser(tokenize(expression)).run();
}

/**
 * How the display writes a number: 12 significant digits, so binary rounding never shows
 * (0.1 + 0.2 → "0.3"); exponent form from 10^12 and below 10^−9; "−" for minus.
 */
export function formatNumber(x: number): string {
  const n = Number(x.toPrecision(12));
  if (n === 0) return '0';
  const a = Math.abs(n);
  const text = a >= 1e12 || a < 1e-9 ? n.toExponential().replace(/\.?0+e/, 'e').replace('e+', 'e') : String(n);
  return text.replace('-', '−');
}

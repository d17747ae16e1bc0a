/**
 * The candidate calculator's state (issue 37 item 7): the expression being entered as a
 * list of entries (a digit, an operator, "sin(", a recalled number…), the last result,
 * the memory, and what each key does to them. No DOM: panel.ts draws it, and it is
 * unit-tested. Keys are named as the buttons read (CALC_KEYS).
 */
import { CalcError, evaluate, formatNumber } from './evaluate.js';

/** Every key of the scientific calculator; the basic one has those up to "=". */
export type CalcKey =
  | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '.'
  | '+' | '−' | '×' | '÷' | '%' | '(' | ')' | '±' | 'C' | 'CE' | '⌫' | '='
  | 'sin' | 'cos' | 'tan' | 'log' | 'ln' | '√' | '^' | 'π' | 'M+' | 'M−' | 'MR' | 'MC';

/** What the display shows. */
export interface CalcView {
  /** the upper line: the expression being entered, or the one just computed followed by " =" */
  expression: string;
  /** the main line: the result, an error message, or what is being entered ("0" when nothing) */
  value: string;
  error: boolean;
  /** something is in memory (the "M" indicator) */
  memory: boolean;
}

const BINARY = ['+', '−', '×', '÷', '^'];
const FUNCTION_KEYS: Record<string, string> = { sin: 'sin(', cos: 'cos(', tan: 'tan(', log: 'log(', ln: 'ln(', '√': '√(' };
const isDigitEntry = (e: string | undefined) => !!e && /^[0-9.]$/.test(e);
/** an entry after which a value has ended (so an operator may follow) */
const endsValue = (e: string | undefined) => !!e && (/[0-9.π%)]$/.test(e));

/** A number as an entry of the expression: negative ones in parentheses, so "(−5)^2" means what it shows. */
const numberEntry = (x: number) => (x < 0 ? `(${formatNumber(x)})` : formatNumber(x));

export class CalculatorModel {
  private entries: string[] = [];
  private done: { expression: string; value: number } | null = null;
  private error: string | null = null;
  private memory = 0;

  /** What the display shows now. */
  view(): CalcView {
    const memory = this.memory !== 0;
    if (this.done) return { expression: this.done.expression + ' =', value: formatNumber(this.done.value), error: false, memory };
    const expression = this.entries.join('');
    if (this.error) return { expression, value: this.error, error: true, memory };
    return { expression, value: expression || '0', error: false, memory };
  }

  /** Applies one key press. */
  press(key: CalcKey): void {
    const wasDone = this.done;
    this.error = null;
    if (key === '=') {
      this.equals();
      return;
    }
    if (key === 'C') {
      this.entries = [];
      this.done = null;
      return;
    }
    if (key === 'MC') {
      this.memory = 0;
      return;
    }
    if (key === 'M+' || key === 'M−') {
      const v = wasDone ? wasDone.value : this.equals();
      if (typeof v === 'number') this.memory += key === 'M+' ? v : -v;
      return;
    }
    this.done = null;
    // after "=", an operator goes on from the result; anything else starts afresh
    if (wasDone) this.entries = BINARY.indexOf(key) >= 0 || key === '%' || key === '±' ? [numberEntry(wasDone.value)] : [];
    if (key === '⌫') {
      if (!wasDone) this.entries.pop();
      return;
    }
    if (key === 'CE') return this.clearEntry();
    if (key === '±') return this.negate();
    const last = this.entries[this.entries.length - 1];
    if (/^[0-9]$/.test(key)) this.entries.push(key);
    else if (key === '.') {
      if (this.currentNumber().indexOf('.') >= 0) return;
      if (!isDigitEntry(last)) this.entries.push('0');
      this.entries.push('.');
    } else if (BINARY.indexOf(key) >= 0) {
      if (endsValue(last)) this.entries.push(key);
      else if (key === '−' && last !== '−') this.entries.push(key); // a minus sign: −3, 2×−3, (−
      else if (last && BINARY.indexOf(last) >= 0 && this.entries.length > 1) this.entries[this.entries.length - 1] = key; // a change of mind
    } else if (key === '%') {
      if (endsValue(last)) this.entries.push('%');
    } else if (key === ')') {
      if (this.openParens() > 0 && endsValue(last)) this.entries.push(')');
    } else if (key === '(' || key === 'π') this.entries.push(key);
    else if (key === 'MR') this.entries.push(numberEntry(this.memory));
    else if (FUNCTION_KEYS[key]) this.entries.push(FUNCTION_KEYS[key]!);
  }

  /** Computes the expression; returns its value, or undefined (an error is shown, the expression kept). */
  private equals(): number | undefined {
    if (this.done) return this.done.value;
    if (!this.entries.length) return undefined;
    const expression = this.entries.join('');
    try {
      const value = evaluate(expression);
      this.done = { expression: expression + ')'.repeat(Math.max(0, this.openParens())), value: Number(value.toPrecision(15)) };
      this.entries = [];
      return this.done.value;
    } catch (e) {
      this.error = e instanceof CalcError ? e.message : 'Error';
      return undefined;
    }
  }

  private openParens(): number {
    return this.entries.reduce((n, e) => n + (e.endsWith('(') ? 1 : e === ')' ? -1 : 0), 0);
  }

  /** Index of the first entry of the operand being entered (a run of digits, π, a recalled number), or entries.length. */
  private operandStart(): number {
    let i = this.entries.length;
    const last = this.entries[i - 1];
    if (last && (last === 'π' || (last.length > 1 && /^\(?−?\d/.test(last)))) return i - 1;
    while (i > 0 && isDigitEntry(this.entries[i - 1])) i--;
    return i;
  }

  private currentNumber(): string {
    return this.entries.slice(this.operandStart()).join('');
  }

  /** CE: drops the number being entered (or, when there is none, the last entry). */
  private clearEntry(): void {
    const start = this.operandStart();
    if (start < this.entries.length) this.entries.length = start;
    else this.entries.pop();
  }

  /** ±: puts a minus sign before the operand being entered, or takes it away. */
  private negate(): void {
    const start = this.operandStart();
    if (this.entries[start - 1] === '−' && (start === 1 || !endsValue(this.entries[start - 2]))) this.entries.splice(start - 1, 1);
    else this.entries.splice(start, 0, '−');
  }
}

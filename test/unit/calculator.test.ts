/**
 * The candidate calculator's arithmetic and keys (web/candidate/calculator/, issue 37
 * item 7): precedence, parentheses, degrees, errors instead of Infinity or NaN, a display
 * without binary rounding noise, and what C, CE, ⌫, ±, % and memory do.
 */
import { describe, expect, it } from 'vitest';
import { CalcError, evaluate, formatNumber } from '../../web/candidate/calculator/evaluate.js';
import { CalculatorModel, type CalcKey } from '../../web/candidate/calculator/model.js';

const show = (expression: string) => formatNumber(evaluate(expression));
const errorOf = (expression: string) => {
  try {
    evaluate(expression);
  } catch (e) {
    expect(e).toBeInstanceOf(CalcError);
    return (e as Error).message;
  }
  throw new Error(`${expression} gave no error`);
};

describe('evaluate', () => {
  it('follows precedence and parentheses', () => {
    expect(show('2.5×(3+4)')).toBe('17.5');
    expect(show('2.5*(3+4)')).toBe('17.5');
    expect(show('2+3×4')).toBe('14');
    expect(show('(2+3)×4')).toBe('20');
    expect(show('10−4−3')).toBe('3');
    expect(show('12÷4÷3')).toBe('1');
    expect(show('12/4*3')).toBe('9');
    expect(show('2^3^2')).toBe('512');
    expect(show('−2^2')).toBe('−4');
    expect(show('(−2)^2')).toBe('4');
    expect(show('2^−1')).toBe('0.5');
    expect(show('2×−3')).toBe('−6');
    expect(show('5−−3')).toBe('8');
    expect(show('((1+2)×(3+4))')).toBe('21');
    expect(show('.5+5.')).toBe('5.5');
  });

  it('closes parentheses left open at the end, and multiplies by juxtaposition', () => {
    expect(show('2×(3+4')).toBe('14');
    expect(show('sin(30')).toBe('0.5');
    expect(show('2π')).toBe(formatNumber(2 * Math.PI));
    expect(show('3(4)')).toBe('12');
    expect(show('(1+1)(2+2)')).toBe('8');
    expect(show('2sin(30)')).toBe('1');
  });

  it('works in degrees, with exact values where they are exact', () => {
    expect(show('sin(30)')).toBe('0.5');
    expect(show('sin 30')).toBe('0.5');
    expect(show('cos(60)')).toBe('0.5');
    expect(show('cos(90)')).toBe('0');
    expect(show('sin(180)')).toBe('0');
    expect(show('sin(−30)')).toBe('−0.5');
    expect(show('tan(45)')).toBe('1');
    expect(show('sin(390)')).toBe('0.5');
    expect(show('sin(45)')).toBe('0.707106781187');
    expect(show('tan(60)')).toBe('1.73205080757');
    expect(errorOf('tan(90)')).toBe('Math error');
    expect(errorOf('tan(270)')).toBe('Math error');
  });

  it('has log, ln, √, powers and π', () => {
    expect(show('log(1000)')).toBe('3');
    expect(show('ln(1)')).toBe('0');
    expect(show('ln(π^0)')).toBe('0');
    expect(show('√(16)')).toBe('4');
    expect(show('sqrt(2)^2')).toBe('2');
    expect(show('π')).toBe('3.14159265359');
    expect(show('pi×2')).toBe('6.28318530718');
    expect(show('2^10')).toBe('1024');
  });

  it('gives an error, never Infinity or NaN', () => {
    expect(errorOf('1÷0')).toBe('Cannot divide by zero');
    expect(errorOf('5/(3−3)')).toBe('Cannot divide by zero');
    expect(errorOf('0^−1')).toBe('Cannot divide by zero');
    expect(errorOf('log(0)')).toBe('Math error');
    expect(errorOf('ln(−1)')).toBe('Math error');
    expect(errorOf('√(−4)')).toBe('Math error');
    expect(errorOf('(−8)^(1÷3)')).toBe('Math error');
    expect(errorOf('10^400')).toBe('Math error');
    expect(errorOf('')).toBe('Syntax error');
    expect(errorOf('2+')).toBe('Syntax error');
    expect(errorOf('×3')).toBe('Syntax error');
    expect(errorOf('(2))')).toBe('Syntax error');
    expect(errorOf('2$3')).toBe('Syntax error');
    // the calculator reads its input; nothing in it is run as code
    expect(errorOf('alert(1)')).toBe('Syntax error');
    expect(errorOf('constructor')).toBe('Syntax error');
  });

  it('takes a per cent: x% is x/100, and a ± b% is a ± b per cent of a', () => {
    expect(show('50%')).toBe('0.5');
    expect(show('200×10%')).toBe('20');
    expect(show('200+10%')).toBe('220');
    expect(show('200−10%')).toBe('180');
    expect(show('200+10%×2')).toBe('200.2');
  });
});

describe('formatNumber', () => {
  it('hides binary rounding and writes large and small numbers in exponent form', () => {
    expect(show('0.1+0.2')).toBe('0.3');
    expect(show('0.3−0.1')).toBe('0.2');
    expect(show('1.1×1.1')).toBe('1.21');
    expect(show('1÷3')).toBe('0.333333333333');
    expect(show('2÷3')).toBe('0.666666666667');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(123456789012)).toBe('123456789012');
    expect(formatNumber(1234567890123)).toBe('1.23456789012e12');
    expect(formatNumber(1.5e-10)).toBe('1.5e−10');
    expect(formatNumber(0.000001)).toBe('0.000001');
    // what the display shows reads back as the same number
    expect(evaluate('1.5e−10')).toBe(1.5e-10);
    expect(evaluate('1.23456789012e12')).toBe(1234567890120);
  });
});

describe('CalculatorModel', () => {
  const keys = (m: CalculatorModel, seq: CalcKey[]) => {
    for (const k of seq) m.press(k);
    return m.view();
  };
  const typed = (text: string) => [...text] as CalcKey[];

  it('computes what is entered, and shows the expression with its result', () => {
    const m = new CalculatorModel();
    expect(m.view()).toEqual({ expression: '', value: '0', error: false, memory: false });
    expect(keys(m, [...typed('2.5×(3+4'), '='])).toEqual({ expression: '2.5×(3+4) =', value: '17.5', error: false, memory: false });
    // an operator goes on from the result; a digit starts afresh
    expect(keys(m, [...typed('÷7'), '=']).value).toBe('2.5');
    expect(keys(m, [...typed('9'), '=']).value).toBe('9');
    expect(keys(m, ['sin', ...typed('30'), '='])).toMatchObject({ expression: 'sin(30) =', value: '0.5' });
  });

  it('keeps the expression after an error, for the candidate to correct', () => {
    const m = new CalculatorModel();
    expect(keys(m, [...typed('8÷0'), '='])).toEqual({ expression: '8÷0', value: 'Cannot divide by zero', error: true, memory: false });
    expect(keys(m, ['⌫', '4', '=']).value).toBe('2');
  });

  it('C clears all, CE the number being entered, ⌫ the last key', () => {
    const m = new CalculatorModel();
    expect(keys(m, typed('12+345')).value).toBe('12+345');
    expect(keys(m, ['CE']).value).toBe('12+');
    expect(keys(m, ['6', '⌫', '7']).value).toBe('12+7');
    expect(keys(m, ['C']).value).toBe('0');
    expect(keys(m, ['sin', '⌫']).value).toBe('0');
  });

  it('refuses a second decimal point and doubled operators; ± toggles the sign', () => {
    const m = new CalculatorModel();
    expect(keys(m, typed('1.2.3')).value).toBe('1.23');
    expect(keys(m, typed('+×')).value).toBe('1.23×');
    expect(keys(m, ['−', '2', '=']).value).toBe('−2.46');
    expect(keys(m, ['±']).value).toBe('−(−2.46)');
    expect(keys(m, ['=']).value).toBe('2.46');
    m.press('C');
    expect(keys(m, ['5', '±']).value).toBe('−5');
    expect(keys(m, ['±']).value).toBe('5');
    expect(keys(m, ['.', '5']).value).toBe('5.5');
    m.press('C');
    expect(keys(m, ['.', '5', '=']).value).toBe('0.5');
    m.press('C');
    expect(keys(m, ['8', ')']).value).toBe('8');
  });

  it('keeps a memory: M+, M−, MR, MC', () => {
    const m = new CalculatorModel();
    expect(keys(m, [...typed('2×3'), 'M+'])).toMatchObject({ value: '6', memory: true });
    expect(keys(m, [...typed('1'), 'M−', 'C', 'MR'])).toMatchObject({ value: '5', memory: true });
    expect(keys(m, [...typed('×2'), '=']).value).toBe('10');
    expect(keys(m, ['MC', 'MR'])).toMatchObject({ value: '0', memory: false });
    // a negative memory comes back in parentheses
    m.press('C');
    keys(m, [...typed('0−4'), 'M+', 'C', 'MR', '^', '2', '=']);
    expect(m.view().value).toBe('16');
  });
});

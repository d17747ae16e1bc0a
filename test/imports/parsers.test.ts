/**
 * Question-bank parsers on small files written for these tests (test/fixtures/imports/,
 * see its README): Aiken, GIFT and Moodle XML, plus format detection and the GIFT
 * export → import round trip.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAiken } from '../../src/core/formats/aiken.js';
import { parseGift } from '../../src/core/formats/gift.js';
import { toGift } from '../../src/core/formats/gift-export.js';
import { parseMoodleXml } from '../../src/core/formats/moodle-xml.js';
import { detectFormat, parseQuestionBank } from '../../src/core/formats/detect.js';
import { BankFormatError, type ImportedQuestion } from '../../src/core/formats/types.js';
import { canonical } from './canonical.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');
const key = (q: ImportedQuestion) => q.options?.find((o) => o.isCorrect)?.keyLabel;

describe('Aiken', () => {
  const r = parseAiken(fixture('sample-aiken.txt'));

  it('reads questions with "A." and "A)" options, multi-line prompts and any-case ANSWER', () => {
    expect(r.questions.map((q) => q.prompt)).toEqual([
      'What is the capital of Nigeria?',
      'Which gas do plants take in\nduring photosynthesis?',
      'Which of these is a prime number?',
      'Which is heavier?',
    ]);
    expect(r.questions.map(key)).toEqual(['B', 'C', 'C', 'D']);
    expect(r.questions[0]!.options!.map((o) => o.text)).toEqual(['Lagos', 'Abuja', 'Kano', 'Ibadan']);
    expect(r.lines).toEqual([1, 8, 14, 25]);
  });

  it('skips a question without an answer (and warns) and one whose answer names no option', () => {
    expect(r.skipped).toEqual([
      { index: 3, line: 21, reason: 'missing answer: no "ANSWER:" line after the options' },
      { index: 5, line: 32, reason: 'answer "E" does not name one of the options A–B' },
    ]);
    expect(r.warnings.some((w) => w.line === 21 && /missing answer/.test(w.message))).toBe(true);
  });

  it('warns about duplicate option texts', () => {
    expect(r.warnings).toContainEqual({ index: 3, line: 25, message: 'Options A and C have the same text ("A kilogram of iron").' });
  });
});

describe('GIFT', () => {
  const r = parseGift(fixture('sample.gift'));

  it('maps multiple choice, true/false, short answer, missing word and essay', () => {
    expect(r.questions.map((q) => q.type)).toEqual(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY', 'MCQ', 'LONG_ESSAY', 'MCQ']);
    const [grant, tf, short, missing, essay, escaped] = r.questions;
    expect(grant).toMatchObject({ prompt: "Who is buried in Grant's tomb in New York City?", section: 'General', explanation: 'The tomb holds Ulysses S. Grant and his wife.' });
    expect(grant!.options!.map((o) => o.text)).toEqual(['Grant', 'No one', 'Napoleon', 'Churchill']);
    expect(key(grant!)).toBe('A');
    expect(tf!.options).toEqual([
      { keyLabel: 'A', text: 'True', isCorrect: true },
      { keyLabel: 'B', text: 'False', isCorrect: false },
    ]);
    expect(short).toMatchObject({ prompt: 'Two plus two equals _____.', modelAnswer: 'four / 4', minWords: 20, maxWords: 100 });
    expect(missing!.prompt).toBe("Mahatma Gandhi's birthday is an _____ holiday.");
    expect(key(missing!)).toBe('B');
    expect(essay).toMatchObject({ type: 'LONG_ESSAY', minWords: 150, maxWords: 800 });
    expect(escaped!.prompt).toBe('Solve {x}: the equation $x = 2$ has which root?');
    expect(escaped!.options!.map((o) => o.text)).toEqual(['2', '~2', '#3']);
  });

  it('skips matching and numerical questions with the reason', () => {
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'matching question: not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)',
      'numerical question: not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)',
    ]);
  });

  it('round-trips: toGift → parseGift gives the same questions', () => {
    const qs: ImportedQuestion[] = [
      {
        type: 'MCQ',
        prompt: 'Evaluate $\\frac{1}{2} + \\frac{1}{4}$:\n\nGive the # in lowest ~ terms = ?',
        marks: 2.5,
        options: [
          { keyLabel: 'A', text: '3/4', isCorrect: true },
          { keyLabel: 'B', text: 'a: b', isCorrect: false },
          { keyLabel: 'C', text: 'C:\\path', isCorrect: false },
        ],
        explanation: 'Common denominator 4.\nSo 2/4 + 1/4.',
        section: 'Fractions',
      },
      { type: 'TRUE_FALSE', prompt: 'Zero is even.', marks: 1, options: [{ keyLabel: 'A', text: 'True', isCorrect: true }, { keyLabel: 'B', text: 'False', isCorrect: false }] },
      { type: 'TRUE_FALSE', prompt: 'One is prime.', marks: 1, options: [{ keyLabel: 'A', text: 'True', isCorrect: false }, { keyLabel: 'B', text: 'False', isCorrect: true }], section: 'Numbers' },
      { type: 'SHORT_ESSAY', prompt: 'Define a prime.', marks: 3, minWords: 10, maxWords: 60, modelAnswer: 'A number with exactly two divisors {1, itself}.' },
      { type: 'SHORT_ESSAY', prompt: 'Name a prime.', marks: 1, minWords: 20, maxWords: 100 },
      {
        type: 'LONG_ESSAY',
        prompt: 'Discuss Euclid.',
        marks: 10,
        minWords: 150,
        maxWords: 800,
        modelAnswer: 'Infinitely many primes.',
        rubric: { name: 'WAEC', totalMarks: 10, criteria: [{ id: 'c1', title: 'Content', maxMarks: 6 }, { id: 'c2', title: 'Expression', maxMarks: 4, description: 'Clarity' }] },
      },
    ];
    const back = parseGift(toGift(qs, 'Round trip'));
    expect(back.skipped).toEqual([]);
    expect(canonical(back.questions)).toEqual(canonical(qs));
  });
});

describe('Moodle XML', () => {
  const r = parseMoodleXml(fixture('sample-moodle.xml'));

  it('maps multichoice, truefalse, shortanswer and essay with marks, feedback and category', () => {
    expect(r.questions.map((q) => [q.type, q.marks, q.section])).toEqual([
      ['MCQ', 2, 'Physics'],
      ['TRUE_FALSE', 1, 'Physics'],
      ['SHORT_ESSAY', 1, 'Physics'],
      ['LONG_ESSAY', 10, 'Physics'],
    ]);
    expect(r.questions[0]).toMatchObject({ prompt: 'What is the SI unit of speed?', explanation: 'Distance (m) over time (s).' });
    expect(r.questions[0]!.options!.map((o) => [o.text, o.isCorrect])).toEqual([
      ['m/s²', false],
      ['m/s', true],
      ['km', false],
    ]);
    expect(key(r.questions[1]!)).toBe('A');
    expect(r.questions[2]!.modelAnswer).toBe('Accra');
    expect(r.questions[3]).toMatchObject({ modelAnswer: 'Energy is neither created nor destroyed.', minWords: 150, maxWords: 400 });
  });

  it('skips unsupported types and multiple-response questions, with line numbers', () => {
    expect(r.skipped).toEqual([
      { index: 4, line: 39, reason: 'Moodle question type "numerical": not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)' },
      { index: 5, line: 44, reason: 'multiple-response question (several answers may be chosen): not supported' },
    ]);
  });

  it('rejects malformed XML with the line of the problem', () => {
    expect(() => parseMoodleXml('<quiz>\n<question type="essay">\n</quiz>')).toThrow(BankFormatError);
    try {
      parseMoodleXml('<quiz>\n<question type="essay">\n</quiz>');
    } catch (e) {
      expect((e as BankFormatError).line).toBe(3);
    }
  });
});

describe('format detection', () => {
  it('recognises each format', () => {
    expect(detectFormat(fixture('sample-aiken.txt'))).toBe('aiken');
    expect(detectFormat(fixture('sample.gift'))).toBe('gift');
    expect(detectFormat(fixture('sample-moodle.xml'))).toBe('moodle-xml');
    expect(detectFormat('# Paper\n\n**1.** What?\n   A) x\n   B) y\n**Answer: A**\n')).toBe('past-paper');
    expect(detectFormat('Just some notes about photosynthesis.')).toBeNull();
  });

  it('throws a helpful error when nothing is recognised and honours an explicit format', () => {
    expect(() => parseQuestionBank('hello')).toThrow(/not recognised/);
    expect(parseQuestionBank('Q?\nA. x\nB. y\nANSWER: A', 'aiken').format).toBe('aiken');
  });
});

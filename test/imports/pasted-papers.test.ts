/**
 * Pasted papers (issue 21, part 1) on pastes written for these tests in the shapes that
 * web copies and word-processor exports of WAEC / NECO / UTME papers take
 * (test/fixtures/imports/pasted/): numbering "1." / "1)" / "Q1." / "Question 1:", options
 * "A." / "(A)" / "a)" / several on one line, answers inline or in a key at the end, worked
 * solutions over several lines, page furniture. Every shape checks that no prompt holds
 * another question's answer or solution, that the keys are right and that the numbering
 * is gone from the prompts. The hold-out pastes are measured in hold-out.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, parseQuestionBank } from '../../src/core/formats/detect.js';
import { parsePastedPaper } from '../../src/core/formats/pasted-paper.js';
import { keyHeading } from '../../src/core/formats/pasted-lines.js';
import type { ParseResult } from '../../src/core/formats/types.js';
import { expectCleanPrompts, pasted } from './pasted-helpers.js';

const keys = (r: ParseResult) => r.questions.map((q) => q.options?.find((o) => o.isCorrect)?.keyLabel);

describe('pasted papers: detection', () => {
  it('recognises every shape as a pasted paper, and leaves the other formats alone', () => {
    for (const n of [1, 2, 3, 5, 6, 7]) {
      const name = ['', 'shape-1-utme-maths-inline-solutions.txt', 'shape-2-waec-biology-brackets.txt', 'shape-3-neco-key-at-end.txt', '', 'shape-5-web-inline-options.txt', 'shape-6-mixed-key-lines.txt', 'shape-7-defects.txt'][n]!;
      expect(detectFormat(pasted(name)), name).toBe('pasted-paper');
    }
    expect(detectFormat(pasted('shape-4-word-tabs-key-table.txt'))).toBe('pasted-paper');
    expect(detectFormat('What is 2+2?\nA. 3\nB. 4\nANSWER: B\n')).toBe('aiken');
    expect(detectFormat('# Paper\n\n**1.** What?\n   A) x\n   B) y\n**Answer: A**\n')).toBe('past-paper');
    expect(detectFormat('1. Answer all questions.\n2. Write your name on the sheet.')).toBeNull();
  });
});

describe('pasted papers: shapes', () => {
  it('1. "1." numbering, "A." options, "Answer:" and multi-line "Solution:" after each question (UTME web copy)', () => {
    const r = parsePastedPaper(pasted('shape-1-utme-maths-inline-solutions.txt'));
    expect(keys(r)).toEqual(['B', 'B', 'B', 'B', 'B', 'B']);
    expect(r.skipped).toEqual([]);
    expectCleanPrompts(r);
    expect(r.questions[0]!.prompt).toBe('If 2^(x+1) = 32, find x.');
    expect(r.questions[1]!.explanation).toBe('x^2 - 9 = (x - 3)(x + 3)\nDividing by (x - 3) leaves x + 3.');
    // a blank line inside a stem is kept
    expect(r.questions[2]!.prompt).toBe('The mean of 4, 7, x and 9 is 6. Find x.\n\n(Give your answer as a whole number.)');
    expect(r.questions[2]!.explanation).toBe('(4 + 7 + x + 9)/4 = 6\n20 + x = 24\nx = 4');
    expect(r.questions[5]!.prompt).toMatch(/^A bag holds 3 red/);
    expect(r.lines).toEqual([3, 11, 21, 33, 41, 49]);
    // the title line is reported, not imported
    expect(r.warnings).toContainEqual({ line: 1, message: expect.stringMatching(/^Lines 1–1 come before the first question/) });
  });

  it('2. "1)" numbering, "(A)" options, "Ans:", labels with and without colon in any case, page furniture', () => {
    const r = parsePastedPaper(pasted('shape-2-waec-biology-brackets.txt'));
    expect(keys(r)).toEqual(['B', 'C', 'C', 'B', 'B']);
    expectCleanPrompts(r);
    expect(r.questions.map((q) => q.explanation)).toEqual([
      'The mitochondrion holds the enzymes of the Krebs cycle and the electron transport chain.',
      'balance and posture are co-ordinated in the cerebellum.',
      'TT, Tt, Tt are tall and tt is dwarf.\nSo 3 tall : 1 dwarf.',
      undefined,
      'cacti store water and have spines instead of leaves to cut water loss.',
    ]);
    expect(r.questions[2]!.prompt).toBe('In a monohybrid cross between two heterozygous tall plants (Tt x Tt), the ratio of tall to dwarf offspring is');
    expect(r.questions[3]!.options!.map((o) => o.text)).toEqual(['Pulmonary artery', 'Pulmonary vein', 'Vena cava', 'Aorta']);
    const furniture = r.warnings.filter((w) => /page furniture/.test(w.message));
    expect(furniture.map((w) => w.line)).toEqual([19, 38]);
  });

  it('3. "Q1." numbering, "a)" options, answer key at the end on one line', () => {
    const r = parsePastedPaper(pasted('shape-3-neco-key-at-end.txt'));
    expect(keys(r)).toEqual(['C', 'A', 'D', 'B', 'A']);
    expect(r.skipped).toEqual([]);
    expectCleanPrompts(r);
    expect(r.questions[0]!.prompt).toBe('The reward for labour as a factor of production is');
    expect(r.questions[4]!.options!.map((o) => o.text)).toEqual(['1958', '1960', '1963', '1970']);
    expect(r.questions.every((q) => q.explanation === undefined)).toBe(true);
  });

  it('4. word-processor export: tab after the number, an option wrapped onto two lines, answer key as a table', () => {
    const r = parsePastedPaper(pasted('shape-4-word-tabs-key-table.txt'));
    expect(keys(r)).toEqual(['B', 'B', 'B', 'A']);
    expectCleanPrompts(r);
    expect(r.questions[0]!.prompt).toBe('The principle of separation of powers is associated with');
    expect(r.questions[2]!.options![2]!.text).toBe('Supremacy of the\nhead of state');
    expect(r.warnings.filter((w) => /left out|could not/.test(w.message) && !/furniture/.test(w.message))).toEqual([]);
  });

  it('5. "Question 1:" numbering, four options on one line, "Correct Answer: Option B", hints, site furniture', () => {
    const r = parsePastedPaper(pasted('shape-5-web-inline-options.txt'));
    expect(keys(r)).toEqual(['A', 'B', 'B']);
    expectCleanPrompts(r);
    expect(r.questions[1]!.options!.map((o) => o.text)).toEqual(['joule', 'watt', 'newton', 'pascal']);
    expect(r.questions[0]!.explanation).toBe('Hint: velocity does not change, so there is no acceleration.');
    expect(r.questions[2]!.explanation).toBe('KE = (1/2)mv^2 = (1/2)(2)(3^2) = 9 J');
    expect(r.warnings.filter((w) => /page furniture/.test(w.message))).toHaveLength(7);
  });

  it('6. "Key - B", lower-case "answer: b", "Answer C" without colon, numbered steps and blank lines inside a solution, an unlabelled note', () => {
    const r = parsePastedPaper(pasted('shape-6-mixed-key-lines.txt'));
    expect(keys(r)).toEqual(['B', 'B', 'C', 'D']);
    expect(r.skipped).toEqual([]);
    expectCleanPrompts(r);
    expect(r.questions[0]!.prompt).toBe('How many moles are there in 44 g of CO2? [C = 12, O = 16]\n\nTake the molar mass from the relative atomic masses given.');
    expect(r.questions[0]!.explanation).toBe('1. Molar mass of CO2 = 12 + 2(16) = 44 g/mol\n2. Moles = mass/molar mass = 44/44\n\nSo the answer is 1.0 mol.');
    expect(r.questions[1]!.explanation).toBe('sodium is in group I.');
    expect(r.questions[3]!.explanation).toBe('K = +1, O = -2 each\n+1 + x + 4(-2) = 0\nx = +7');
    // the note after question 3's answer has no label: kept as its explanation, and said so
    expect(r.questions[2]!.explanation).toBe('Note from the teacher: revise the pH scale before Friday.');
    expect(r.warnings).toContainEqual({ index: 2, line: 25, message: expect.stringMatching(/^Line 31 .* without a "Solution:" or "Explanation:" label/) });
  });

  it('7. defects are reported by line, never guessed: a wrong answer letter, an answer given as option text, a key entry for a missing question', () => {
    const r = parsePastedPaper(pasted('shape-7-defects.txt'));
    expect(r.questions.map((q) => q.prompt)).toEqual(['Which planet is closest to the sun?', 'Lagos is in which geopolitical zone?']);
    expect(keys(r)).toEqual(['B', 'A']);
    expect(r.skipped).toEqual([{ index: 1, line: 9, reason: 'question 2: answer "E" (line 14) does not name one of its options A–D' }]);
    expect(r.warnings).toContainEqual({ line: 14, message: 'Question 2: the answer "E" on line 14 names no option; the question was skipped.' });
    expect(r.warnings).toContainEqual({ line: 24, message: 'Line 24: the answer key gives C for question 9, but the paper has no question 9.' });
  });

  it('says which lines it could not place, and a stray line never joins a prompt', () => {
    const text = '1. First?\nA. x\nB. y\n\nSee the diagram on page 4\nAnswer: A\n\n2. Second?\nA. p\nB. q\nAns: B\n';
    const r = parsePastedPaper(text);
    expect(keys(r)).toEqual(['A', 'B']);
    expect(r.questions.map((q) => q.prompt)).toEqual(['First?', 'Second?']);
    expect(r.warnings).toContainEqual({ line: 5, message: 'Line 5 "See the diagram on page 4" follows the options of question 1 after a blank line and is neither an option nor an answer; it was left out.' });
  });

  it('knows the usual headings of an answer key, and keeps "Solution" alone as a label', () => {
    for (const h of ['ANSWER KEY', 'Answers:', 'ANSWERS WITH EXPLANATION', 'Answers and Solutions', 'Key to the questions', 'WORKED SOLUTIONS', 'Marking scheme']) expect(keyHeading(h), h).toBe(true);
    for (const l of ['Solution', 'Explanation:', 'Answer all questions', 'Key - C']) expect(keyHeading(l), l).toBe(false);
  });

  it('goes through parseQuestionBank with format "pasted-paper"', () => {
    const { format, result } = parseQuestionBank(pasted('shape-3-neco-key-at-end.txt'));
    expect(format).toBe('pasted-paper');
    expect(result.questions).toHaveLength(5);
  });
});

describe('pasted papers: stems with statements numbered in roman', () => {
  it('a question whose stem lists I./II./III. after a question answered without a solution is still a new question', () => {
    const text = [
      '7. Rust is an example of',
      'A. a physical change',
      'B. a chemical change',
      'Answer: B',
      '',
      '8. Which of the statements below are true of enzymes?',
      'I. They are proteins',
      'II. They are destroyed by boiling',
      'V. They work at any pH',
      'A. I and II only',
      'B. I and V only',
      'C. II and V only',
      'Answer: A',
    ].join('\n');
    const r = parsePastedPaper(text);
    expect(r.questions.map((q) => q.prompt)).toEqual([
      'Rust is an example of',
      'Which of the statements below are true of enzymes?\nI. They are proteins\nII. They are destroyed by boiling\nV. They work at any pH',
    ]);
    expect(keys(r)).toEqual(['B', 'A']);
    expect(r.questions[0]!.explanation).toBeUndefined();
    expectCleanPrompts(r);
  });
});

describe('pasted papers: hostile lines', () => {
  // Before the patterns worked on collapsed white space, 20 "1 A" pairs ending in "!" took
  // half a second and each pair doubled it (40 pairs: days); runs of spaces were quadratic.
  it('reads long runs of key pairs, spaces and bars without runaway backtracking', () => {
    const lines = ['1 A '.repeat(40) + '!', `Answer${' '.repeat(20_000)}x`, `1.${' '.repeat(20_000)}x`, '|'.repeat(20_000) + 'x', `Q${'\t'.repeat(20_000)}1`];
    const r = parsePastedPaper(['1. First?', 'A. x', 'B. y', 'Ans: A', ...lines].join('\n'));
    expect(keys(r)).toEqual(['A']);
    expect(r.questions[0]!.prompt).toBe('First?');
  }, 10_000);
});

describe('pasted papers without numbers', () => {
  it('8. Aiken-shaped questions with "Solution:" / "Ans:" / "Key -" lines: solutions stay with their question, never the next prompt', () => {
    const text = pasted('shape-8-unnumbered-aiken-with-solutions.txt');
    expect(detectFormat(text)).toBe('pasted-paper');
    const r = parsePastedPaper(text);
    expect(r.questions.map((q) => q.prompt)).toEqual(['What is the value of 3^4?', 'Which of these is a factor of 35?', 'If y = 2x + 1 and x = 3, find y.']);
    expect(keys(r)).toEqual(['C', 'B', 'C']);
    expect(r.questions.map((q) => q.explanation)).toEqual(['3^4 = 3 × 3 × 3 × 3 = 81', '35 = 5 × 7\nso 5 divides 35 exactly.', undefined]);
    expectCleanPrompts(r);
    expect(r.warnings).toEqual([]);
  });
});

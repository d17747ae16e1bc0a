/**
 * The exam settings form, shared by "new exam" and "edit exam". The window's
 * date-time pickers are in the hall's local time; `readExamForm` converts them to UTC
 * ISO 8601 as the API stores them (docs/api-overview.md, "Exam": startsAt/endsAt UTC).
 */
import { field, h } from '../dom.js';
import { hallTimeZone, localInputToUtcIso, utcIsoToLocalInput } from '../time.js';
import type { Exam } from '../types.js';

/** Most characters of an exam's instructions (the API refuses more: src/core/exams/schemas.ts). */
const MAX_INSTRUCTIONS = 5000;

/** The exam's calculator choices (the API's `calculator`: src/core/exams/schemas.ts). */
const CALCULATORS: [NonNullable<Exam['calculator']>, string][] = [
  ['none', 'None'],
  ['basic', 'Basic (+ − × ÷, %, ±, brackets)'],
  ['scientific', 'Scientific (also sin, cos, tan in degrees, log, ln, √, xʸ, π, memory)'],
];

/** Builds the form controls, pre-filled from `exam` when editing. */
export function examFormFields(exam?: Partial<Exam>): HTMLElement[] {
  const check = (name: string, label: string, checked: boolean) =>
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name, checked }), ' ', label);
  const nudge = exam ? [] : [h('div', { class: 'banner warn', id: 'roster-nudge', role: 'note' },
    h('strong', null, 'Add a roster after creating the exam (Candidates). '),
    'Without one the room is open: anyone who knows the room code can choose any student ID — a classmate’s too — and each computer may start the exam once. With a roster each candidate signs in with the PIN issued to them.')];
  return [
    ...nudge,
    h('div', { class: 'grid2' },
      field('Title', h('input', { name: 'title', required: true, maxlength: 200, value: exam?.title ?? '' })),
      field('Duration (minutes)', h('input', { name: 'durationMins', type: 'number', required: true, min: 1, max: 600, value: exam?.durationMins ?? 60 })),
      field(`Opens (${hallTimeZone()})`, h('input', { name: 'startsAt', type: 'datetime-local', value: utcIsoToLocalInput(exam?.startsAt) }), 'Leave empty to open as soon as it is published.'),
      field(`Closes (${hallTimeZone()})`, h('input', { name: 'endsAt', type: 'datetime-local', value: utcIsoToLocalInput(exam?.endsAt) }), 'Nobody can write after this time.'),
      h('p', { class: 'hint', id: 'window-zone' }, `Opening and closing times are in the hall’s local time, ${hallTimeZone()} (this computer’s time zone); the server stores them in UTC.`),
      field('Room code', h('input', { name: 'accessCode', maxlength: 32, pattern: '[A-Za-z0-9-]{4,32}', value: exam?.accessCode ?? '', placeholder: exam ? '' : 'generated if empty', class: 'mono' })),
      field('Violations allowed before disqualification', h('input', { name: 'maxTabViolations', type: 'number', min: 0, max: 100, value: exam?.maxTabViolations ?? 3 })),
      field('Calculator', h('select', { name: 'calculator', id: 'exam-calculator' }, CALCULATORS.map(([value, label]) => h('option', { value, selected: (exam?.calculator ?? 'none') === value }, label))),
        'The on-screen calculator candidates may open (a button and Alt+C on their page).')),
    field('Instructions to candidates', h('textarea', { name: 'instructions', id: 'exam-instructions', rows: 4, maxlength: MAX_INSTRUCTIONS, placeholder: 'e.g. Answer all questions in Section A and two in Section B. Calculators are not allowed.' }, exam?.instructions ?? ''),
      `Optional. Shown on the candidate's instructions screen before the clock starts. Markdown and $LaTeX$; at most ${MAX_INSTRUCTIONS.toLocaleString('en')} characters.`),
    h('div', { class: 'checks' },
      check('shuffleQuestions', 'Shuffle questions per candidate', exam?.shuffleQuestions ?? false),
      check('shuffleChoices', 'Shuffle options per candidate', exam?.shuffleChoices ?? false),
      check('showResultAfter', 'Show candidates their result after submitting', exam?.showResultAfter ?? true),
      check('isPublished', 'Published (candidates can start)', exam?.isPublished ?? true),
      check('requireSafeExamBrowser', 'Require Safe Exam Browser (the exam opens only in SEB with its generated configuration)', exam?.requireSafeExamBrowser ?? false)),
  ];
}

/**
 * Form values → API body (numbers as numbers, window as UTC ISO or null).
 * Throws Error with a readable message when the window is reversed.
 */
export function readExamForm(v: Record<string, string | boolean>, creating: boolean): Record<string, unknown> {
  const startsAt = localInputToUtcIso(String(v.startsAt ?? ''));
  const endsAt = localInputToUtcIso(String(v.endsAt ?? ''));
  if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt)) throw new Error('The closing time must be after the opening time.');
  const body: Record<string, unknown> = {
    title: v.title,
    durationMins: Number(v.durationMins),
    maxTabViolations: Number(v.maxTabViolations),
    shuffleQuestions: v.shuffleQuestions === true,
    shuffleChoices: v.shuffleChoices === true,
    showResultAfter: v.showResultAfter === true,
    calculator: v.calculator || 'none',
    isPublished: v.isPublished === true,
    requireSafeExamBrowser: v.requireSafeExamBrowser === true,
  };
  const instructions = String(v.instructions ?? '');
  // creation omits empty optional fields; editing sends null to clear the window
  if (creating) {
    if (instructions) body.instructions = instructions;
    if (startsAt) body.startsAt = startsAt;
    if (endsAt) body.endsAt = endsAt;
    if (v.accessCode) body.accessCode = String(v.accessCode).toUpperCase();
  } else {
    body.instructions = instructions || null;
    body.startsAt = startsAt;
    body.endsAt = endsAt;
    if (v.accessCode) body.accessCode = String(v.accessCode).toUpperCase();
  }
  return body;
}

/**
 * One exam's frame: title, state, the room code in letters big enough to copy onto the
 * board (on the live monitor, one compact line), and tabs for its screens (settings, questions, generation, roster, live monitor,
 * results, essay review).
 */
import { h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam } from '../types.js';
import { examStateBadge } from './exams.js';
import { renderExamSettings } from './exam-settings.js';
import { renderQuestions } from './questions.js';
import { renderRoster } from './roster.js';
import { renderMonitor } from './monitor.js';
import { renderResults } from './results.js';
import { renderGenerate } from './generate.js';
import { renderReview } from './review.js';
import { renderQuestionReview } from './review-question.js';

export type ExamTab = 'settings' | 'questions' | 'generate' | 'roster' | 'monitor' | 'results' | 'review';
const TABS: Array<[ExamTab, string]> = [
  ['settings', 'Settings'],
  ['questions', 'Questions'],
  ['generate', 'Generate'],
  ['roster', 'Roster & PINs'],
  ['monitor', 'Live monitor'],
  ['results', 'Results'],
  ['review', 'Essay review'],
];

/** The room code as shown on screen for the board: large, spaced, monospace. */
export function roomCode(code: string, id = 'room-code'): HTMLElement {
  return h('div', { class: 'room-code', id, 'aria-label': `Room code ${code.split('').join(' ')}` }, code);
}

/**
 * Draws the exam frame and the selected tab; returns the tab's dispose function. `sub`
 * is the hash's part after the tab: on "review", the essay question marked on its own
 * with recommendations (review-question.ts).
 */
export async function renderExam(ctx: Ctx, host: HTMLElement, examId: string, tab: string, sub?: string): Promise<(() => void) | void> {
  const exam = await ctx.api.get<Exam>(`/exams/${encodeURIComponent(examId)}`);
  const current = (TABS.find(([t]) => t === tab)?.[0] ?? 'settings') as ExamTab;
  const body = h('div', { class: 'exam-body', id: `tab-${current}` });
  replace(host,
    // the live monitor's frame is one line: the room, not the header, fills the screen (issue 36)
    h('div', { class: current === 'monitor' ? 'exam-head compact' : 'exam-head' },
      h('div', null,
        h('a', { href: '#/exams', class: 'back' }, '← All exams'),
        h('h1', { id: 'exam-title' }, exam.title, ' ', examStateBadge(exam)),
        h('p', { class: 'muted' }, `${exam.durationMins} minutes · ${exam.questions?.length ?? 0} questions`)),
      h('div', { class: 'room-code-box' }, h('span', { class: 'field-label' }, 'Room code'), roomCode(exam.accessCode))),
    h('nav', { class: 'tabs exam-tabs', 'aria-label': 'Exam screens' },
      TABS.map(([t, label]) => h('a', { href: `#/exams/${encodeURIComponent(exam.id)}/${t}`, class: t === current ? 'tab active' : 'tab', 'data-tab': t }, label))),
    body);
  switch (current) {
    case 'questions':
      return renderQuestions(ctx, body, exam);
    case 'roster':
      return renderRoster(ctx, body, exam);
    case 'monitor':
      return renderMonitor(ctx, body, exam);
    case 'results':
      return renderResults(ctx, body, exam);
    case 'generate':
      return renderGenerate(ctx, body, exam);
    case 'review':
      return sub ? renderQuestionReview(ctx, body, exam, sub) : renderReview(ctx, body, exam);
    default:
      return renderExamSettings(ctx, body, exam);
  }
}

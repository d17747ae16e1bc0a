/**
 * End screens. Result (issue 4 point 8): score, percentage and WAEC/NECO grade when
 * the exam shows results (`showResult` / showResultAfter); otherwise a receipt with the
 * attempt id and the time of submission, so the candidate can prove they submitted.
 * Lock screen: the attempt was disqualified; only an invigilator can reinstate it.
 */
import { h, localTime, mount } from '../dom.js';
import type { ResultFields } from '../types.js';
import { quitLink } from '../seb.js';

export interface ResultInput extends ResultFields {
  attemptId: string;
  examTitle?: string;
  candidateName?: string;
  studentId?: string;
  /** true when the page (or the server) submitted because time ran out */
  autoSubmitted?: boolean;
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * Shows the result or the receipt.
 * @param onFinish "Finish" pressed: the page forgets this attempt and returns to sign-in
 */
export function showResult(r: ResultInput, onFinish: () => void): void {
  const hasScore = typeof r.score === 'number' && r.showResult !== false;
  const finish = h('button.primary.big', { type: 'button', id: 'finish' }, 'Finish');
  finish.addEventListener('click', onFinish);
  const who = [r.candidateName, r.studentId].filter(Boolean).join(' · ');
  mount(
    h(
      'main.screen.center',
      { id: 'screen-result' },
      h(
        'section.card.result',
        { 'aria-labelledby': 'result-title' },
        h('h1', { id: 'result-title' }, hasScore ? 'Your result' : 'Exam submitted'),
        r.examTitle ? h('p.lead', {}, r.examTitle) : null,
        who ? h('p', {}, who) : null,
        r.autoSubmitted ? h('p.notice', {}, 'Time ran out, so your answers were submitted automatically.') : null,
        hasScore
          ? h(
              'dl.score',
              { id: 'score' },
              h('dt', {}, 'Score'),
              h('dd', { id: 'score-value' }, `${fmt(r.score as number)} / ${fmt(Number(r.maxScore) || 0)}`),
              h('dt', {}, 'Percentage'),
              h('dd', { id: 'score-percentage' }, `${fmt(Number(r.percentage) || 0)}%`),
              h('dt', {}, 'Grade'),
              h('dd', { id: 'score-grade', class: 'grade' }, String(r.grade || '')),
            )
          : h('p', {}, 'Your answers have been received by the exam server.'),
        hasScore && r.pendingReview
          ? h('p.notice', {}, 'Written answers are marked by the examiner; this score does not include them yet.')
          : null,
        h(
          'dl.receipt',
          { id: 'receipt' },
          h('dt', {}, 'Attempt'),
          h('dd', { id: 'receipt-attempt' }, h('code', {}, r.attemptId)),
          h('dt', {}, 'Submitted'),
          h('dd', { id: 'receipt-time' }, r.completedAt ? localTime(r.completedAt) : 'recorded by the exam server'),
        ),
        h('p.small', {}, 'Please leave the computer as it is and follow the invigilator’s instructions.'),
        finish,
        quitLink(),
      ),
    ),
  );
}

/**
 * Shows the lock screen after disqualification.
 * @param detail why (e.g. "3 violations, limit 2")
 */
export function showLocked(detail: string): void {
  mount(
    h(
      'main.screen.center',
      { id: 'screen-locked' },
      h(
        'section.card.locked',
        { 'aria-labelledby': 'locked-title', role: 'alert' },
        h('h1', { id: 'locked-title' }, 'Your exam has been locked'),
        h('p', {}, detail),
        h('p', {}, 'Your answers saved so far are kept. Raise your hand: only the invigilator can reopen your exam.'),
        h('p.small', { id: 'locked-wait' }, 'This page reopens by itself if the invigilator reinstates you.'),
      ),
    ),
  );
}

/** Shows a full-page message with an optional action (loading, cannot reach server…). */
export function showMessage(title: string, text: string, action?: { label: string; run: () => void }): void {
  const btn = action ? h('button.primary.big', { type: 'button' }, action.label) : null;
  if (btn && action) btn.addEventListener('click', action.run);
  mount(h('main.screen.center', { id: 'screen-message' }, h('section.card', { 'aria-labelledby': 'msg-title' }, h('h1', { id: 'msg-title' }, title), h('p', { id: 'msg-text' }, text), btn)));
}

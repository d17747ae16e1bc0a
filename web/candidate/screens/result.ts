/**
 * End screens. Result (issue 4 point 8): score, percentage and WAEC/NECO grade when
 * the exam shows results (`showResult` / showResultAfter); otherwise a receipt with the
 * attempt id and the time of submission, so the candidate can prove they submitted. With
 * sections, the score of each subject sat follows the total (drawn by the sections bundle,
 * fetched only then: sections/scores.ts).
 * Lock screen: the attempt was disqualified; only an invigilator can reinstate it.
 */
import { h, localTime, mount } from '../dom.js';
import type { ResultFields } from '../types.js';
import { quitLink } from '../seb.js';
import { lazyScript } from '../lazy.js';
import type { SectionsWindow } from '../sections/contract.js';

/** the subject tabs' bundle, which also draws the scores per subject (sections/contract.ts) */
declare const __SECTIONS__: string;

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
  // essays not marked yet (pendingReview): score and grade count them as 0, so both are
  // shown as provisional, never as the final word (issue 20 item 4)
  const provisional = hasScore && !!r.pendingReview;
  const tag = () => (provisional ? h('span.provisional-tag', {}, ' provisional') : null);
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
        h('h1', { id: 'result-title' }, hasScore ? (provisional ? 'Your provisional result' : 'Your result') : 'Exam submitted'),
        r.examTitle ? h('p.lead', {}, r.examTitle) : null,
        who ? h('p', {}, who) : null,
        r.autoSubmitted ? h('p.notice', {}, 'Time ran out, so your answers were submitted automatically.') : null,
        hasScore
          ? h(
              provisional ? 'dl.score.provisional' : 'dl.score',
              { id: 'score', 'data-provisional': provisional ? 'true' : 'false' },
              h('dt', {}, 'Score'),
              h('dd', {}, h('span', { id: 'score-value' }, `${fmt(r.score as number)} / ${fmt(Number(r.maxScore) || 0)}`), tag()),
              h('dt', {}, 'Percentage'),
              h('dd', {}, h('span', { id: 'score-percentage' }, `${fmt(Number(r.percentage) || 0)}%`), tag()),
              h('dt', {}, 'Grade'),
              h('dd', { class: 'grade' }, h('span', { id: 'score-grade' }, String(r.grade || '')), tag()),
            )
          : h('p', {}, 'Your answers have been received by the exam server.'),
        provisional
          ? h('p.notice', { id: 'provisional-note' }, 'Provisional: your written answers have not been marked yet and count as 0 here. Your score and grade will change when the examiner marks them.')
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
  const w = window as unknown as SectionsWindow;
  if (hasScore && r.sectionScores?.length) lazyScript(__SECTIONS__, () => w.hallcbtSectionScores, () => document.getElementById('score')?.after(w.hallcbtSectionScores!(r.sectionScores!, provisional)));
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

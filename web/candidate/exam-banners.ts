/**
 * What the exam screen tells the candidate besides the question: the connection
 * status pill and offline banner (issue 4 point 5), the violation warning with the count
 * against the limit (point 7), the 5- and 1-minute time warnings (point 4), the "return
 * to full screen" prompt, and the "paused by the invigilator" banner and overlay.
 */
import type { AnswerSync } from './answers.js';
import { isReachable } from './api.js';
import { h } from './dom.js';
import { fullscreenElement } from './proctor.js';
import { closeDialog, showOverlay } from './screens/dialog.js';
import type { ExamView } from './screens/exam-view.js';
import { requestFullscreen } from './screens/instructions.js';

export class ExamBanners {
  private paused = false;
  /** what the offline banner's "Try again now" button does (the page's own way back) */
  onRetry: (() => void) | null = null;

  constructor(private readonly view: ExamView) {}

  /** Status pill and offline banner from the answer sync's state. */
  connection(sync: AnswerSync): void {
    const kept = sync.pendingCount();
    if (!isReachable()) {
      this.view.setStatus(kept ? `Offline — ${kept} answer${kept === 1 ? '' : 's'} kept on this computer` : 'Offline', 'offline');
      const retry = this.onRetry;
      this.view.setBanner(
        'network',
        h('span', {},
          'Connection to the exam server lost. Keep working: your answers are kept on this computer and saved when the connection returns. Do not reload the page.',
          ...(retry ? [' To reconnect at once, press ', h('button.secondary', { type: 'button', id: 'retry-now', onclick: () => retry() }, 'Try again now'), '.'] : [])),
        'warn',
      );
    } else {
      const waiting = sync.awaitingDurability();
      this.view.setStatus(waiting ? 'Saving…' : 'All answers saved', waiting ? 'saving' : 'ok');
      this.view.setBanner('network', null);
    }
  }

  /**
   * Violation warning.
   * @param count violations so far (server count plus events not yet delivered)
   * @param max the exam's maxTabViolations (one more than this locks the attempt)
   * @param alert announce it (a violation just happened)
   */
  violations(count: number, max: number, alert: boolean): void {
    if (count <= 0) return this.view.setBanner('violation', null);
    const last = count >= max;
    this.view.setBanner(
      'violation',
      `Warning: leaving the exam page or full screen, copying, pasting and right-clicking are recorded. Violations: ${count} of ${max} allowed.` +
        (last ? ' One more and your exam will be locked.' : ''),
      last ? 'danger' : 'warn',
      alert,
    );
  }

  /** Time warning at 5 or 1 minute(s) left. */
  time(minutes: 5 | 1): void {
    this.view.setBanner('time', `${minutes === 1 ? '1 minute' : '5 minutes'} left. Your answers are submitted automatically when the time is up.`, minutes === 1 ? 'danger' : 'warn', true);
  }

  /** Offers to go back to fullscreen when the browser supports it and the page is not in it. */
  fullscreen(): void {
    const doc = document as Document & { webkitFullscreenEnabled?: boolean };
    if (!(doc.fullscreenEnabled || doc.webkitFullscreenEnabled) || fullscreenElement()) return this.view.setBanner('fullscreen', null);
    const btn = h('button.secondary', { type: 'button', id: 'enter-fullscreen' }, 'Return to full screen');
    btn.addEventListener('click', () => requestFullscreen());
    this.view.setBanner('fullscreen', h('span', {}, 'The exam should be taken in full screen. ', btn), 'info');
  }

  /** Shows or clears the pause banner and the blocking overlay. */
  pause(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) {
      this.view.setBanner('paused', 'The invigilator has paused the exam. The clock is stopped.', 'warn', true);
      showOverlay('paused-overlay', 'Exam paused', 'The invigilator has paused the exam. The clock is stopped and no time is lost. Please wait.');
    } else {
      this.view.setBanner('paused', null);
      if (document.getElementById('paused-overlay')) closeDialog();
    }
  }

  /** True while the pause is shown. */
  isPaused(): boolean {
    return this.paused;
  }
}

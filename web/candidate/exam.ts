/**
 * The exam screen's controller: ties the answer sync (answers.ts), the server-synced
 * countdown (clock.ts) and proctoring (proctor.ts) to the view (exam-pane.ts,
 * exam-banners.ts), and follows the attempt through its states — answering, paused by
 * the invigilator, time up, submitted, locked. While anything is not yet durable (or
 * the exam is paused, or the server is unreachable) it polls `GET /attempts/:id` every
 * 5 s; otherwise every 10 s, which also notices an invigilator's pause, extension,
 * force-submit or lock, and keeps the candidate "seen" on the monitor (which shows a page
 * not heard from for 15 s: issue 36, docs/decisions.md "A quiet page on the monitor").
 */
import { AnswerSync } from './answers.js';
import type { CalculatorHandle } from './calculator/contract.js';
import { loadCalculator } from './calculator/load.js';
import { attemptPath, call, isReachable, onReachability } from './api.js';
import { Countdown } from './clock.js';
import { viewToggles } from './view-prefs.js';
import { ExamBanners } from './exam-banners.js';
import { loadInstructions } from './exam-instructions.js';
import { QuestionPane } from './exam-pane.js';
import { fullscreenElement, Proctor } from './proctor.js';
import { closeDialog, confirmSubmit, dialogOpen } from './screens/dialog.js';
import { mountExamView, type ExamView } from './screens/exam-view.js';
import type { ResultInput } from './screens/result.js';
import { attemptKey, writeJson } from './storage.js';
import { inSafeExamBrowser, lockText } from './seb.js';
import { submitAttempt } from './submit.js';
import type { Problem, Session, TelemetryResponse } from './types.js';

export interface ExamCallbacks {
  onFinished(result: ResultInput): void;
  onLocked(detail: string): void;
  onGone(): void;
}

let active: ExamController | null = null;
onReachability((r) => active && active.onReachability(r));

/** delay of the poll after a save, ms: one default flush interval (1 s) and a margin */
const SOON_MS = 1400;
/**
 * delay of each further poll while a save of the last 4 s is still not durable (a flush
 * slower than usual, a busy server): short, so the signal still comes within ~2 s of the
 * last change, and bounded — at most (4000 − SOON_MS) / AGAIN_MS more polls per save burst
 */
const AGAIN_MS = 400;
/** delay of the poll while all is saved: under the monitor's 15 s "last seen" mark with room for a slow answer */
const IDLE_POLL_MS = 10_000;

export class ExamController {
  private readonly sync: AnswerSync;
  private readonly clock: Countdown;
  private readonly proctor: Proctor;
  private viewRef: ExamView | null = null;
  private pane: QuestionPane | null = null;
  private banners: ExamBanners | null = null;
  private calculator: CalculatorHandle | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private pollDueAt = 0;
  /** when the last save was answered (performance.now()) */
  private lastSaveAt = -Infinity;
  private ended = false;
  private submitting = false;
  private violations: number;

  constructor(private session: Session, private readonly cb: ExamCallbacks) {
    const id = session.attemptId;
    this.violations = session.violations || 0;
    this.sync = new AnswerSync(id, {
      onSynced: (rs, pushes) => {
        this.clock.sync(rs);
        this.lastSaveAt = performance.now();
        // the channel pushes durableSeq after the flush: no poll needed for the signal; the
        // copy kept for a reload without the server then takes the answer from here
        if (!pushes) this.pollSoon();
        else this.cacheSession();
      },
      onRefused: (p) => this.onRefused(p),
      onChange: () => this.refresh(),
    }, { channel: !session.safeExamBrowser && !inSafeExamBrowser() });
    this.clock = new Countdown({
      onTick: (s, paused) => this.viewRef && this.viewRef.setTimer(s, paused),
      onWarning: (m) => this.banners && this.banners.time(m),
      onZero: () => this.submit(true),
    });
    this.proctor = new Proctor(id, {
      onVerdict: (v) => this.onVerdict(v),
      onViolation: () => this.showViolations(true),
      onRefused: (p) => this.onRefused(p),
      onFullscreen: () => !this.ended && this.banners && this.banners.fullscreen(),
    });
  }

  /** Mounts the screen and starts the clock, the sync, proctoring and polling. */
  start(): void {
    active = this;
    const s = this.session;
    this.viewRef = mountExamView(s.examTitle, `${s.candidateName} · ${s.studentId}`);
    document.querySelector('.topbar')!.appendChild(viewToggles(s.attemptId));
    loadInstructions(s.attemptId);
    this.banners = new ExamBanners(this.viewRef);
    this.banners.onRetry = () => {
      this.sync.retryNow();
      this.proctor.retryNow();
      this.schedulePoll(0);
    };
    this.sync.adopt(s);
    this.pane = new QuestionPane(s, () => this.session.questions, this.sync, this.viewRef, {
      openSubmit: () => this.openSubmit(),
      blocked: () => this.ended || !!(this.banners && this.banners.isPaused()),
    });
    this.pane.mount();
    if (s.calculator === 'basic' || s.calculator === 'scientific') this.calculator = loadCalculator(s.calculator, () => this.ended || dialogOpen());
    this.clock.sync(s.remainingSeconds, s.isPaused);
    this.clock.start();
    this.proctor.activate();
    this.banners.pause(!!s.isPaused);
    this.banners.fullscreen();
    this.showViolations(false);
    this.refresh();
    this.cacheSession();
    this.schedulePoll(2000);
  }

  /** The server became reachable (or not): retry at once, redraw. */
  onReachability(reachable: boolean): void {
    if (this.ended) return;
    this.refresh();
    if (reachable) {
      this.sync.retryNow();
      this.proctor.retryNow();
    } else if (this.pollDueAt - performance.now() > 5000) this.schedulePoll(5000);
  }

  private refresh(): void {
    if (this.ended || !this.pane || !this.banners) return;
    this.pane.refresh();
    this.banners.connection(this.sync);
  }

  private showViolations(alert: boolean): void {
    if (this.banners) this.banners.violations(this.violations + this.proctor.unsentViolations(), this.session.maxTabViolations, alert);
  }

  // ---- server sync ----

  private schedulePoll(ms: number): void {
    if (this.ended) return;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollDueAt = performance.now() + ms;
    this.pollTimer = setTimeout(() => this.poll(), ms);
  }

  /**
   * After a save: asks for durableSeq once the server's next flush (every second by
   * default) has had time to commit it, so "All answers saved" shows within ~2 s of the
   * last change (issue 20 item 1). At most one poll per SOON_MS while saving.
   */
  private pollSoon(): void {
    if (this.pollDueAt - performance.now() > SOON_MS) this.schedulePoll(SOON_MS);
  }

  private async poll(): Promise<void> {
    this.pollTimer = null;
    if (this.ended) return;
    const res = await call<Session>('GET', attemptPath(this.session.attemptId, '?questions=0'));
    if (this.ended) return;
    if (res.kind === 'ok') this.applySession(res.body);
    else if (res.kind === 'problem' && !this.onRefused(res.problem)) return;
    const busy = this.clock.isPaused() || this.sync.awaitingDurability() || !isReachable();
    // a flush slower than usual: ask again shortly while the last save is recent
    const recent = isReachable() && this.sync.awaitingDurability() && performance.now() - this.lastSaveAt < 4000;
    this.schedulePoll(recent ? AGAIN_MS : busy ? 5000 : IDLE_POLL_MS);
  }

  /** Adopts a fresh session body: status, clock, pause, answers, violations. */
  private applySession(s: Session): void {
    if (this.ended) return;
    if (s.status === 'COMPLETED') return this.finish(s, false);
    if (s.status === 'DISQUALIFIED') return this.lock(s.violations, s.maxTabViolations);
    this.session = { ...this.session, ...s, questions: s.questions && s.questions.length ? s.questions : this.session.questions };
    this.clock.sync(s.remainingSeconds, !!s.isPaused);
    if (this.banners) this.banners.pause(!!s.isPaused);
    this.sync.adopt(s);
    this.violations = s.violations || 0;
    this.showViolations(false);
    this.cacheSession();
  }

  /** A refusal from any call: returns true when retrying makes sense. */
  private onRefused(p: Problem): boolean {
    if (this.ended) return false;
    if (p.code === 'EXAM_PAUSED') {
      if (this.banners) this.banners.pause(true);
      this.schedulePoll(3000);
      return true;
    }
    if (p.code === 'DISQUALIFIED' || p.code === 'SEB_REQUIRED' || (p.status === 403 && !p.code)) {
      this.lock(typeof p.violations === 'number' ? p.violations : this.violations + 1, this.session.maxTabViolations);
      return false;
    }
    if (p.status === 409 || p.code === 'EXAM_CLOSED' || p.code === 'TIME_OVER') {
      // over (time out, submitted elsewhere): the submit flow asks the server and shows what it has
      this.submit(true);
      return false;
    }
    if (p.status === 404) {
      this.ended = true;
      this.teardown();
      this.cb.onGone();
      return false;
    }
    return true;
  }

  private onVerdict(v: TelemetryResponse): void {
    if (this.ended) return;
    if (v.status === 'DISQUALIFIED') return this.lock(v.violations, v.maxTabViolations);
    this.violations = v.violations;
    this.session.maxTabViolations = v.maxTabViolations;
    if (typeof v.remainingSeconds === 'number') this.clock.sync(v.remainingSeconds);
    this.showViolations(false);
  }

  // ---- the end ----

  private openSubmit(): void {
    if (this.ended || this.submitting || !this.pane) return;
    this.sync.flushNow();
    const pane = this.pane;
    confirmSubmit({ ...pane.summary(), unsaved: this.sync.pendingCount(), onGo: (i) => pane.go(i), onConfirm: () => this.submit(false) });
  }

  /** Submits (by the candidate, or automatically when time runs out). */
  private async submit(auto: boolean): Promise<void> {
    if (this.ended || this.submitting) return;
    this.submitting = true;
    this.sync.flushNow();
    const outcome = await submitAttempt(this.session.attemptId, auto, () => this.sync.finalCopy(), () => this.ended);
    this.submitting = false;
    if (this.ended) return;
    if (outcome.kind === 'done') return this.finish(outcome.result, auto);
    if (outcome.kind === 'locked') return this.lock(this.violations + 1, this.session.maxTabViolations);
    if (outcome.kind === 'resume') {
      closeDialog();
      this.applySession(outcome.session);
    }
  }

  private finish(result: Partial<ResultInput>, auto: boolean): void {
    const s = this.session;
    this.ended = true;
    this.teardown();
    this.cb.onFinished({ ...result, attemptId: s.attemptId, examTitle: s.examTitle, candidateName: s.candidateName, studentId: s.studentId, autoSubmitted: auto || !!result.autoSubmitted });
  }

  private lock(violations: number, max: number): void {
    this.ended = true;
    this.teardown();
    this.proctor.dropQueue();
    this.cb.onLocked(lockText(`You had ${violations} proctoring violation${violations === 1 ? '' : 's'}; the limit is ${max}.`, this.session.lockReason));
  }

  private teardown(): void {
    if (active === this) active = null;
    this.clock.stop();
    this.sync.stop();
    this.proctor.deactivate();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.pane) this.pane.unmount();
    if (this.calculator) this.calculator.destroy();
    closeDialog();
    const d = document as Document & { webkitExitFullscreen?: () => void };
    try {
      if (fullscreenElement()) {
        const done = d.exitFullscreen ? d.exitFullscreen() : d.webkitExitFullscreen && d.webkitExitFullscreen();
        if (done && typeof done.catch === 'function') done.catch(() => undefined);
      }
    } catch {
      /* already out of fullscreen */
    }
  }

  /** Keeps the session for a reload without the server, with the answers the server acknowledged since. */
  private cacheSession(): void {
    writeJson(attemptKey(this.session.attemptId, 'session'), { ...this.session, ...this.sync.snapshot() });
  }
}

/**
 * The answering part of the exam screen (issue 4 point 3): one question at a time
 * with Previous / Next, the navigator (answered / unanswered / flagged / still saving),
 * flags for review (kept by the server, so they follow the candidate to another PC, and in
 * localStorage with the current position, so a reload lands on the same question; a flag
 * the server has not acknowledged is sent again at the next start), and the keyboard
 * shortcuts CBT centres teach: A–J (or 1–9) choose, N / P move, F flags, S opens Submit.
 * Shortcuts are ignored while typing in an essay, with Ctrl / Alt / Meta held, while a
 * dialog is open, and while the exam is paused. A paper of two or more sections gets the
 * subject tabs (sections/, loaded only for such a paper; issue 37 item 8).
 */
import type { AnswerSync } from './answers.js';
import { attemptPath, call } from './api.js';
import { h } from './dom.js';
import { lazyScript } from './lazy.js';
import type { SectionsHandle, SectionsWindow } from './sections/contract.js';
import { dialogOpen } from './screens/dialog.js';
import type { ExamView } from './screens/exam-view.js';
import { createNavigator, type Navigator } from './screens/navigator.js';
import { markChosen, renderQuestion, showSaveState } from './screens/question.js';
import { attemptKey, readJson, writeJson } from './storage.js';
import type { Session, SessionQuestion } from './types.js';

/** the subject tabs' script, content-hashed (scripts/build-web.mjs) */
declare const __SECTIONS__: string;

export interface PaneHooks {
  /** the candidate asked to submit (navigator button, Next on the last question) */
  openSubmit(): void;
  /** true while shortcuts must not act (paused, ended) */
  blocked(): boolean;
}

export class QuestionPane {
  private index = 0;
  private flags: Record<string, boolean>;
  /** flag changes the server has not acknowledged yet, by question id */
  private unsent: Record<string, boolean>;
  private nav: Navigator | null = null;
  private tabs: SectionsHandle | null = null;
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);

  /** `s`: the session the exam started with (its attemptId, paper, sections and flags) */
  constructor(
    private readonly s: Session,
    private readonly questions: () => SessionQuestion[],
    private readonly sync: AnswerSync,
    private readonly view: ExamView,
    private readonly hooks: PaneHooks,
  ) {
    const ui = readJson<{ flags?: Record<string, boolean>; unsent?: Record<string, boolean>; index?: number }>(attemptKey(s.attemptId, 'ui'), {});
    // the server's flags (from any PC), then what this PC changed that the server has not heard
    this.unsent = ui.unsent || {};
    this.flags = s.flagged ? {} : ui.flags || {};
    for (const id of s.flagged || []) this.flags[id] = true;
    Object.assign(this.flags, this.unsent);
    this.index = Math.min(Math.max(0, Number(ui.index) || 0), Math.max(0, s.questions.length - 1));
  }

  /** Builds the navigator, wires the buttons and the keyboard, shows the current question. */
  mount(): void {
    this.nav = createNavigator(this.questions().length, (i) => this.go(i), () => this.hooks.openSubmit());
    this.view.navigatorHost.appendChild(this.nav.element);
    this.view.prev.addEventListener('click', () => this.go(this.index - 1));
    this.view.next.addEventListener('click', () => (this.index >= this.questions().length - 1 ? this.hooks.openSubmit() : this.go(this.index + 1)));
    this.view.flag.addEventListener('click', () => this.toggleFlag());
    document.addEventListener('keydown', this.keyHandler);
    this.render(true);
    for (const id in this.unsent) this.sendFlag(id);
    // a paper of two or more named sections (the server's `sections` follow the questions'
    // names): the subject tabs, a script of their own (sections/contract.ts)
    const w = window as unknown as SectionsWindow;
    if (new Set(this.s.questions.map((q) => q.section).filter(Boolean)).size > 1) {
      lazyScript(__SECTIONS__, () => w.hallcbtSections, () => ((this.tabs = w.hallcbtSections!({ session: this.s, go: (i) => this.go(i) })), this.refresh()));
    }
  }

  /** Stops listening to the keyboard (attempt over or locked). */
  unmount(): void {
    document.removeEventListener('keydown', this.keyHandler);
  }

  /** 0-based positions of unanswered and of flagged questions, for the submit dialog. */
  summary(): { unanswered: number[]; flagged: number[] } {
    const qs = this.questions();
    return {
      unanswered: qs.map((q, i) => (this.sync.isAnswered(q.id) ? -1 : i)).filter((i) => i >= 0),
      flagged: qs.map((q, i) => (this.flags[q.id] ? i : -1)).filter((i) => i >= 0),
    };
  }

  /** Shows question `i` (0-based); sends any essay text typed so far first. */
  go(i: number): void {
    if (i < 0 || i >= this.questions().length || this.hooks.blocked()) return;
    this.sync.flushNow();
    this.index = i;
    this.saveUi();
    this.render(true);
  }

  /** Redraws the navigator and the save state of the question on screen. */
  refresh(): void {
    if (!this.nav) return;
    const sync = this.sync;
    const qs = this.questions();
    (this.tabs || this.nav).update(
      qs.map((q) => {
        const st = sync.stateOf(q.id);
        return { answered: sync.isAnswered(q.id), flagged: !!this.flags[q.id], unsaved: st === 'saving' || st === 'offline' };
      }),
      this.index,
    );
    const q = qs[this.index];
    if (q) showSaveState(document.getElementById('save-state'), sync.stateOf(q.id));
  }

  private render(focus: boolean): void {
    const qs = this.questions();
    const q = qs[this.index];
    if (!q) return;
    this.view.questionHost.innerHTML = '';
    this.view.questionHost.appendChild(
      renderQuestion(q, {
        index: this.index,
        total: qs.length,
        answer: this.sync.answerFor(q.id),
        flagged: !!this.flags[q.id],
        onChoose: (optionId) => this.sync.record(q.id, { optionId }),
        onText: (text) => this.sync.record(q.id, { text }, 1000),
        onTextDone: () => this.sync.flushNow(),
      }),
    );
    this.view.prev.disabled = this.index === 0;
    this.view.next.textContent = this.index >= qs.length - 1 ? 'Review and submit' : 'Next →';
    this.updateFlagButton();
    this.refresh();
    const title = focus ? document.getElementById('q-title') : null;
    if (title) title.focus();
  }

  private choose(match: (o: { keyLabel: string }, i: number) => boolean): void {
    const q = this.questions()[this.index];
    const opt = q && q.options ? q.options.filter(match)[0] : undefined;
    if (!q || !opt) return;
    markChosen(this.view.questionHost, opt.id);
    this.sync.record(q.id, { optionId: opt.id });
  }

  private toggleFlag(): void {
    const q = this.questions()[this.index];
    if (!q) return;
    this.flags[q.id] = !this.flags[q.id];
    this.sendFlag(q.id);
    const head = this.view.questionHost.querySelector('.qhead');
    const badge = head && head.querySelector('.flag-badge');
    if (badge && badge.parentNode) badge.parentNode.removeChild(badge);
    else if (head && this.flags[q.id]) head.insertBefore(h('span.flag-badge', {}, 'Flagged for review'), head.querySelector('.save-state'));
    this.updateFlagButton();
    this.refresh();
  }

  private updateFlagButton(): void {
    const q = this.questions()[this.index];
    if (!q) return;
    const on = !!this.flags[q.id];
    this.view.flag.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.view.flag.textContent = on ? 'Remove flag' : 'Flag for review';
  }

  private onKey(e: KeyboardEvent): void {
    if (this.hooks.blocked() || dialogOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'radio') || t.isContentEditable)) return;
    const k = (e.key || '').toLowerCase();
    if (k === 'n') this.go(this.index + 1);
    else if (k === 'p') this.go(this.index - 1);
    else if (k === 'f') this.toggleFlag();
    else if (k === 's') this.hooks.openSubmit();
    else if (/^[a-j]$/.test(k)) this.choose((o) => (o.keyLabel || '').toLowerCase() === k);
    else if (/^[1-9]$/.test(k)) this.choose((_o, i) => i === Number(k) - 1);
    else return;
    e.preventDefault();
  }

  /** Tells the server a flag's state (PUT …/flags/:questionId); kept as unsent until it answers. */
  private sendFlag(id: string): void {
    const on = (this.unsent[id] = !!this.flags[id]);
    this.saveUi();
    void call('PUT', attemptPath(this.s.attemptId, '/flags/' + encodeURIComponent(id)), { flagged: on }).then((r) => {
      // a refusal (the attempt is over or locked) is not worth sending again either
      if (r.kind !== 'network' && this.unsent[id] === on) {
        delete this.unsent[id];
        this.saveUi();
      }
    });
  }

  private saveUi(): void {
    writeJson(attemptKey(this.s.attemptId, 'ui'), { flags: this.flags, unsent: this.unsent, index: this.index });
  }
}

/**
 * Layout of the exam screen: a header (exam title, candidate, connection status and
 * the countdown), a banner area for warnings (time, violations, network, fullscreen,
 * pause), the question host with Previous / Flag / Next, and the navigator host.
 * Pure view: the controller (exam.ts) decides what to show.
 */
import { formatClock } from '../clock.js';
import { h, mount } from '../dom.js';

export type BannerSlot = 'paused' | 'time' | 'violation' | 'network' | 'fullscreen';
export type BannerKind = 'info' | 'warn' | 'danger';

export interface ExamView {
  questionHost: HTMLElement;
  navigatorHost: HTMLElement;
  prev: HTMLButtonElement;
  next: HTMLButtonElement;
  flag: HTMLButtonElement;
  setTimer(seconds: number | null, paused: boolean): void;
  setStatus(text: string, state: 'ok' | 'saving' | 'offline'): void;
  /** Shows (content) or hides (null) one banner; `alert` announces it to screen readers. */
  setBanner(slot: BannerSlot, content: Node | string | null, kind?: BannerKind, alert?: boolean): void;
}

const ORDER: BannerSlot[] = ['paused', 'time', 'violation', 'network', 'fullscreen'];

/** Mounts the exam layout and returns its handles. */
export function mountExamView(examTitle: string, who: string): ExamView {
  const timer = h('div.timer', { id: 'timer', role: 'timer', 'aria-label': 'Time left' }, '--:--');
  const status = h('div.conn', { id: 'conn-status', role: 'status', 'data-state': 'ok' }, '');
  const banners = h('div.banners', { id: 'banners' });
  const slots: Record<string, HTMLElement> = {};
  for (const s of ORDER) {
    slots[s] = h('div.banner', { id: 'banner-' + s, hidden: true });
    banners.appendChild(slots[s]);
  }
  const prev = h('button.secondary.big', { type: 'button', id: 'prev' }, '← Previous') as HTMLButtonElement;
  const flag = h('button.flag.big', { type: 'button', id: 'flag', 'aria-pressed': 'false' }, 'Flag for review') as HTMLButtonElement;
  const next = h('button.primary.big', { type: 'button', id: 'next' }, 'Next →') as HTMLButtonElement;
  const questionHost = h('div.question-host', { id: 'question-host' });
  const navigatorHost = h('div.navigator-host');
  mount(
    h(
      'div.screen.exam',
      { id: 'screen-exam' },
      h(
        'header.topbar',
        {},
        h('div.title', {}, h('h1', { id: 'exam-title' }, examTitle), h('p.who', {}, who)),
        status,
        timer,
      ),
      banners,
      h(
        'div.exam-body',
        {},
        h('main.question-pane', { id: 'main' }, questionHost, h('div.qnav', {}, prev, flag, next)),
        navigatorHost,
      ),
      h('footer.shortcuts', {}, 'Keys: A–D choose · N next · P previous · F flag · S submit'),
    ),
    '#exam-title',
  );
  let lastTimer = '';
  return {
    questionHost,
    navigatorHost,
    prev,
    next,
    flag,
    setTimer(seconds, paused) {
      const text = paused ? `${formatClock(seconds)} (paused)` : formatClock(seconds);
      if (text === lastTimer) return;
      lastTimer = text;
      timer.textContent = text;
      timer.setAttribute('data-low', seconds !== null && seconds <= 300 ? (seconds <= 60 ? 'critical' : 'low') : 'no');
    },
    setStatus(text, state) {
      if (status.textContent !== text) status.textContent = text;
      status.setAttribute('data-state', state);
    },
    setBanner(slot, content, kind = 'info', alert = false) {
      const el = slots[slot];
      if (content === null) {
        el.hidden = true;
        el.removeAttribute('role');
        el.textContent = '';
        return;
      }
      el.hidden = false;
      el.setAttribute('data-kind', kind);
      if (alert) el.setAttribute('role', 'alert');
      else el.removeAttribute('role');
      el.textContent = '';
      el.appendChild(typeof content === 'string' ? document.createTextNode(content) : content);
    },
  };
}

/**
 * Large text and a high-contrast theme (issue 37 item 6, access arrangements): one click
 * each on the exam screen's top bar (buttons with `aria-pressed`). The choice is kept for
 * the attempt in localStorage (`hallcbt.<attemptId>.view`, storage.ts), so a reload, a
 * browser restart or a resume on this PC comes back with it, and it is dropped with the
 * attempt's other keys when the attempt is over; the next candidate's sign-in starts from
 * the default look. Applied as classes on <html> (styles.css: `lt` raises the root font
 * size, every size being in rem; `hc` swaps the colour variables). docs/decisions.md,
 * "Extra time from the roster".
 */
import { h } from './dom.js';
import { attemptKey, readJson, writeJson } from './storage.js';

const LOOKS = [['lt', 'Large text'], ['hc', 'High contrast']];

/** Applies the attempt's saved looks and returns the two toggle buttons. */
export function viewToggles(attemptId: string): HTMLElement {
  const key = attemptKey(attemptId, 'view');
  const on = document.documentElement.classList;
  const saved = readJson<string[]>(key, []);
  const box = h('div.looks');
  for (const [c, label] of LOOKS) {
    const b = h('button.look', { type: 'button', 'aria-pressed': String(on.toggle(c, saved.indexOf(c) >= 0)) }, label);
    b.onclick = () => {
      b.setAttribute('aria-pressed', String(on.toggle(c)));
      writeJson(key, LOOKS.map((l) => l[0]).filter((k) => on.contains(k)));
    };
    box.appendChild(b);
  }
  return box;
}

/** Back to the default look (a new sign-in on this PC). */
export function resetView(): void {
  document.documentElement.classList.remove('lt', 'hc');
}

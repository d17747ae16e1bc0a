/**
 * The candidate's on-screen calculator (issue 37 item 7): a "Calculator" button in the
 * exam's top bar and Alt+C open a small panel docked at the bottom right, over the
 * navigator column (at 1024×768 it leaves the question uncovered), which the candidate
 * can drag by its title bar. It works by mouse and by keyboard: digits, . + − * / ^ % ( ),
 * Enter or = computes, Backspace deletes, Delete clears, Escape (or Alt+C) closes; the
 * scientific one also reads s c t l n r p (sin cos tan log ln √ π). Alt+C never acts while
 * the focus is in a text field, so an essay typed key by key opens nothing; keys pressed
 * in the panel never reach the exam's shortcuts (docs/decisions.md, "The candidate's
 * calculator"). Arithmetic: model.ts and evaluate.ts (no eval).
 */
import { h } from '../dom.js';
import type { CalculatorHandle, CalculatorKind } from './contract.js';
import { CalculatorModel, type CalcKey } from './model.js';

/** the calculator's stylesheet (calculator.css under its content-hashed name: scripts/build-web.mjs) */
declare const __CALCULATOR_CSS__: string;

/** [key, label, accessible name] rows of buttons; the scientific rows put two more columns in front. */
const BASIC: [CalcKey, string, string?][][] = [
  [['C', 'C', 'Clear all'], ['CE', 'CE', 'Clear entry'], ['⌫', '⌫', 'Delete last'], ['÷', '÷', 'Divide']],
  [['7', '7'], ['8', '8'], ['9', '9'], ['×', '×', 'Multiply']],
  [['4', '4'], ['5', '5'], ['6', '6'], ['−', '−', 'Minus']],
  [['1', '1'], ['2', '2'], ['3', '3'], ['+', '+', 'Plus']],
  [['±', '±', 'Change sign'], ['0', '0'], ['.', '.', 'Decimal point'], ['%', '%', 'Per cent']],
  [['(', '('], [')', ')'], ['=', '=', 'Equals']],
];
const SCIENTIFIC: [CalcKey, string, string?][][] = [
  [['sin', 'sin', 'Sine, degrees'], ['cos', 'cos', 'Cosine, degrees']],
  [['tan', 'tan', 'Tangent, degrees'], ['log', 'log', 'Logarithm, base 10']],
  [['ln', 'ln', 'Natural logarithm'], ['√', '√', 'Square root']],
  [['^', 'xʸ', 'Power'], ['π', 'π', 'Pi']],
  [['MC', 'MC', 'Memory clear'], ['MR', 'MR', 'Memory recall']],
  [['M+', 'M+', 'Memory add'], ['M−', 'M−', 'Memory subtract']],
];

/** Keyboard keys (KeyboardEvent.key) → calculator keys; SCIENTIFIC_KEYS only on the scientific one. */
const KEYS: Record<string, CalcKey> = {
  '+': '+', '-': '−', '*': '×', x: '×', X: '×', '/': '÷', '%': '%', '(': '(', ')': ')', '.': '.', ',': '.',
  '=': '=', Enter: '=', Backspace: '⌫', Delete: 'C',
};
const SCIENTIFIC_KEYS: Record<string, CalcKey> = { '^': '^', s: 'sin', c: 'cos', t: 'tan', l: 'log', n: 'ln', r: '√', p: 'π' };

/** True when the focus is where the candidate types text (an essay, a text field). */
function typingIn(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.tagName === 'TEXTAREA' || el.isContentEditable) return true;
  return el.tagName === 'INPUT' && !/^(radio|checkbox|button|submit)$/.test((el as HTMLInputElement).type);
}

const isToggleKey = (e: KeyboardEvent) => e.altKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyC' || (e.key || '').toLowerCase() === 'c');

/**
 * Puts the calculator on the exam screen (#screen-exam of screens/exam-view.ts): the button
 * before the connection status in the top bar, the panel, Alt+C, a word in the shortcuts line.
 * @param kind which calculator the exam offers
 * @param blocked true while the calculator must not open (a dialog is up, the attempt is ending)
 */
export function installCalculator(kind: CalculatorKind, blocked: () => boolean): CalculatorHandle {
  const screen = document.getElementById('screen-exam') || document.body;
  const status = document.getElementById('conn-status');
  const shortcuts = screen.querySelector('footer.shortcuts');
  if (!document.getElementById('calc-css')) document.head.appendChild(h('link', { id: 'calc-css', rel: 'stylesheet', href: __CALCULATOR_CSS__ }));
  const model = new CalculatorModel();
  const expr = h('div.calc-expr', { id: 'calc-expr', 'aria-label': 'Expression' });
  const value = h('output.calc-value', { id: 'calc-value', 'aria-live': 'polite' }, '0');
  const mem = h('span.calc-mem', { id: 'calc-mem', title: 'A number is in memory', hidden: true }, 'M');
  const close = h('button.calc-close', { type: 'button', 'aria-label': 'Close the calculator' }, '×') as HTMLButtonElement;
  const head = h('div.calc-head', {}, h('span', {}, kind === 'scientific' ? 'Scientific calculator' : 'Calculator'), close);
  const grid = h('div.calc-keys', { 'data-kind': kind });
  BASIC.forEach((row, i) => {
    const cells = kind === 'scientific' ? SCIENTIFIC[i]!.concat(row) : row;
    for (const [key, label, name] of cells) {
      grid.appendChild(h('button.calc-key', { type: 'button', 'data-key': key, 'aria-label': name || null, class: key === '=' ? 'calc-equals' : /^[0-9.]$/.test(key) ? 'calc-digit' : null }, label));
    }
  });
  const help = h('p.calc-help', {}, kind === 'scientific' ? 'Keys: 0–9 . + − * / ^ % ( ) · s sin · c cos · t tan · l log · n ln · r √ · p π · Enter = · Esc closes' : 'Keys: 0–9 . + − * / % ( ) · Enter = · Backspace · Delete clears · Esc closes');
  const panel = h('section.calc', { id: 'calculator', 'data-kind': kind, role: 'dialog', 'aria-label': kind === 'scientific' ? 'Scientific calculator' : 'Calculator', tabindex: '-1', hidden: true }, head, h('div.calc-display', {}, mem, expr, value), grid, help);
  const opener = h('button.calc-open', { type: 'button', id: 'calc-open', 'aria-expanded': 'false', 'aria-controls': 'calculator', title: 'Calculator (Alt+C)' }, 'Calculator') as HTMLButtonElement;
  if (status && status.parentNode) status.parentNode.insertBefore(opener, status);
  screen.appendChild(panel);
  const hint = document.createTextNode(' · Alt+C calculator');
  if (shortcuts) shortcuts.appendChild(hint);

  const draw = () => {
    const v = model.view();
    expr.textContent = v.expression;
    value.textContent = v.value;
    value.setAttribute('data-error', v.error ? 'true' : 'false');
    mem.hidden = !v.memory;
  };
  const isOpen = () => !panel.hidden;
  const open = () => {
    if (blocked()) return;
    panel.hidden = false;
    opener.setAttribute('aria-expanded', 'true');
    keepInside();
    draw();
    panel.focus();
  };
  const shut = () => {
    const hadFocus = panel.contains(document.activeElement);
    panel.hidden = true;
    opener.setAttribute('aria-expanded', 'false');
    if (hadFocus) opener.focus();
  };

  grid.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest ? (e.target as HTMLElement).closest('button[data-key]') : null;
    if (!b) return;
    model.press(b.getAttribute('data-key') as CalcKey);
    draw();
  });
  close.addEventListener('click', shut);
  opener.addEventListener('click', () => (isOpen() ? shut() : open()));

  // keys pressed in the panel are the calculator's alone: never an exam shortcut (A–J, N, P, F)
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Tab') return;
    e.stopPropagation();
    if (e.key === 'Escape' || isToggleKey(e)) {
      e.preventDefault();
      return shut();
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.key === 'Enter' || e.key === ' ') && e.target === close) return;
    if (e.key === ' ') return; // a space presses the focused button
    const key = /^[0-9]$/.test(e.key) ? (e.key as CalcKey) : KEYS[e.key] || (kind === 'scientific' ? SCIENTIFIC_KEYS[e.key.toLowerCase()] : undefined);
    e.preventDefault();
    if (!key) return;
    model.press(key);
    draw();
  });

  const onDocumentKey = (e: KeyboardEvent) => {
    if (!isToggleKey(e) || typingIn(e.target)) return;
    e.preventDefault();
    if (isOpen() && panel.contains(document.activeElement)) shut();
    else if (isOpen()) panel.focus();
    else open();
  };
  document.addEventListener('keydown', onDocumentKey);

  // dragging by the title bar; the panel stays inside the window
  let drag: { dx: number; dy: number } | null = null;
  function keepInside(left?: number, top?: number): void {
    const r = panel.getBoundingClientRect();
    if (left === undefined || top === undefined) {
      if (!panel.style.left) return; // still docked where the stylesheet puts it
      left = r.left;
      top = r.top;
    }
    panel.style.left = Math.max(0, Math.min(left, window.innerWidth - r.width)) + 'px';
    panel.style.top = Math.max(0, Math.min(top, window.innerHeight - r.height)) + 'px';
    panel.style.right = 'auto';
    panel.style.bottom = 'auto';
  }
  const onMove = (e: PointerEvent) => drag && keepInside(e.clientX - drag.dx, e.clientY - drag.dy);
  const onUp = () => {
    drag = null;
    document.removeEventListener('pointermove', onMove);
    document.removeEventListener('pointerup', onUp);
  };
  head.addEventListener('pointerdown', (e) => {
    if (e.target === close || e.button !== 0) return;
    const r = panel.getBoundingClientRect();
    drag = { dx: e.clientX - r.left, dy: e.clientY - r.top };
    document.addEventListener('pointermove', onMove);
    document.addEventListener('pointerup', onUp);
    e.preventDefault();
  });

  return {
    destroy() {
      onUp();
      document.removeEventListener('keydown', onDocumentKey);
      if (panel.parentNode) panel.parentNode.removeChild(panel);
      if (opener.parentNode) opener.parentNode.removeChild(opener);
      if (hint.parentNode) hint.parentNode.removeChild(hint);
    },
  };
}

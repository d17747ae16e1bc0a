/**
 * Tiny DOM helpers for the candidate page (no UI framework: the page must stay light
 * for old hall PCs). `h()` builds an element from a tag, attributes and children;
 * `mount()` replaces the page's single root (#app) with one screen.
 */

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * Creates an element.
 * @param tag tag name, optionally with classes: `'button.primary.big'`
 * @param attrs attributes; `on<event>` keys become listeners, `html` sets trusted
 *   (already sanitised) innerHTML, `false`/`null`/`undefined` values are skipped
 * @param children nodes or text; falsy children are skipped
 */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const parts = tag.split('.');
  const classes = parts.slice(1);
  const el = document.createElement(parts[0] || 'div');
  if (classes.length) el.className = classes.join(' ');
  for (const key of Object.keys(attrs)) {
    const value = attrs[key];
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'html') {
      el.innerHTML = String(value);
    } else if (key === 'class') {
      el.className = (el.className ? el.className + ' ' : '') + String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

/** Returns the page root (#app), creating it if the HTML lacks one. */
export function root(): HTMLElement {
  let el = document.getElementById('app');
  if (!el) {
    el = h('div', { id: 'app' });
    document.body.appendChild(el);
  }
  return el;
}

/**
 * Replaces the page content with one screen and moves focus to its first heading
 * (so keyboard and screen-reader users land at the start of the new screen).
 */
export function mount(screen: HTMLElement, focusSelector = 'h1, h2'): void {
  const app = root();
  while (app.firstChild) app.removeChild(app.firstChild);
  app.appendChild(screen);
  const target = screen.querySelector(focusSelector) as HTMLElement | null;
  if (target) {
    const natural = /^(INPUT|BUTTON|TEXTAREA|SELECT|A)$/.test(target.tagName);
    if (!natural && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  }
}

/** Removes all children of an element. */
export function clear(el: HTMLElement): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** Formats an ISO date-time (or epoch ms) in the PC's local time zone, e.g. "Mon 3 Jun, 09:30". */
export function localTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(value);
  if (isNaN(d.getTime())) return String(value);
  try {
    return d.toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  } catch {
    return d.toString();
  }
}

/** Counts words the way examiners do: runs of non-space characters. */
export function countWords(text: string): number {
  const t = text.trim();
  return t ? t.split(/\s+/).length : 0;
}

/**
 * Tiny DOM builder for the admin page. Every string child becomes a text node and
 * every attribute is set with setAttribute, so names, student IDs and server messages
 * can never be interpreted as markup. The only way HTML reaches the document is
 * `rich()`, whose input passes through renderRich (Markdown + KaTeX + sanitize-html, the server's own renderer).
 */
import { renderRich } from '../shared/render.js';

export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (ev: Event) => void;
export type Props = Record<string, string | number | boolean | Handler | null | undefined>;

/** Properties assigned as DOM properties rather than attributes (live form state). */
const PROPS = new Set(['value', 'checked', 'disabled', 'selected', 'readOnly', 'multiple']);

/**
 * Creates an element: `h('button', {class: 'primary', onclick: fn}, 'Save')`.
 * Props starting with `on` are event listeners; `false`/`null`/`undefined` props are skipped.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (PROPS.has(k)) (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** Appends children (nested arrays flattened; null/false skipped; strings as text). */
export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else parent.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces all children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Question content (Markdown + LaTeX) rendered exactly as the candidate page renders it,
 * sanitised by renderRich. `inline` for option texts and short labels.
 */
export function rich(markdown: string | null | undefined, inline = false): HTMLElement {
  const el = document.createElement(inline ? 'span' : 'div');
  el.className = inline ? 'rich rich-inline' : 'rich';
  el.innerHTML = renderRich(markdown ?? '', inline);
  return el;
}

/** Reads the named form controls of a form into a plain object of trimmed strings/booleans. */
export function formValues(form: HTMLFormElement): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const el of Array.from(form.elements)) {
    const c = el as HTMLInputElement;
    if (!c.name) continue;
    if (c.type === 'checkbox') out[c.name] = c.checked;
    else if (c.type === 'radio') {
      if (c.checked) out[c.name] = c.value;
    } else out[c.name] = c.value.trim();
  }
  return out;
}

/** A labelled form field: `<label><span>Title</span><input …></label>`. */
let fieldIds = 0;

/**
 * A labelled form field: the label names the control (label[for]); a hint sits outside
 * the label and describes it (aria-describedby), so the control's accessible name is the
 * label alone, not the label plus the hint.
 */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  if (!control.id) control.id = `field-${++fieldIds}`;
  let small: HTMLElement | null = null;
  if (hint) {
    small = h('small', { class: 'hint', id: `${control.id}-hint` }, hint);
    control.setAttribute('aria-describedby', small.id);
  }
  return h('div', { class: 'field' }, h('label', { class: 'field-label', for: control.id }, label), control, small);
}

/** A header cell whose label only screen readers get (e.g. over a column of buttons). */
export function hiddenHeader(label: string): HTMLTableCellElement {
  return h('th', null, h('span', { class: 'visually-hidden' }, label));
}

/** Copies text to the clipboard; falls back to a hidden textarea on insecure (http) origins. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const ta = h('textarea', { class: 'offscreen', readOnly: true }, text);
  document.body.appendChild(ta);
  ta.select();
  document.execCommand('copy');
  ta.remove();
}

/**
 * Previous / next for a paged board view (issue #38 §7: 10,000 halls, 20,000 candidates a
 * paper): "201–300 of 10,000" and the two buttons, which call `go` with the new offset.
 */
import { h } from '../../admin/dom.js';

/** The pager for `offset`/`size` of `total` rows; `id` names it (`<id>-prev`, `<id>-next`, `<id>-range`). */
export function pager(id: string, offset: number, size: number, total: number, go: (offset: number) => void): HTMLElement {
  const last = Math.min(offset + size, total);
  return h('div', { class: 'actions pager', id },
    h('button', { type: 'button', class: 'secondary small', id: `${id}-prev`, disabled: offset <= 0, onclick: () => go(Math.max(0, offset - size)) }, 'Previous'),
    h('span', { class: 'muted small', id: `${id}-range` }, total ? `${(offset + 1).toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}` : '0 of 0'),
    h('button', { type: 'button', class: 'secondary small', id: `${id}-next`, disabled: last >= total, onclick: () => go(offset + size) }, 'Next'));
}

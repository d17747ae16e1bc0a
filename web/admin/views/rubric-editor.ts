/**
 * Rubric part of the essay editor: start from a WAEC, Cambridge or STEM template
 * (GET /rubric-templates), then edit criteria (title, marks, description). Shows whether
 * the criteria add up to the question's marks, which the server requires.
 */
import { h, hiddenHeader, replace } from '../dom.js';
import type { Api } from '../api.js';
import { criteriaFromTemplate, criteriaTotal, rescaleCriteria } from '../rubric.js';
import type { Question, RubricTemplate } from '../types.js';

let templatesCache: Promise<RubricTemplate[]> | null = null;

/** The server's rubric templates, fetched once per page load (empty list on failure). */
export function rubricTemplates(api: Api): Promise<RubricTemplate[]> {
  templatesCache ??= api.get<RubricTemplate[]>('/rubric-templates').catch(() => {
    templatesCache = null;
    return [];
  });
  return templatesCache;
}

/** Builds the rubric editor for `draft` (draft.rubric null = no rubric). */
export function rubricEditor(api: Api, draft: Question, changed: () => void): { el: HTMLElement; refresh: () => void } {
  const host = h('div', { class: 'rubric-editor', id: 'rubric-editor' });
  const select = h('select', { id: 'rubric-template', 'aria-label': 'Rubric template' }, h('option', { value: '' }, 'Start from a template…'));
  let templates: RubricTemplate[] = [];
  void rubricTemplates(api).then((list) => {
    templates = list;
    for (const [i, t] of list.entries()) select.appendChild(h('option', { value: String(i) }, `${t.family} — ${t.name}`));
  });
  select.addEventListener('change', () => {
    const t = templates[Number(select.value)];
    if (!select.value || !t) return;
    draft.rubric = { name: t.name, totalMarks: draft.marks, criteria: criteriaFromTemplate(t, draft.marks) };
    select.value = '';
    draw();
    changed();
  });

  const total = h('p', { class: 'rubric-total', id: 'rubric-total' });
  const updateTotal = () => {
    const r = draft.rubric;
    if (!r) return replace(total);
    r.totalMarks = draft.marks;
    const sum = criteriaTotal(r.criteria);
    total.className = sum === draft.marks ? 'rubric-total ok' : 'rubric-total warn';
    replace(total, `Criteria add up to ${sum} of ${draft.marks} marks.`, sum === draft.marks ? '' : ' They must match.',
      sum === draft.marks || !r.criteria.length ? null : h('button', { type: 'button', class: 'link small', onclick: () => {
        r.criteria = rescaleCriteria(r.criteria, draft.marks);
        draw();
        changed();
      } }, 'Scale to fit'));
  };

  const draw = () => {
    const r = draft.rubric;
    if (!r) {
      replace(host, h('div', { class: 'field-label' }, 'Rubric'), h('div', { class: 'inline-form' }, select,
        h('button', { type: 'button', class: 'secondary small', id: 'rubric-blank', onclick: () => {
          draft.rubric = { name: 'Rubric', totalMarks: draft.marks, criteria: [{ title: 'Content', maxMarks: draft.marks, description: '' }] };
          draw();
          changed();
        } }, 'Blank rubric')), h('p', { class: 'muted small' }, 'Optional: essays without a rubric are marked as a whole.'));
      return;
    }
    const name = h('input', { type: 'text', id: 'rubric-name', value: r.name, required: true });
    name.addEventListener('input', () => { r.name = name.value; changed(); });
    const rows = r.criteria.map((c, i) => {
      const title = h('input', { type: 'text', class: 'criterion-title', value: c.title, required: true, 'aria-label': 'Criterion' });
      const marks = h('input', { type: 'number', class: 'criterion-marks', value: c.maxMarks, min: 0, step: 0.5, required: true, 'aria-label': 'Marks' });
      const desc = h('input', { type: 'text', class: 'criterion-desc', value: c.description ?? '', 'aria-label': 'What earns the marks' });
      title.addEventListener('input', () => { c.title = title.value; changed(); });
      marks.addEventListener('input', () => { c.maxMarks = Number(marks.value); updateTotal(); changed(); });
      desc.addEventListener('input', () => { c.description = desc.value; changed(); });
      return h('tr', null, h('td', null, title), h('td', null, marks), h('td', null, desc),
        h('td', null, h('button', { type: 'button', class: 'link small', onclick: () => { r.criteria.splice(i, 1); draw(); changed(); } }, 'Remove')));
    });
    replace(host,
      h('div', { class: 'field-label' }, 'Rubric'),
      h('div', { class: 'inline-form' }, name, select,
        h('button', { type: 'button', class: 'link small', id: 'rubric-remove', onclick: () => { draft.rubric = null; draw(); changed(); } }, 'No rubric')),
      h('table', { class: 'table compact' }, h('thead', null, h('tr', null, h('th', null, 'Criterion'), h('th', null, 'Marks'), h('th', null, 'What earns the marks'), hiddenHeader('Actions'))), h('tbody', null, rows)),
      h('button', { type: 'button', class: 'secondary small', onclick: () => { r.criteria.push({ title: '', maxMarks: 0, description: '' }); draw(); changed(); } }, 'Add criterion'),
      total);
    updateTotal();
  };
  draw();
  return { el: host, refresh: () => (draft.rubric ? updateTotal() : undefined) };
}

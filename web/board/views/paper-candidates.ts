/**
 * The paper's candidates and the hall (centre) each sits at: a hall select per candidate, and
 * "assign the selected to a hall" for many at once; saved in one request (POST
 * /hub/v1/exams/{id}/roster/assignments: each candidate's `hallId`; PINs kept; on a
 * published paper the hub re-issues the halls' packages, docs/hub.md, "Candidates and
 * centres"). Counts per hall show how the candidates are spread. Until saved, a notice says
 * that the changes are only on this page (and the browser asks before the page is left).
 */
import { h, replace } from '../../admin/dom.js';
import { errorBlock, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Candidate, Hall, Paper } from '../types.js';

/** Draws the candidates tab of `paper` into `host`; returns the stop of its leave-page guard. */
export async function renderCandidates(ctx: BoardCtx, host: HTMLElement, paper: Paper, reload: () => void): Promise<() => void> {
  const halls = await ctx.api.get<Hall[]>('/hub/v1/halls');
  const roster: Candidate[] = paper.roster.map((c) => ({ ...c, hallId: c.hallId ?? null }));
  const editable = ctx.can('author');
  const selected = new Set<string>();
  const counts = h('p', { id: 'centre-counts', class: 'muted' });
  const errorHost = h('div');
  const unsaved = h('p', { class: 'notice', id: 'unsaved-centres', role: 'status', hidden: true }, 'Not saved yet: press Save assignments to keep these halls (leaving this tab drops them).');
  const guard = (e: BeforeUnloadEvent) => e.preventDefault();
  const changed = () => {
    if (!unsaved.hidden) return;
    unsaved.hidden = false;
    window.addEventListener('beforeunload', guard);
  };
  const hallName = (id: string | null | undefined) => halls.find((x) => x.id === id)?.name ?? null;
  const showCounts = () => {
    const by = new Map<string, number>();
    for (const c of roster) by.set(c.hallId ?? '', (by.get(c.hallId ?? '') ?? 0) + 1);
    const parts = halls.filter((x) => by.has(x.id)).map((x) => `${x.name}: ${by.get(x.id)}`);
    replace(counts, [...parts, `not assigned: ${by.get('') ?? 0}`].join(' · '));
  };
  const hallSelect = (value: string | null, label: string, onChange: (v: string | null) => void) => {
    const s = h('select', { 'aria-label': label, disabled: !editable }, h('option', { value: '' }, '— no hall —'), halls.map((x) => h('option', { value: x.id, selected: x.id === value }, x.name)));
    s.addEventListener('change', () => onChange(s.value || null));
    return s;
  };
  const selects = new Map<string, HTMLSelectElement>();
  const rows = roster.map((c) => {
    const box = h('input', { type: 'checkbox', class: 'pick', 'aria-label': `Select ${c.candidateName}`, disabled: !editable });
    box.addEventListener('change', () => (box.checked ? selected.add(c.studentId) : selected.delete(c.studentId)));
    const sel = hallSelect(c.hallId ?? null, `Hall for ${c.candidateName}`, (v) => {
      c.hallId = v;
      showCounts();
      changed();
    });
    selects.set(c.studentId, sel);
    return h('tr', { 'data-student-id': c.studentId }, h('td', null, box), h('td', null, c.studentId), h('td', null, c.candidateName), h('td', null, sel));
  });
  const all = h('input', { type: 'checkbox', id: 'pick-all', 'aria-label': 'Select every candidate', disabled: !editable });
  all.addEventListener('change', () => {
    for (const box of Array.from(host.querySelectorAll<HTMLInputElement>('input.pick'))) box.checked = all.checked;
    for (const c of roster) (all.checked ? selected.add(c.studentId) : selected.delete(c.studentId));
  });
  let bulkHall: string | null = null;
  const bulk = hallSelect(null, 'Hall for the selected candidates', (v) => (bulkHall = v));
  bulk.id = 'bulk-hall';
  const assign = () => {
    for (const c of roster) {
      if (!selected.has(c.studentId)) continue;
      c.hallId = bulkHall;
      selects.get(c.studentId)!.value = bulkHall ?? '';
    }
    if (!selected.size) return toast('Tick the candidates to assign first.', 'error');
    toast(`${selected.size} candidate${selected.size === 1 ? '' : 's'} set to ${hallName(bulkHall) ?? 'no hall'}: press Save assignments to keep it.`);
    changed();
    selected.clear();
    all.checked = false;
    for (const box of Array.from(host.querySelectorAll<HTMLInputElement>('input.pick'))) box.checked = false;
    showCounts();
  };
  const save = async () => {
    replace(errorHost);
    try {
      // one request for every assignment; on a published paper the hub re-issues the halls' packages
      await ctx.api.post(`/hub/v1/exams/${encodeURIComponent(paper.id)}/roster/assignments`, { assignments: roster.map((c) => ({ studentId: c.studentId, hallId: c.hallId })) });
      toast('Assignments saved.');
      window.removeEventListener('beforeunload', guard);
      reload();
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  };
  showCounts();
  replace(host,
    h('section', { class: 'card stack' },
      h('h2', null, 'Candidates and their halls'),
      counts,
      editable ? h('div', { class: 'actions bulk-assign' },
        h('span', null, 'Assign the selected to'), bulk,
        h('button', { type: 'button', class: 'secondary', id: 'assign-selected', onclick: assign }, 'Assign'),
        h('button', { type: 'button', class: 'primary', id: 'save-centres', onclick: () => void save() }, 'Save assignments')) : null,
      unsaved,
      errorHost,
      h('table', { class: 'table', id: 'candidates' },
        h('thead', null, h('tr', null, h('th', null, all), h('th', null, 'Student ID'), h('th', null, 'Name'), h('th', null, 'Hall'))),
        h('tbody', null, rows))));
  return () => window.removeEventListener('beforeunload', guard);
}

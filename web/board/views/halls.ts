/**
 * Halls and their state (GET /hub/v1/halls?offset&limit&q, 100 a page with previous / next and a
 * search on name or id, the visible page refreshed every 10 s while open): enrolled,
 * last seen (and a clock more than a minute off), packages delivered, papers released,
 * attempts in progress, results in against expected, and which version of each paper the
 * hall holds against the paper's current one (hall-papers.ts). Publishers create a hall (its one-time
 * enrolment code shown once, valid 24 h) and revoke a hall — a stolen or broken machine —
 * which issues the enrolment code for its replacement (POST /hub/v1/halls/{id}/revoke).
 */
import { copyText, field, h, hiddenHeader, replace } from '../../admin/dom.js';
import { formatDateTime } from '../../admin/time.js';
import { confirmDialog, errorText, openDialog, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Hall } from '../types.js';
import { hallPapersCell } from './hall-papers.js';
import { pager } from './pager.js';

/** How often the screen asks the hub again (ms). */
const REFRESH_MS = 10_000;
/** Halls a page (issue #38 §7: a board of 10,000 halls). */
const PAGE_SIZE = 100;

/** A dialog showing an enrolment code once. */
async function showCode(title: string, hallName: string, code: string, expires: string): Promise<void> {
  await openDialog({
    title,
    intro: h('div', { class: 'stack' },
      h('p', null, `Give this one-time code to ${hallName}'s operator: they type it on the hall's admin page (Exam board). It is shown only now and works once, until ${formatDateTime(expires)}.`),
      h('p', { class: 'big-code', id: 'enrolment-code' }, code),
      h('button', { type: 'button', class: 'secondary small', onclick: () => void copyText(code) }, 'Copy')),
    submitLabel: 'Done',
    cancelLabel: 'Close',
    danger: false,
  });
}

function lastSeen(x: Hall): string {
  if (!x.lastContactAt) return 'never';
  return `${formatDateTime(x.lastContactAt)}${x.clockFlagged ? ` (clock ${Math.round((x.clockOffsetMs ?? 0) / 1000)} s off)` : ''}`;
}

/** Draws the halls screen into `host`; returns the stop of its refresh. */
export async function renderHalls(ctx: BoardCtx, host: HTMLElement): Promise<() => void> {
  const table = h('div', { id: 'halls-table' });
  const stamp = h('p', { class: 'muted small', id: 'halls-updated' });
  const publisher = ctx.can('publisher');
  let offset = 0;
  let asked = 0;
  const search = h('input', { type: 'search', id: 'halls-search', placeholder: 'Search halls by name or id', 'aria-label': 'Search halls by name or id', maxlength: 200, oninput: () => { offset = 0; void draw().catch((e) => toast(errorText(e), 'error')); } });
  const draw = async () => {
    const q = search.value.trim();
    const mine = ++asked;
    const page = await ctx.api.get<{ total: number; halls: Hall[] }>(`/hub/v1/halls?offset=${offset}&limit=${PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`);
    if (mine !== asked) return; // a newer page or search was asked for meanwhile
    if (page.total && offset >= page.total) {
      offset = Math.floor((page.total - 1) / PAGE_SIZE) * PAGE_SIZE;
      return draw();
    }
    const halls = page.halls;
    stamp.textContent = `Updated ${new Date().toLocaleTimeString()} · refreshes every ${REFRESH_MS / 1000} s`;
    const go = (to: number) => { offset = to; void draw().catch((e) => toast(errorText(e), 'error')); };
    replace(table, halls.length
      ? [pager('halls-pager', offset, PAGE_SIZE, page.total, go), h('table', { class: 'table', id: 'halls' },
        h('thead', null, h('tr', null, ['Hall', 'Enrolled', 'Last seen', 'Papers (version held)', 'Packages delivered', 'Released', 'In progress', 'Results in / expected'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
        h('tbody', null, halls.map((x) => h('tr', { 'data-hall-id': x.id, class: x.clockFlagged ? 'row-warn' : null },
          h('td', null, x.name),
          h('td', { 'data-field': 'enrolled' }, x.enrolled ? `yes, ${formatDateTime(x.enrolledAt)}` : 'no: waiting for its code'),
          h('td', { 'data-field': 'last-seen' }, lastSeen(x)),
          h('td', { 'data-field': 'papers' }, hallPapersCell(x.exams)),
          h('td', { class: 'num', 'data-field': 'delivered' }, `${x.packagesReceived} / ${x.packagesPublished}`),
          h('td', { class: 'num', 'data-field': 'released' }, String(x.examsReleased), x.releasesUnproven ? h('span', { class: 'warn small', title: 'The hall says it released these, without the proof that it holds the release code' }, ` (+${x.releasesUnproven} unproven)`) : null),
          h('td', { class: 'num' }, String(x.attemptsInProgress)),
          h('td', { class: 'num', 'data-field': 'results' }, `${x.resultsReceived} / ${x.resultsExpected}`),
          h('td', null, publisher ? h('button', { type: 'button', class: 'link small danger-text', 'data-action': 'revoke', onclick: () => void revoke(x) }, x.enrolled ? 'Revoke & replace' : 'New code') : null)))))]
      : h('p', { class: 'empty' }, q ? `No hall’s name or id contains “${q}”.` : 'No halls yet.'));
  };
  const revoke = async (x: Hall) => {
    const sure = x.enrolled
      ? await confirmDialog(`Revoke ${x.name}?`, `The hall's machine will be refused from now on (a stolen or broken machine), and a new one-time code enrols its replacement. Its papers stay sealed for it under the same release codes: the replacement fetches them once it has enrolled.`, 'Revoke and issue a code')
      : await confirmDialog(`A new code for ${x.name}?`, `The code given before stops working (lost or expired); the new one works once, for 24 hours.`, 'Issue a new code');
    if (!sure) return;
    try {
      const res = await ctx.api.post<{ enrolmentCode: string; enrolmentExpiresAt: string }>(`/hub/v1/halls/${encodeURIComponent(x.id)}/revoke`);
      await draw();
      await showCode(`Enrol ${x.name}'s replacement`, x.name, res.enrolmentCode, res.enrolmentExpiresAt);
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };
  const create = async () => {
    type Made = { id: string; name: string; enrolmentCode: string; enrolmentExpiresAt: string };
    let made: Made | null = null;
    await openDialog({
      title: 'New hall',
      fields: [field('Hall / centre name', h('input', { name: 'name', required: true, maxlength: 200 }))],
      submitLabel: 'Create hall',
      danger: false,
      onSubmit: async (v) => {
        made = await ctx.api.post<Made>('/hub/v1/halls', { name: v.name });
      },
    });
    const m = made as Made | null;
    if (!m) return;
    await draw();
    await showCode(`${m.name} created`, m.name, m.enrolmentCode, m.enrolmentExpiresAt);
  };
  await draw();
  replace(host,
    h('div', { class: 'page-head' },
      h('h1', null, 'Halls'),
      publisher ? h('button', { type: 'button', class: 'primary', id: 'new-hall', onclick: () => void create() }, 'New hall') : null),
    h('section', { class: 'card' }, search, table, stamp));
  const timer = window.setInterval(() => void draw().catch(() => undefined), REFRESH_MS);
  return () => clearInterval(timer);
}

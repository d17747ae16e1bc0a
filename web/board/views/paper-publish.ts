/**
 * Publish a paper to halls and hand out its release codes (publishers): tick the enrolled
 * halls (those the candidates are assigned to, or published to before, come ticked), publish
 * (POST /hub/v1/exams/{id}/publish: one sealed package per hall; again after a change, the
 * next version), then each hall's release code, package state and package file for a USB
 * stick (GET …/release-codes, GET /hub/v1/package-files/{id}), and a printable sheet of the
 * codes, one hall per page (#print-area, styles.css `.print-codes`).
 */
import { h, hiddenHeader, replace } from '../../admin/dom.js';
import { formatDateTime } from '../../admin/time.js';
import { errorBlock, errorText, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Hall, HallPaperVersion, Paper, ReleaseCode } from '../types.js';
import { paperVersionState } from './hall-papers.js';

/** The "The hall has" cell: the version the hall holds, in the board's words. */
function heldText(x: HallPaperVersion | undefined): HTMLElement | string {
  if (!x) return '—';
  const s = paperVersionState(x, true);
  return s.lagging ? h('span', { class: 'warn' }, s.text) : s.text;
}

/** The print sheets: one page per hall with its code, large. */
export function releaseCodeSheets(paper: Paper, codes: ReleaseCode[]): HTMLElement {
  return h('div', { class: 'code-sheets' }, codes.map((c) => h('section', { class: 'code-sheet', 'data-hall-id': c.hallId },
    h('p', { class: 'sheet-kicker' }, 'HallCBT — release code (confidential)'),
    h('h1', null, c.hallName),
    h('dl', { class: 'facts' },
      h('dt', null, 'Paper'), h('dd', null, paper.title),
      h('dt', null, 'Starts'), h('dd', null, formatDateTime(paper.startsAt)),
      h('dt', null, 'Version'), h('dd', null, String(c.version)),
      h('dt', null, 'Hall ID'), h('dd', null, c.hallId)),
    h('p', { class: 'big-code' }, c.releaseCode),
    h('p', null, 'Read this code to the hall’s invigilator at the start time (the hall accepts it from 5 minutes before). It opens this paper at this hall only.'),
    h('p', { class: 'sign-line' }, 'Handed over by ____________________   to ____________________   at ________'))));
}

/** Draws the publish tab of `paper` into `host`. */
export async function renderPublish(ctx: BoardCtx, host: HTMLElement, paper: Paper): Promise<void> {
  const base = `/hub/v1/exams/${encodeURIComponent(paper.id)}`;
  const [halls, codes] = await Promise.all([ctx.api.get<Hall[]>('/hub/v1/halls'), ctx.api.get<ReleaseCode[]>(`${base}/release-codes`)]);
  const published = new Set(codes.map((c) => c.hallId));
  const assigned = new Set(paper.roster.map((c) => c.hallId).filter((x): x is string => Boolean(x)));
  const errorHost = h('div');
  const boxes = halls.map((x) => h('input', { type: 'checkbox', name: 'hall', value: x.id, disabled: !x.enrolled, checked: x.enrolled && (published.has(x.id) || assigned.has(x.id)), 'aria-label': x.name }));
  const publish = async () => {
    replace(errorHost);
    const hallIds = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!hallIds.length) return replace(errorHost, h('div', { class: 'error', role: 'alert' }, 'Tick at least one enrolled hall.'));
    try {
      const res = await ctx.api.post<{ packages: unknown[] }>(`${base}/publish`, { hallIds });
      toast(`Published to ${res.packages.length} hall${res.packages.length === 1 ? '' : 's'}.`);
      ctx.navigate(`#/papers/${encodeURIComponent(paper.id)}/publish`);
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  };
  // the newest package of each hall
  const newest = [...codes].sort((a, b) => b.version - a.version).filter((c, i, all) => all.findIndex((x) => x.hallId === c.hallId) === i);
  const print = () => {
    const area = document.getElementById('print-area')!;
    area.className = 'print-codes';
    replace(area, releaseCodeSheets(paper, newest));
    window.print();
  };
  replace(host,
    h('section', { class: 'card stack' },
      h('h2', null, 'Publish'),
      h('p', { class: 'muted' }, 'Each ticked hall gets its own sealed package; nothing in it is readable before its release code. A change to the paper until 5 minutes before its start is sealed again for these halls at once: no need to publish again.'),
      halls.length
        ? h('ul', { class: 'plain hall-picks', id: 'publish-halls' }, halls.map((x, i) => h('li', null, h('label', null, boxes[i], ` ${x.name}`, x.enrolled ? '' : ' (not enrolled yet)', assigned.has(x.id) ? ` · ${paper.roster.filter((c) => c.hallId === x.id).length} candidates` : ''))))
        : h('p', { class: 'empty' }, 'No halls yet: create them on the Halls screen.'),
      errorHost,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', id: 'publish', onclick: () => void publish() }, paper.publishedVersion === null ? 'Publish' : paper.republishNeeded ? 'Publish again' : 'Publish to the ticked halls'))),
    h('section', { class: 'card stack' },
      h('h2', null, 'Release codes'),
      newest.length
        ? [
          h('table', { class: 'table', id: 'release-codes' },
            h('thead', null, h('tr', null, ['Hall', 'Version', 'Release code', 'Package', 'The hall has'].map((t) => h('th', null, t)), hiddenHeader('Package file'))),
            h('tbody', null, newest.map((c) => h('tr', { 'data-hall-id': c.hallId },
              h('td', null, c.hallName), h('td', null, String(c.version)), h('td', null, h('code', { class: 'release-code' }, c.releaseCode)),
              h('td', null, c.released ? 'released' : c.downloaded ? 'delivered' : 'waiting for the hall'),
              h('td', { 'data-field': 'held' }, heldText(halls.find((x) => x.id === c.hallId)?.exams.find((e) => e.examId === paper.id))),
              h('td', null, h('button', { type: 'button', class: 'link small', onclick: () => void ctx.api.download(`/hub/v1/package-files/${encodeURIComponent(c.packageId)}`, `${c.packageId}.hallcbt-package.json`).catch((e) => toast(errorText(e), 'error')) }, 'Package file (USB)')))))),
          h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', id: 'print-codes', onclick: print }, 'Print release codes (one hall per page)')),
        ]
        : h('p', { class: 'empty' }, 'Publish first: each hall’s code appears here.')));
}

/**
 * Roster tab: candidates allowed into the exam with the PINs the server issued
 * (GET/POST /exams/:id/roster), file import (POST /exams/:id/roster/import; a CSV is
 * parsed here with papaparse when that route is absent), new PIN, removal, copying the
 * SMS/WhatsApp link per candidate, and printing PIN slips. A candidate may be added with
 * access arrangements (extra time: a percentage of the duration and/or minutes, shown in
 * the table as "+25% +15 min") and the subjects (section names) they sit.
 */
import Papa from 'papaparse';
import { ApiError } from '../api.js';
import { copyText, field, formValues, h, hiddenHeader, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam, RosterEntry, SystemInfo } from '../types.js';
import { confirmDialog, errorBlock, errorText, printNow, setPrintArea, toast } from '../ui.js';
import { pinSlips, safeMessagingHref } from './pin-slips.js';
import { qrSvg } from './connect.js';

type CandidateIn = { studentId: string; candidateName: string; phone?: string };

/** CSV text → candidates (header names studentId/student id, candidateName/name, phone). */
export function parseRosterCsv(text: string): CandidateIn[] {
  const rows = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: 'greedy', transformHeader: (s) => s.trim().toLowerCase().replace(/[^a-z]/g, '') }).data;
  return rows.map((r) => ({
    studentId: (r.studentid ?? r.id ?? '').trim(),
    candidateName: (r.candidatename ?? r.name ?? '').trim(),
    ...(r.phone?.trim() ? { phone: r.phone.trim() } : {}),
  })).filter((c) => c.studentId || c.candidateName);
}

/** A candidate's access arrangements as "+25% +15 min"; '' without any. */
export function extraTimeText(r: { extraTimePercent?: number; extraTimeMins?: number }): string {
  return [r.extraTimePercent ? `+${r.extraTimePercent}%` : '', r.extraTimeMins ? `+${r.extraTimeMins} min` : ''].filter(Boolean).join(' ');
}

/** Draws the roster tab. */
export async function renderRoster(ctx: Ctx, host: HTMLElement, exam: Exam): Promise<void> {
  const base = `/exams/${encodeURIComponent(exam.id)}/roster`;
  const [roster, info] = await Promise.all([
    ctx.api.get<RosterEntry[]>(base),
    ctx.api.get<SystemInfo>('/system/info').catch(() => null),
  ]);
  const reload = () => ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/roster`);
  const act = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };

  const addError = h('div');
  const addForm = h('form', { id: 'roster-add-form', class: 'inline-form' },
    field('Student ID', h('input', { name: 'studentId', required: true, maxlength: 64 })),
    field('Name', h('input', { name: 'candidateName', required: true, maxlength: 200 })),
    field('Phone (for the SMS link)', h('input', { name: 'phone', type: 'tel', maxlength: 32 })),
    field('Extra time (%)', h('input', { name: 'extraTimePercent', type: 'number', min: 0, max: 200, step: 1, inputmode: 'numeric' })),
    field('Extra minutes', h('input', { name: 'extraTimeMins', type: 'number', min: 0, max: 600, step: 1, inputmode: 'numeric' })),
    field('Subjects', h('input', { name: 'subjects', maxlength: 500, placeholder: 'e.g. English, Physics' }), 'Comma-separated section names; empty: every section'),
    h('button', { type: 'submit', class: 'primary' }, 'Add candidate'));
  addForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = formValues(addForm);
    const subjects = String(v.subjects ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    try {
      await ctx.api.post(base, { candidates: [{
        studentId: v.studentId,
        candidateName: v.candidateName,
        ...(v.phone ? { phone: v.phone } : {}),
        // sent only when filled: the server's defaults are no extra time and every section
        ...(v.extraTimePercent ? { extraTimePercent: Number(v.extraTimePercent) } : {}),
        ...(v.extraTimeMins ? { extraTimeMins: Number(v.extraTimeMins) } : {}),
        ...(subjects.length ? { subjects } : {}),
      }] });
      toast(`${String(v.candidateName)} added.`);
      reload();
    } catch (err) {
      replace(addError, errorBlock(err));
    }
  });

  const fileInput = h('input', { type: 'file', id: 'roster-file', accept: '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const importError = h('div');
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    replace(importError);
    try {
      const n = await importRosterFile(ctx, base, file);
      toast(`${n} candidate${n === 1 ? '' : 's'} imported.`);
      reload();
    } catch (err) {
      replace(importError, errorBlock(err));
      fileInput.value = '';
    }
  });

  const rows = roster.map((r) => {
    const sms = safeMessagingHref(r.smsLink);
    const wa = safeMessagingHref(r.whatsappLink);
    return h('tr', { 'data-candidate-id': r.id, 'data-student-id': r.studentId },
      h('td', null, r.studentId),
      h('td', null, r.candidateName),
      h('td', null, r.phone ?? '—'),
      h('td', { 'data-field': 'extra-time' }, extraTimeText(r) || '—'),
      h('td', null, h('code', { class: 'pin' }, r.pin)),
      h('td', { class: 'row-actions' },
        sms ? h('button', { type: 'button', class: 'link small', 'data-action': 'copy-sms', onclick: () => act(async () => { await copyText(sms); toast('SMS link copied.'); }) }, 'Copy SMS link') : null,
        wa ? h('button', { type: 'button', class: 'link small', 'data-action': 'copy-whatsapp', onclick: () => act(async () => { await copyText(wa); toast('WhatsApp link copied.'); }) }, 'Copy WhatsApp link') : null,
        wa ? h('a', { href: wa, target: '_blank', rel: 'noopener noreferrer', class: 'small' }, 'Open WhatsApp') : null,
        h('button', { type: 'button', class: 'link small', 'data-action': 'new-pin', onclick: () => act(async () => {
          if (!(await confirmDialog('New PIN', `Issue a new PIN for ${r.candidateName}? The old PIN stops working.`, 'New PIN', false))) return;
          await ctx.api.post(`${base}/${encodeURIComponent(r.id)}/pin`);
          reload();
        }) }, 'New PIN'),
        h('button', { type: 'button', class: 'link small danger-text', 'data-action': 'remove', onclick: () => act(async () => {
          if (!(await confirmDialog('Remove candidate', `Remove ${r.candidateName} (${r.studentId}) from the roster?`, 'Remove'))) return;
          await ctx.api.del(`${base}/${encodeURIComponent(r.id)}`);
          reload();
        }) }, 'Remove')));
  });

  const sebQr = exam.safeExamBrowser?.required && exam.safeExamBrowser.sebUrl ? await qrSvg(exam.safeExamBrowser.sebUrl) : null;
  setPrintArea('slips', pinSlips(exam, ctx.workspace.name, roster, info?.candidateUrl ?? info?.lanUrls?.[0] ?? `${location.origin}/`, sebQr));
  replace(host,
    h('section', { class: 'card' }, h('h2', null, 'Add candidates'), addForm, addError,
      h('div', { class: 'inline-form' }, field('…or import a list (.csv or .xlsx with columns studentId, candidateName, phone; optional extraTimePercent, extraTimeMins)', fileInput)), importError),
    h('div', { class: 'page-head' },
      h('p', { class: 'muted' }, roster.length ? `${roster.length} candidate${roster.length === 1 ? '' : 's'} on the roster. Only they can start, each with their PIN.` : 'No roster: anyone with the room code can start and chooses their own PIN.'),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', id: 'download-roster', disabled: !roster.length, onclick: () => act(() => ctx.api.download(`/exams/${encodeURIComponent(exam.id)}/roster.xlsx`, `roster-${exam.accessCode}.xlsx`)) }, 'Download .xlsx'),
        h('button', { type: 'button', class: 'primary', id: 'print-slips', disabled: !roster.length, onclick: printNow }, 'Print PIN slips'))),
    roster.length
      ? h('table', { class: 'table', id: 'roster-table' },
        h('thead', null, h('tr', null, ['Student ID', 'Name', 'Phone', 'Extra time', 'PIN'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
        h('tbody', null, rows))
      : null);
}

/** Sends a roster file to the server; a CSV falls back to a client-side parse if the import route is missing. Resolves the count. */
async function importRosterFile(ctx: Ctx, base: string, file: File): Promise<number> {
  const fd = new FormData();
  fd.set('file', file, file.name);
  try {
    const res = await ctx.api.form<{ created?: number; candidates?: unknown[] }>(`${base}/import`, fd);
    return res.created ?? res.candidates?.length ?? 0;
  } catch (err) {
    const missing = err instanceof ApiError && (err.status === 404 || err.status === 405) && !err.errors;
    if (!missing || !/\.csv$/i.test(file.name)) throw err;
  }
  const candidates = parseRosterCsv(await file.text());
  if (!candidates.length) throw new Error('No candidates found. The first row must name the columns studentId, candidateName, phone.');
  const res = await ctx.api.post<{ created: number }>(base, { candidates });
  return res.created;
}

/**
 * Safe Exam Browser card of the exam settings tab (issue 25): the Config Key, the start
 * URL, the invigilator's quit password, the .seb file (downloaded with the API key),
 * the seb:// link with its QR code, a poster of it for the board, and the optional list
 * of Browser Exam Keys for centres that pin an SEB version.
 */
import { field, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam, SebDetails } from '../types.js';
import { errorBlock, printNow, setPrintArea, toast } from '../ui.js';
import { qrSvg } from './connect.js';

/** Draws the card into `host` (nothing when the exam does not require SEB). */
export async function renderSebCard(ctx: Ctx, host: HTMLElement, exam: Exam): Promise<void> {
  if (!exam.safeExamBrowser?.required) {
    replace(host);
    return;
  }
  const path = `/exams/${encodeURIComponent(exam.id)}`;
  const seb = await ctx.api.get<SebDetails>(`${path}/safe-exam-browser`);
  const link = seb.sebUrl ?? '';
  const keys = h('textarea', { name: 'browserExamKeys', id: 'seb-beks', rows: 3, class: 'mono', placeholder: 'one 64-digit key per line (optional)' }) as HTMLTextAreaElement;
  keys.value = seb.browserExamKeys.join('\n');
  const errorHost = h('div');
  const saveKeys = h('button', { type: 'button', class: 'secondary', id: 'save-beks', onclick: async () => {
    replace(errorHost);
    try {
      const list = keys.value.split(/\s+/).map((k) => k.trim()).filter(Boolean);
      await ctx.api.patch<Exam>(path, { safeExamBrowser: { browserExamKeys: list } });
      toast('Browser Exam Keys saved.');
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  } }, 'Save keys');

  setPrintArea('poster',
    h('div', { class: 'poster' },
      h('h1', null, exam.title),
      h('p', null, 'This exam opens only in Safe Exam Browser. Scan the code or open:'),
      h('p', { class: 'big-url' }, link),
      await qrSvg(link),
      h('p', null, `Room code ${exam.accessCode}`)));

  replace(host,
    h('section', { class: 'card stack', id: 'seb-card' },
      h('h2', null, 'Safe Exam Browser'),
      h('p', null, 'Candidates can only open this exam in Safe Exam Browser with the configuration below; every request is checked against its Config Key. A PC that fails the check mid-exam is stopped and locked; reinstate it from the monitor.'),
      h('dl', { class: 'kv' },
        h('dt', null, 'Start URL'), h('dd', { class: 'mono', id: 'seb-start-url' }, seb.startUrl ?? ''),
        h('dt', null, 'Config Key'), h('dd', { class: 'mono small', id: 'seb-config-key' }, seb.configKey ?? ''),
        h('dt', null, 'Quit password (invigilators)'), h('dd', { class: 'mono', id: 'seb-quit-password' }, seb.quitPassword ?? ''),
        h('dt', null, 'Link for the hall PCs'), h('dd', { class: 'mono', id: 'seb-link' }, h('a', { href: link }, link))),
      h('div', { class: 'qr-host small-qr' }, await qrSvg(link)),
      h('div', { class: 'actions left' },
        h('button', { type: 'button', class: 'primary', id: 'download-seb', onclick: () => void ctx.api.download(`${path}/safe-exam-browser.seb`, `${exam.accessCode}.seb`).catch((err) => toast(String((err as Error).message), 'error')) }, 'Download .seb file'),
        h('button', { type: 'button', class: 'secondary', id: 'print-seb-poster', onclick: printNow }, 'Print poster for the board')),
      field('Browser Exam Keys also accepted', keys, 'Only for centres that pin one SEB version: paste the key SEB shows for this configuration.'),
      errorHost,
      h('div', { class: 'actions left' }, saveKeys)));
}

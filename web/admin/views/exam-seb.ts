/**
 * Safe Exam Browser card of the exam settings tab (issue 25; issue #34 finding 6): the
 * Config Key, the start URL, the invigilator's quit password, the .seb file (downloaded
 * with the API key), the seb:// link with its download code and QR code, a poster of it,
 * the Browser Exam Keys of the SEB versions the centre allows, and the RequestHash values
 * seats sent, so a pasted key can be confirmed against a real SEB before it is required.
 */
import { field, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { BekSighting, Exam, SebDetails } from '../types.js';
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
  const sightingsHost = h('div', { id: 'seb-sightings' }, sightingsList(seb.browserExamKeySightings));
  const saveKeys = h('button', { type: 'button', class: 'secondary', id: 'save-beks', onclick: async () => {
    replace(errorHost);
    try {
      const list = keys.value.split(/\s+/).map((k) => k.trim()).filter(Boolean);
      await ctx.api.patch<Exam>(path, { safeExamBrowser: { browserExamKeys: list } });
      toast(list.length ? 'Browser Exam Keys saved: every request must now carry one of them.' : 'Browser Exam Keys cleared: the Config Key check only.');
      replace(sightingsHost, sightingsList((await ctx.api.get<SebDetails>(`${path}/safe-exam-browser`)).browserExamKeySightings));
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
      h('p', null, 'Every candidate request is checked against the Config Key below. That proves the PC has this configuration, not that it runs Safe Exam Browser: anyone holding the .seb file can compute the key. To require real SEB, register the Browser Exam Keys of the SEB versions your hall PCs run (below). A PC that fails a check mid-exam is stopped and locked; reinstate it from the monitor.'),
      h('dl', { class: 'kv' },
        h('dt', null, 'Start URL'), h('dd', { class: 'mono', id: 'seb-start-url' }, seb.startUrl ?? ''),
        h('dt', null, 'Config Key'), h('dd', { class: 'mono small', id: 'seb-config-key' }, seb.configKey ?? ''),
        h('dt', null, 'Quit password (invigilators)'), h('dd', { class: 'mono', id: 'seb-quit-password' }, seb.quitPassword ?? ''),
        h('dt', null, 'Link for the hall PCs'), h('dd', { class: 'mono', id: 'seb-link' }, h('a', { href: link }, link)),
        h('dt', null, 'Download code (in the link)'), h('dd', { class: 'mono', id: 'seb-download-code' }, seb.downloadCode ?? '')),
      h('p', { class: 'small muted' }, 'The .seb file opens only with this link (or the API key); the room code alone does not get it. Hand the link out on PIN slips or the poster. Changing the quit password changes the code.'),
      h('div', { class: 'qr-host small-qr' }, await qrSvg(link)),
      h('div', { class: 'actions left' },
        h('button', { type: 'button', class: 'primary', id: 'download-seb', onclick: () => void ctx.api.download(`${path}/safe-exam-browser.seb`, `${exam.accessCode}.seb`).catch((err) => toast(String((err as Error).message), 'error')) }, 'Download .seb file'),
        h('button', { type: 'button', class: 'secondary', id: 'print-seb-poster', onclick: printNow }, 'Print poster for the board')),
      field('Browser Exam Keys (required when set)', keys, 'One per SEB version and platform your hall PCs run. Open this exam’s .seb file in SEB’s configuration tool (Windows: SEB Configuration Tool, Exam tab; macOS: SEB Preferences, Exam) on one PC of each kind, copy its Browser Exam Key — do not save the file there — and paste it here. Then start SEB from the link on that PC: its line below must show “matches”.'),
      errorHost,
      h('div', { class: 'actions left' }, saveKeys),
      h('h3', null, 'Browser Exam Key hashes the hall PCs sent'),
      sightingsHost));
}

/**
 * The RequestHash each SEB client (by User-Agent) last sent, and whether a registered key
 * explains it. SEB sends only SHA-256(URL + BEK), never the BEK, so this confirms a key;
 * it cannot reveal one.
 */
function sightingsList(list: BekSighting[]): HTMLElement {
  if (!list.length) return h('p', { class: 'small muted' }, 'None yet: start SEB from the link on a hall PC (the sign-in page is enough).');
  return h('ul', { class: 'small' }, list.map((x) => h('li', { 'data-matches': x.matchesKey ? 'true' : 'false' },
    h('strong', null, x.client), ' — ',
    x.matchesKey ? `matches ${x.matchesKey.slice(0, 12)}…` : 'no registered key matches',
    h('br'), h('span', { class: 'mono muted' }, x.requestHash))));
}

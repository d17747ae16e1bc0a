/**
 * Getting candidates connected: the hall's LAN addresses (GET /system/info) and a large
 * QR code of the candidate page's URL, generated here with the `qrcode` package (bundled,
 * no network), to show on a projector or print for the board.
 */
import QRCode from 'qrcode';
import { h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { SystemInfo } from '../types.js';
import { printNow, setPrintArea } from '../ui.js';

/** QR code of `text` as an SVG element (parsed from the library's SVG string, not innerHTML). */
export async function qrSvg(text: string): Promise<SVGSVGElement> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const el = document.importNode(doc.documentElement, true) as unknown as SVGSVGElement;
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', `QR code for ${text}`);
  el.classList.add('qr');
  return el;
}

/**
 * The candidate URLs to offer: the server's candidateUrl first, then each LAN address;
 * when the server found no LAN address, the address this page was opened with.
 */
export function candidateUrls(info: SystemInfo, pageOrigin: string): string[] {
  const urls = [...new Set([info.candidateUrl, ...(info.lanUrls ?? [])].filter((u): u is string => Boolean(u)))];
  return urls.length ? urls : [`${pageOrigin}/`];
}

/** Draws the connect screen. */
export async function renderConnect(ctx: Ctx, host: HTMLElement): Promise<void> {
  const info = await ctx.api.get<SystemInfo>('/system/info');
  const urls = candidateUrls(info, location.origin);
  const qrHost = h('div', { class: 'qr-host', id: 'qr-host' });
  const urlText = h('p', { class: 'big-url', id: 'candidate-url' });
  const select = h('select', { id: 'url-select', 'aria-label': 'Address to show' }, urls.map((u) => h('option', { value: u }, u)));

  const show = async (url: string) => {
    replace(urlText, url);
    replace(qrHost, await qrSvg(url));
    setPrintArea('poster',
      h('div', { class: 'poster' },
        h('h1', null, ctx.workspace.name),
        h('p', null, 'Connect to the hall Wi-Fi, then open:'),
        h('p', { class: 'big-url' }, url),
        await qrSvg(url),
        h('p', null, 'Type the room code your invigilator writes on the board.')));
  };
  select.addEventListener('change', () => void show(select.value));

  replace(host,
    h('h1', null, 'Connect candidates'),
    h('section', { class: 'card connect' },
      h('p', null, 'Candidates join the hall Wi-Fi and open this address (or scan the code):'),
      info.thisMachineOnly ? h('p', { class: 'alert-unseen', id: 'this-machine-only', role: 'note' }, 'The server listens on this machine only (HOST is a loopback address): the hall PCs cannot open it. Restart it with HOST=0.0.0.0 to let them in.') : null,
      urls.length > 1 ? h('label', { class: 'inline-form' }, 'Address ', select) : null,
      urlText, qrHost,
      h('div', { class: 'actions left' }, h('button', { type: 'button', class: 'primary', id: 'print-poster', onclick: printNow }, 'Print for the board'))),
    h('section', { class: 'card' },
      h('h2', null, 'This server'),
      h('dl', { class: 'facts' },
        h('dt', null, info.thisMachineOnly ? 'Address (this machine only)' : 'LAN addresses'), h('dd', { id: 'lan-urls' }, info.lanUrls.length ? h('ul', null, info.lanUrls.map((u) => h('li', null, h('code', null, u)))) : 'none found (is the network cable in?)'),
        h('dt', null, 'Admin page'), h('dd', null, h('code', null, info.adminUrl ?? `${location.origin}/admin`)),
        h('dt', null, 'Version'), h('dd', null, info.version),
        h('dt', null, 'Server time'), h('dd', null, new Date(info.serverTime).toLocaleString()))));
  if (urls[0]) await show(urls[0]);
}

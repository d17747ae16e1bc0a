/**
 * The report's chart, drawn by hand as SVG and converted to PNG by the local Debian
 * Chromium (playwright-core, no network). Left panel: steady-hall answer-save latency
 * (p50, p99, max) against N, with the bare route's p99 under the same load and the
 * issue-8 target. Right panel: start and submit p99 per N against the 250 ms target.
 * Both y axes are logarithmic (milliseconds). When Chromium is unavailable only the
 * SVG is written. `writeChart(results, basePath)` resolves the PNG (or SVG) path.
 */
import { writeFileSync } from 'node:fs';

const W = 1100;
const H = 600;
const COLORS = { p50: '#2b7bb9', p99: '#d9534f', max: '#999999', bare: '#5cb85c', target: '#f0ad4e', start: '#6f42c1', submit: '#20a39e' };
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

function logY(v, top, bottom, lo = 0.1, hi = 100_000) {
  const c = Math.min(hi, Math.max(lo, v || lo));
  return bottom - ((Math.log10(c) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (bottom - top);
}

function axes(x0, x1, top, bottom, title, labels) {
  let s = `<text x="${(x0 + x1) / 2}" y="${top - 18}" text-anchor="middle" font-size="16" font-weight="bold">${esc(title)}</text>`;
  s += `<line x1="${x0}" y1="${bottom}" x2="${x1}" y2="${bottom}" stroke="#333"/><line x1="${x0}" y1="${top}" x2="${x0}" y2="${bottom}" stroke="#333"/>`;
  for (const v of [0.1, 1, 10, 100, 1000, 10_000, 100_000]) {
    const y = logY(v, top, bottom);
    s += `<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#e5e5e5"/><text x="${x0 - 6}" y="${y + 4}" text-anchor="end" font-size="11">${v >= 1000 ? `${v / 1000} s` : `${v} ms`}</text>`;
  }
  labels.forEach(([x, l]) => (s += `<text x="${x}" y="${bottom + 18}" text-anchor="middle" font-size="12">${esc(l)}</text>`));
  return s;
}

/** Legend in two columns under a panel's axis title (never over the data). */
function legend(x, y, items) {
  return items
    .map(([label, color, dash], i) => {
      const lx = x + (i % 2) * 230;
      const ly = y + Math.floor(i / 2) * 17;
      return `<line x1="${lx}" y1="${ly}" x2="${lx + 22}" y2="${ly}" stroke="${color}" stroke-width="3" ${dash ? 'stroke-dasharray="6 4"' : ''}/><text x="${lx + 28}" y="${ly + 4}" font-size="12">${esc(label)}</text>`;
    })
    .join('');
}

function hallPanel(runs) {
  const x0 = 80, x1 = 520, top = 60, bottom = 440;
  const xs = runs.map((_, i) => x0 + 40 + (i * (x1 - x0 - 80)) / Math.max(1, runs.length - 1));
  let s = axes(x0, x1, top, bottom, 'Steady hall: answer save latency', runs.map((r, i) => [xs[i], `N=${r.n}`]));
  const line = (vals, color, dash) => {
    const pts = vals.map((v, i) => `${xs[i]},${logY(v, top, bottom)}`).join(' ');
    return `<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2.5" ${dash ? 'stroke-dasharray="6 4"' : ''}/>` + vals.map((v, i) => `<circle cx="${xs[i]}" cy="${logY(v, top, bottom)}" r="3.5" fill="${color}"/>`).join('');
  };
  const save = (r, k) => r.phases.hall?.requests.save?.[k] ?? 0;
  s += line(runs.map((r) => (r.n > 5000 ? 10 : 5)), COLORS.target, true);
  s += line(runs.map((r) => r.phases.baselineHall?.requests['baseline-hall']?.p99 ?? 0), COLORS.bare, true);
  s += line(runs.map((r) => save(r, 'max')), COLORS.max);
  s += line(runs.map((r) => save(r, 'p99')), COLORS.p99);
  s += line(runs.map((r) => save(r, 'p50')), COLORS.p50);
  s += `<text x="${(x0 + x1) / 2}" y="${bottom + 40}" text-anchor="middle" font-size="12">candidates, each saving every 2 s (open loop)</text>`;
  return s + legend(x0, bottom + 62, [['save p50', COLORS.p50], ['save p99', COLORS.p99], ['save max', COLORS.max], ['bare route p99, same load', COLORS.bare, true], ['target p99 (5 ms; 10 ms at 10,000)', COLORS.target, true]]);
}

function surgePanel(runs) {
  const x0 = 640, x1 = 1060, top = 60, bottom = 440;
  const slot = (x1 - x0) / Math.max(1, runs.length);
  let s = axes(x0, x1, top, bottom, 'Start and submit surges: p99 latency', runs.map((r, i) => [x0 + slot * (i + 0.5), `N=${r.n}`]));
  runs.forEach((r, i) => {
    const bars = [[r.phases.start?.requests.start?.p99, COLORS.start], [r.phases.submit?.requests.submit?.p99, COLORS.submit]];
    bars.forEach(([v, color], j) => {
      const x = x0 + slot * i + slot * 0.2 + j * slot * 0.3;
      const y = logY(v ?? 0, top, bottom);
      s += `<rect x="${x}" y="${y}" width="${slot * 0.28}" height="${bottom - y}" fill="${color}"/><text x="${x + slot * 0.14}" y="${y - 4}" text-anchor="middle" font-size="11">${v === undefined ? 'n/a' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`}</text>`;
    });
  });
  const ty = logY(250, top, bottom);
  s += `<line x1="${x0}" y1="${ty}" x2="${x1}" y2="${ty}" stroke="${COLORS.target}" stroke-width="2.5" stroke-dasharray="6 4"/>`;
  s += `<text x="${(x0 + x1) / 2}" y="${bottom + 40}" text-anchor="middle" font-size="12">starts within 10 s; submits within 30 s</text>`;
  return s + legend(x0, bottom + 62, [['start p99', COLORS.start], ['submit p99', COLORS.submit], ['target p99 250 ms', COLORS.target, true]]);
}

/** Builds the SVG text for a results object. */
export function chartSvg(results) {
  const hall = results.runs.filter((r) => r.phases.hall);
  const exam = results.runs.filter((r) => r.phases.start);
  const body = (hall.length ? hallPanel(hall) : '') + (exam.length ? surgePanel(exam) : '');
  const foot = `HallCBT ${esc(results.mode)} benchmark, ${esc(results.startedAt.slice(0, 16).replace('T', ' '))} UTC — ${esc(results.machine.cores)} × ${esc(results.machine.cpu)}; load ${esc(results.machine.loadavg.join(' '))}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, sans-serif"><rect width="${W}" height="${H}" fill="#fff"/>${body}<text x="${W / 2}" y="${H - 12}" text-anchor="middle" font-size="11" fill="#555">${foot}</text></svg>`;
}

/** Writes `<base>.svg` and, through Chromium, `<base>.png`; resolves the PNG path or the SVG's. */
export async function writeChart(results, base) {
  const svg = chartSvg(results);
  writeFileSync(`${base}.svg`, svg);
  let browser;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage({ viewport: { width: W, height: H } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.screenshot({ path: `${base}.png`, clip: { x: 0, y: 0, width: W, height: H } });
    return `${base}.png`;
  } catch (e) {
    console.warn(`chart: PNG conversion failed (${e.message.split('\n')[0]}); wrote ${base}.svg only`);
    return `${base}.svg`;
  } finally {
    await browser?.close();
  }
}

/**
 * A flame graph (SVG) of a V8 CPU profile (`node --cpu-prof`'s `.cpuprofile`), for
 * docs/benchmarks.md: each frame's width is its share of the profile's busy time (its own
 * samples and its callees'), callers below callees; `(idle)` and `(program)` are left out.
 * Colours: the server's code (dist/src) orange, Node's internals blue, packages
 * (node_modules) green, native and V8 frames grey. Hover a frame for its name and share.
 *
 *   node scripts/bench/flame.mjs PROFILE.cpuprofile OUT.svg [--title="…"] [--min-px=0.5] [--max-depth=32]
 * (frames narrower than min-px or deeper than max-depth are left out: start-up's module loading
 * nests a hundred frames deep)
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!input || !output) {
  console.error('usage: node scripts/bench/flame.mjs PROFILE.cpuprofile OUT.svg [--title=…] [--min-px=0.5]');
  process.exit(2);
}
const opt = (k, d) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const WIDTH = 1200;
const ROW = 17;
const minPx = Number(opt('min-px', 0.5));
const maxDepth = Number(opt('max-depth', 32));
const profile = JSON.parse(readFileSync(input, 'utf8'));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const SKIP = new Set(['(idle)', '(program)']);
const label = (n) => {
  const f = n.callFrame;
  const file = f.url ? ` ${f.url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${file}`;
};
const total = new Map();
const sum = (id) => {
  const n = nodes.get(id);
  let t = SKIP.has(n.callFrame.functionName) ? 0 : selfUs.get(id) ?? 0;
  for (const c of n.children ?? []) t += sum(c);
  total.set(id, t);
  return t;
};
const rootId = profile.nodes[0].id;
const busy = sum(rootId);
const colour = (n) => {
  const u = n.callFrame.url;
  if (u.includes('/dist/src/') || u.includes('/src/')) return '#f2a65a';
  if (u.includes('node_modules')) return '#8cc084';
  if (u.startsWith('node:')) return '#7fa7d9';
  return '#bdbdbd';
};
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const frames = [];
let depthMax = 0;
const place = (id, x, depth) => {
  const n = nodes.get(id);
  const w = (total.get(id) / busy) * WIDTH;
  if (w < minPx || depth > maxDepth) return;
  if (depth > 0) frames.push({ n, x, w, depth });
  depthMax = Math.max(depthMax, depth);
  let cx = x;
  for (const c of [...(n.children ?? [])].sort((a, b) => label(nodes.get(a)).localeCompare(label(nodes.get(b))))) {
    place(c, cx, depth + 1);
    cx += (total.get(c) / busy) * WIDTH;
  }
};
place(rootId, 0, 0);
const height = (depthMax + 2) * ROW + 30;
const title = opt('title', `CPU profile: ${input.split('/').pop()}`);
const out = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="monospace" font-size="11">`,
  `<rect width="100%" height="100%" fill="#fff"/>`,
  `<text x="6" y="16" font-size="13">${esc(title)} — busy ${(busy / 1e6).toFixed(2)} s (idle left out)</text>`,
];
for (const { n, x, w, depth } of frames) {
  const y = height - (depth + 1) * ROW;
  const name = label(n);
  const share = ((100 * total.get(n.id)) / busy).toFixed(1);
  const chars = Math.floor((w - 4) / 6.6);
  out.push(`<g><title>${esc(name)} — ${share} %</title><rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${ROW - 1}" fill="${colour(n)}" stroke="#fff" stroke-width="0.5"/>${chars >= 3 ? `<text x="${(x + 2).toFixed(2)}" y="${y + 12}">${esc(name.length > chars ? `${name.slice(0, chars - 1)}…` : name)}</text>` : ''}</g>`);
}
out.push('</svg>');
writeFileSync(output, out.join('\n'));
console.log(`${output}: ${frames.length} frames, busy ${(busy / 1e6).toFixed(2)} s`);

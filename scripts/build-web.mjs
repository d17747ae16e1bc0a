// Bundles the browser pages (web/<page>/) into public/<page>/ with esbuild, copies
// KaTeX's stylesheet and fonts into public/vendor/katex/, and precompresses every
// text asset (.gz and .br) once at build time so the server never compresses per request.
// The pages link content-hashed copies of their script and stylesheets (app.<hash>.js,
// styles.<hash>.css, katex.<hash>.css naming KaTeX_*.<hash>.woff2; the candidate page's
// script links KaTeX's itself, only for a paper in KaTeX HTML), which the server sends
// as immutable for a year (issue 26: a reload and the next candidate on the same PC fetch
// only the page itself); the unhashed names stay for tools and older links (no-cache).
// Run by `npm run build`, `npm start` (prestart) and `npm test` (pretest).
import { createHash } from 'node:crypto';
import { build, transform } from 'esbuild';
import { brotliCompressSync, gzipSync, constants as zc } from 'node:zlib';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pages = [
  // The candidate page runs on old hall PCs: ES2019 (Chrome 80, Firefox 78, Edge 80).
  { name: 'candidate', target: ['chrome80', 'firefox78', 'edge80'] },
  // The admin page targets current browsers.
  { name: 'admin', target: ['chrome110', 'firefox110', 'edge110', 'safari16'] },
  // The exam board's page, served by the hub at /board: the admin page's look and parts (its stylesheet first).
  { name: 'board', target: ['chrome110', 'firefox110', 'edge110', 'safari16'], baseCss: 'admin' },
];

/** Fonts at least this large (bytes) are split into FONT_PARTS; smaller ones are served whole. */
const SPLIT_FONTS_OVER = 10_000;
/** inclusive code point ranges → the text subset-font keeps and the CSS unicode-range */
function part(name, ranges) {
  let text = '';
  for (const [a, b] of ranges) for (let c = a; c <= b; c++) if (c < 0xd800 || c > 0xdfff) text += String.fromCodePoint(c);
  return { name, ranges, text, css: ranges.map(([a, b]) => (a === b ? `U+${a.toString(16)}` : `U+${a.toString(16)}-${b.toString(16)}`)).join(',') };
}
/** ASCII and the operators of school maths (± × ÷ − ∘ ⋅ ≤ ≥ ≠ ≈ ∞ ′), the no-break and zero-width spaces KaTeX writes, MathML's invisible operators */
const CORE = [[0x20, 0x7e], [0xa0, 0xa0], [0xb1, 0xb1], [0xd7, 0xd7], [0xf7, 0xf7], [0x200b, 0x200b], [0x2032, 0x2032], [0x2061, 0x2064], [0x2212, 0x2212], [0x2218, 0x2218], [0x221e, 0x221e], [0x2248, 0x2248], [0x2260, 0x2260], [0x2264, 0x2265], [0x22c5, 0x22c5]];
/** lower-case Greek (θ, π, α… : most of what a paper uses), then the rest of the Greek block */
const GREEK_LOWER = [[0x3b1, 0x3c9]];
const GREEK = [[0x370, 0x3b0], [0x3ca, 0x3ff]];
/** every code point outside CORE and GREEK, up to the end of the supplementary planes KaTeX uses */
function complement(taken, max) {
  const sorted = taken.slice().sort((x, y) => x[0] - y[0]);
  const out = [];
  let next = 0;
  for (const [a, b] of sorted) {
    if (a > next) out.push([next, a - 1]);
    next = Math.max(next, b + 1);
  }
  if (next <= max) out.push([next, max]);
  return out;
}
const FONT_PARTS = [part('core', CORE), part('greek', GREEK_LOWER), part('greek2', GREEK), part('rest', complement([...CORE, ...GREEK_LOWER, ...GREEK], 0x1ffff))];

/** A woff2 subset of `path` keeping `p.text`'s characters (cached by the font's bytes). */
async function fontSubset(path, p) {
  const cacheDir = join(root, 'node_modules', '.cache', 'hallcbt-katex-subsets');
  const key = createHash('sha256').update(readFileSync(path)).update(p.css).digest('hex').slice(0, 20);
  const cached = join(cacheDir, `${key}.woff2`);
  if (existsSync(cached)) return readFileSync(cached);
  const { default: subsetFont } = await import('subset-font');
  const out = await subsetFont(readFileSync(path), p.text, { targetFormat: 'woff2' });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, out);
  return out;
}

/** 10 hex digits of the SHA-256 of a file's bytes */
function hashOf(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 10);
}

/** Copies `path` to `<name>.<hash>.<ext>` beside it (name from `as` when given); returns the new file name. */
function hashedCopy(path, as) {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const base = as ?? path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const named = `${base.slice(0, dot)}.${hashOf(path)}${base.slice(dot)}`;
  cpSync(path, join(dir, named));
  return named;
}

// KaTeX stylesheet and fonts, served locally (the appliance is offline). Only woff2
// fonts: every browser the pages target reads them, and they are the smallest.
const katexDist = join(root, 'node_modules', 'katex', 'dist');
const katexOut = join(root, 'public', 'vendor', 'katex');
rmSync(katexOut, { recursive: true, force: true });
mkdirSync(join(katexOut, 'fonts'), { recursive: true });
/**
 * A stylesheet of ours minified by esbuild for the page's browsers (`target`): the same rules
 * written shorter (no comments or spaces, shortest colours and numbers; nothing the targets
 * cannot read). ~150 B less brotli on the candidate page's first load than stripping comments
 * and indentation only (issue 37 item 8: the subject tabs' loader paid for with it).
 */
async function minCss(text, target) {
  return (await transform(text, { loader: 'css', minify: true, target, legalComments: 'none', logLevel: 'warning' })).code;
}

const css = readFileSync(join(katexDist, 'katex.min.css'), 'utf8')
  // keep only the woff2 source of each @font-face
  .replace(/,url\(fonts\/[^)]+\.woff\) format\("woff"\)/g, '')
  .replace(/,url\(fonts\/[^)]+\.ttf\) format\("truetype"\)/g, '');
writeFileSync(join(katexOut, 'katex.min.css'), css);
// Hashed fonts, and a hashed stylesheet naming them. Each large font is split by
// `unicode-range` into ASCII with the common operators, lower-case Greek, the rest of Greek, and the rest (subset-font,
// HarfBuzz's hb-subset): a browser fetches only the parts whose characters a page shows,
// so a maths paper of digits, letters, operators and θ fetches a third of KaTeX_Main
// (issue 26). Subsets are cached under node_modules/.cache by the font's hash.
let hashedCss = css;
for (const f of readdirSync(join(katexDist, 'fonts'))) {
  if (!f.endsWith('.woff2')) continue;
  cpSync(join(katexDist, 'fonts', f), join(katexOut, 'fonts', f));
  const face = new RegExp(`@font-face\\{([^}]*)src:url\\(fonts/${f.replace(/[.-]/g, (c) => '\\' + c)}\\) format\\("woff2"\\)\\}`);
  const m = face.exec(hashedCss);
  if (!m) throw new Error(`katex.min.css has no @font-face for ${f}`);
  if (statSync(join(katexDist, 'fonts', f)).size < SPLIT_FONTS_OVER) {
    const named = hashedCopy(join(katexOut, 'fonts', f));
    hashedCss = hashedCss.replace(m[0], `@font-face{${m[1]}src:url(fonts/${named}) format("woff2")}`);
    continue;
  }
  const faces = [];
  for (const part of FONT_PARTS) {
    const file = await fontSubset(join(katexDist, 'fonts', f), part);
    const base = `${f.replace(/\.woff2$/, '')}-${part.name}.woff2`;
    writeFileSync(join(katexOut, 'fonts', base), file);
    const named = hashedCopy(join(katexOut, 'fonts', base));
    rmSync(join(katexOut, 'fonts', base));
    faces.push(`@font-face{${m[1]}src:url(fonts/${named}) format("woff2");unicode-range:${part.css}}`);
  }
  hashedCss = hashedCss.replace(m[0], faces.join(''));
}
writeFileSync(join(katexOut, 'katex.min.css.tmp'), hashedCss);
const katexCssName = hashedCopy(join(katexOut, 'katex.min.css.tmp'), 'katex.css');
rmSync(join(katexOut, 'katex.min.css.tmp'));

for (const page of pages) {
  const src = join(root, 'web', page.name);
  if (!existsSync(join(src, 'main.ts'))) continue;
  const out = join(root, 'public', page.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // the candidate's calculator, subject tabs and instructions dialog: each a script and a stylesheet
  // of their own, fetched only for an exam that has one / a paper of sections / instructions
  // (web/candidate/calculator/load.ts, exam-pane.ts, exam-instructions.ts), so the first load does not pay for them
  const lazy = {};
  for (const name of ['calculator', 'sections', 'instructions']) {
    const part = (lazy[name] = { js: '', css: '' });
    if (!existsSync(join(src, name, 'entry.ts'))) continue;
    const NAME = name.toUpperCase();
    writeFileSync(join(out, `${name}.css`), await minCss(readFileSync(join(src, name, `${name}.css`), 'utf8'), page.target));
    part.css = `/${page.name}/${hashedCopy(join(out, `${name}.css`))}`;
    await build({ entryPoints: [join(src, name, 'entry.ts')], bundle: true, minify: true, format: 'iife', target: page.target, outfile: join(out, `${name}.js`), legalComments: 'none', logLevel: 'warning', define: { [`__${NAME}_CSS__`]: JSON.stringify(part.css) } });
    part.js = `/${page.name}/${hashedCopy(join(out, `${name}.js`))}`;
  }
  await build({
    entryPoints: [join(src, 'main.ts')],
    bundle: true,
    minify: true,
    sourcemap: false,
    format: 'iife',
    target: page.target,
    outfile: join(out, 'app.js'),
    legalComments: 'none',
    logLevel: 'warning',
    // the candidate page links KaTeX's stylesheet itself, only for a paper in KaTeX's HTML (web/candidate/math.ts)
    define: { __KATEX_CSS__: JSON.stringify(`/vendor/katex/${katexCssName}`), __CALCULATOR__: JSON.stringify(lazy.calculator.js), __SECTIONS__: JSON.stringify(lazy.sections.js), __INSTRUCTIONS__: JSON.stringify(lazy.instructions.js) },
  });
  for (const f of readdirSync(src)) {
    // a stylesheet goes out minified (minCss): bytes every candidate fetches (the page-weight budget);
    // a page with `baseCss` (the board's) starts from that page's stylesheet
    if (f.endsWith('.css')) writeFileSync(join(out, f), await minCss((f === 'styles.css' && page.baseCss ? readFileSync(join(root, 'web', page.baseCss, 'styles.css'), 'utf8') + '\n' : '') + readFileSync(join(src, f), 'utf8'), page.target));
    else if (/\.(html|svg|png|ico|webmanifest)$/.test(f)) cpSync(join(src, f), join(out, f));
  }
  // the page links the hashed copies of its script and stylesheets (KaTeX's where its index.html does: the admin page's)
  let html = readFileSync(join(out, 'index.html'), 'utf8');
  const links = { [`/${page.name}/app.js`]: `/${page.name}/${hashedCopy(join(out, 'app.js'))}` };
  if (html.includes('"/vendor/katex/katex.min.css"')) links['/vendor/katex/katex.min.css'] = `/vendor/katex/${katexCssName}`;
  if (existsSync(join(out, 'styles.css'))) links[`/${page.name}/styles.css`] = `/${page.name}/${hashedCopy(join(out, 'styles.css'))}`;
  if (existsSync(join(out, 'favicon.svg'))) links[`/${page.name}/favicon.svg`] = `/${page.name}/${hashedCopy(join(out, 'favicon.svg'))}`;
  for (const [from, to] of Object.entries(links)) {
    if (!html.includes(`"${from}"`)) throw new Error(`web/${page.name}/index.html does not link ${from}`);
    html = html.split(`"${from}"`).join(`"${to}"`);
  }
  writeFileSync(join(out, 'index.html'), html);
  // the candidate page's service worker (web/candidate/sw.ts → public/candidate/sw.js, served at
  // /sw.js), told the shell's hashed names; its cache is named after them (and after the app's,
  // which names KaTeX's stylesheet), so a release replaces it. KaTeX's stylesheet and fonts are
  // not fetched ahead: the worker keeps them when the page fetches them (a paper in KaTeX HTML)
  if (existsSync(join(src, 'sw.ts'))) {
    const shell = ['/', ...Object.values(links)];
    // kept once the page has fetched them, not fetched ahead: the calculator's, the subject tabs' and the instructions' files
    const kept = Object.values(lazy).flatMap((part) => [part.js, part.css]).filter(Boolean);
    const version = createHash('sha256').update([...shell, ...kept].join('\n')).digest('hex').slice(0, 10);
    await build({ entryPoints: [join(src, 'sw.ts')], bundle: true, minify: true, format: 'iife', target: page.target, outfile: join(out, 'sw.js'), legalComments: 'none', logLevel: 'warning', define: { __SHELL__: JSON.stringify(shell), __KEPT__: JSON.stringify(kept), __SHELL_VERSION__: JSON.stringify(version) } });
  }
}

// Precompress text assets.
function walk(dir) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(js|css|html|svg|json|webmanifest)$/.test(f)) {
      const buf = readFileSync(p);
      writeFileSync(p + '.gz', gzipSync(buf, { level: 9 }));
      writeFileSync(p + '.br', brotliCompressSync(buf, { params: { [zc.BROTLI_PARAM_QUALITY]: 11 } }));
    }
  }
}
if (existsSync(join(root, 'public'))) walk(join(root, 'public'));

// Bundles the browser pages (web/<page>/) into public/<page>/ with esbuild, copies
// KaTeX's stylesheet and fonts into public/vendor/katex/, and precompresses every
// text asset (.gz and .br) once at build time so the server never compresses per request.
// Run by `npm run build`, `npm start` (prestart) and `npm test` (pretest).
import { build } from 'esbuild';
import { brotliCompressSync, gzipSync, constants as zc } from 'node:zlib';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pages = [
  // The candidate page runs on old hall PCs: ES2019 (Chrome 80, Firefox 78, Edge 80).
  { name: 'candidate', target: ['chrome80', 'firefox78', 'edge80'] },
  // The admin page targets current browsers.
  { name: 'admin', target: ['chrome110', 'firefox110', 'edge110', 'safari16'] },
];

for (const page of pages) {
  const src = join(root, 'web', page.name);
  if (!existsSync(join(src, 'main.ts'))) continue;
  const out = join(root, 'public', page.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
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
  });
  for (const f of readdirSync(src)) {
    if (/\.(html|css|svg|png|ico|webmanifest)$/.test(f)) cpSync(join(src, f), join(out, f));
  }
  // the candidate page's service worker (web/candidate/sw.ts → public/candidate/sw.js, served at /sw.js)
  if (existsSync(join(src, 'sw.ts'))) {
    await build({ entryPoints: [join(src, 'sw.ts')], bundle: true, minify: true, format: 'iife', target: page.target, outfile: join(out, 'sw.js'), legalComments: 'none', logLevel: 'warning' });
  }
}

// KaTeX stylesheet and fonts, served locally (the appliance is offline). Only woff2
// fonts: every browser the pages target reads them, and they are the smallest.
const katexDist = join(root, 'node_modules', 'katex', 'dist');
const katexOut = join(root, 'public', 'vendor', 'katex');
rmSync(katexOut, { recursive: true, force: true });
mkdirSync(join(katexOut, 'fonts'), { recursive: true });
const css = readFileSync(join(katexDist, 'katex.min.css'), 'utf8')
  // keep only the woff2 source of each @font-face
  .replace(/,url\(fonts\/[^)]+\.woff\) format\("woff"\)/g, '')
  .replace(/,url\(fonts\/[^)]+\.ttf\) format\("truetype"\)/g, '');
writeFileSync(join(katexOut, 'katex.min.css'), css);
for (const f of readdirSync(join(katexDist, 'fonts'))) {
  if (f.endsWith('.woff2')) cpSync(join(katexDist, 'fonts', f), join(katexOut, 'fonts', f));
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

/**
 * The candidate page's service worker (served at /sw.js, scope /): keeps the page shell
 * loadable while the server is unreachable, so a reload mid-exam opens the page and the
 * exam continues from the answers kept on this PC (main.ts `resume`). Registered only
 * where the browser allows it (HTTPS, or http://localhost); on plain HTTP the sign-in
 * screen says that reloading needs the hall network (offline-shell.ts).
 *
 * Only the shell is cached: the page (`/`), its script and stylesheet and its icon,
 * fetched at install under the content-hashed names the build gives them
 * (scripts/build-web.mjs passes the list in as `__SHELL__`; the cache is named after it, so
 * a release's worker replaces the previous release's cache), and KaTeX's stylesheet and
 * fonts once the page has fetched them: only a browser without MathML, given the paper in
 * KaTeX's HTML, links them (math.ts), so a current browser never downloads them. API responses are never cached or answered from here:
 * every other request goes to the network untouched. Shell requests go to the network
 * first (a release reaches every PC at the next load) and fall back to the cached copy
 * when the network fails or takes longer than NETWORK_WAIT_MS.
 */
/// <reference lib="webworker" />
export {};
declare const self: ServiceWorkerGlobalScope;

declare const __SHELL__: string[];
declare const __SHELL_VERSION__: string;
/** files kept once the page has fetched them, like KaTeX's: the calculator's, the subject tabs' and the instructions' scripts and stylesheets (calculator/load.ts, exam-pane.ts, exam-instructions.ts) */
declare const __KEPT__: string[];
const KEPT = __KEPT__;
const CACHE = 'hallcbt-shell-' + __SHELL_VERSION__;
const SHELL = __SHELL__;
const NETWORK_WAIT_MS = 4000;

/** True for the requests this worker may answer: the page shell, never the API. */
function isShell(url: URL): boolean {
  if (url.origin !== self.location.origin) return false;
  return url.pathname === '/' || SHELL.indexOf(url.pathname) >= 0 || KEPT.indexOf(url.pathname) >= 0 || url.pathname.indexOf('/vendor/katex/') === 0;
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The network's answer (kept in the cache when good), else the cached copy. */
async function networkFirst(request: Request, cacheKey: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('network too slow')), NETWORK_WAIT_MS);
      fetch(request).then(
        (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
    if (response.ok) await cache.put(cacheKey, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(cacheKey);
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isShell(url)) return; // the API and everything else: straight to the network
  // the page itself is cached under "/" whatever its query (?room=K7P2QX)
  const key = url.pathname === '/' ? '/' : url.pathname;
  event.respondWith(networkFirst(request, key));
});

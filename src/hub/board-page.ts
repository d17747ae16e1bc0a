/**
 * The board's page on the hub (docs/hub.md, "The board's page"): web/board, built by
 * scripts/build-web.mjs into public/board, served at /board with KaTeX's stylesheet and fonts
 * at /vendor, under the pages' Content-Security-Policy and friends
 * (src/platform/security-headers.ts) as the hall serves its pages (src/app.ts): the page
 * revalidated on every load (no-cache + ETag), content-hashed assets immutable for a year.
 * Everything is local: the page needs no CDN.
 */
import type { Context, Env } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { etag } from 'hono/etag';
import { serveStatic } from '@hono/node-server/serve-static';
import { fileURLToPath } from 'node:url';
import { pageSecurityHeaders } from '../platform/security-headers.js';

const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url));
const PUBLIC = `${ROOT}public`;
/** A built asset named with its content hash (`app.3f2a9c01be.js`). */
const HASHED_ASSET = /\.[0-9a-f]{10}\.(?:js|css|woff2|svg)$/;

/** Mounts /board, /board/* and /vendor/* on `app`. */
export function serveBoardPage<E extends Env>(app: OpenAPIHono<E>): void {
  const revalidate = etag();
  const cache = (_p: string, c: Context) => {
    c.header('cache-control', HASHED_ASSET.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
  const page = serveStatic({ root: PUBLIC, path: 'board/index.html', precompressed: true, onFound: cache });
  app.get('/board', pageSecurityHeaders, revalidate, page);
  app.get('/board/', pageSecurityHeaders, revalidate, page);
  app.use('/board/*', pageSecurityHeaders, serveStatic({ root: PUBLIC, precompressed: true, onFound: cache }));
  app.use('/vendor/*', pageSecurityHeaders, serveStatic({ root: PUBLIC, precompressed: true, onFound: cache }));
}

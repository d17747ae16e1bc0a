/**
 * Security headers of the pages and their assets (issue 22 part 4), with hono's
 * secure-headers middleware:
 * - Content-Security-Policy: scripts only from this server (`script-src 'self'`, no inline
 *   script, no eval); styles from this server plus inline style attributes, which KaTeX's
 *   rendered maths and the pages' progress bars use (`'unsafe-inline'` for styles only);
 *   images and fonts from this server and `data:` (KaTeX fonts, QR codes, the favicon);
 *   fetch and the monitor's event stream to this server; no plugins; no `<base>`;
 *   never inside a frame (`frame-ancestors 'none'`, and X-Frame-Options: DENY for old
 *   browsers).
 * - X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer; hono's defaults for
 *   the opener and resource policies and Origin-Agent-Cluster; none of its headers for
 *   obsolete browsers and plugins.
 * No Strict-Transport-Security: a hall that turns HTTPS off again (docs/design.md §3) must not be
 * locked out of its own server by browsers that remembered it.
 * The JSON API's responses carry only nosniff (app.ts), set on the Node response.
 */
import { secureHeaders } from 'hono/secure-headers';

/** Middleware for the pages, their scripts and styles, the vendor assets and /docs. */
export const pageSecurityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  strictTransportSecurity: false,
  // headers for browsers and plugins no hall runs (IE8's download prompt, Flash/Acrobat
  // cross-domain files, the XSS auditor that Chrome removed in 78 and that the header only
  // turned off) or for a DNS prefetch the CSP's connect rules already bound: bytes on every
  // page load over the hall's Wi-Fi for nothing (docs/decisions.md, "Fewer header bytes")
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xDnsPrefetchControl: false,
});

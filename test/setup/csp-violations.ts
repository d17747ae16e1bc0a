/**
 * Vitest setup (vitest.config.ts setupFiles): fails any test during which a browser page
 * reported a Content-Security-Policy violation (test/csp-guard.ts).
 */
import { afterEach } from 'vitest';
import { takeUnexpectedCspViolations } from '../csp-guard.js';

afterEach(async () => {
  // a violation in the test's last moment arrives through the page's binding a little later
  await new Promise((r) => setTimeout(r, 150));
  const found = takeUnexpectedCspViolations();
  if (found.length) throw new Error(`Content-Security-Policy violations in the page(s):\n  ${found.join('\n  ')}`);
});

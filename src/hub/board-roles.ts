/**
 * Who may do what on the hub's examiner API (docs/hub.md, "The board's page"; docs/decisions.md,
 * "Board accounts and their roles"). Three roles:
 * - `author`: papers — create an exam, change its settings and roster, write and import questions;
 * - `publisher`: halls and release — create a hall, publish, read release codes, download
 *   package files, revoke a hall and enrol its replacement, manage board accounts;
 * - `viewer`: read — halls' state, papers, results, item analysis, exports.
 * Every role reads (an author reads the papers it writes, a publisher the halls it serves).
 * The hub's examiner API keys hold all three roles (the operator's credential).
 */
import { Forbidden } from '../platform/errors.js';

export const BOARD_ROLES = ['author', 'publisher', 'viewer'] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

/** What an API key holds: every role. */
export const ALL_ROLES: readonly BoardRole[] = BOARD_ROLES;

/**
 * The role a request to the examiner API needs, from its method and path.
 * @param path the request path, e.g. `/hub/v1/exams/hex_1/publish`
 */
export function requiredRole(method: string, path: string): BoardRole {
  if (path === '/hub/v1/board/me' || path.startsWith('/hub/v1/board/me/') || path === '/hub/v1/board/sign-out') return 'viewer';
  if (path === '/hub/v1/board/accounts' || path.startsWith('/hub/v1/board/accounts/')) return 'publisher';
  if (path.endsWith('/release-codes') || path.endsWith('/publish') || path.endsWith('/revoke') || path.startsWith('/hub/v1/package-files/')) return 'publisher';
  if (method === 'POST' && path === '/hub/v1/halls') return 'publisher';
  if (method === 'GET' || method === 'HEAD') return 'viewer';
  return 'author';
}

/** True when `roles` may do what `needed` names (every role reads). */
export function allows(roles: readonly BoardRole[], needed: BoardRole): boolean {
  return roles.includes(needed) || (needed === 'viewer' && roles.length > 0);
}

/** @throws Forbidden (403, code ROLE_REQUIRED, `role`) when `roles` do not allow the request. */
export function assertRole(roles: readonly BoardRole[], method: string, path: string): void {
  const needed = requiredRole(method, path);
  if (!allows(roles, needed)) {
    throw new Forbidden(`This needs the ${needed} role; your account has ${roles.join(', ') || 'no role'}. Ask a publisher of the board to change your roles.`, { code: 'ROLE_REQUIRED', role: needed });
  }
}

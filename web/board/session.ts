/**
 * The board's signed-in session. The session token from POST /hub/v1/board/sign-in lives only
 * in sessionStorage, as the hall's admin page keeps its key (web/admin/session.ts): gone when
 * the tab closes, never in localStorage, a cookie or the URL; it travels in `x-api-key`.
 */
import type { Api } from '../admin/api.js';
import type { Me, Role } from './types.js';

const KEY = 'hallcbt.board.token';

/** Everything a screen needs. */
export interface BoardCtx {
  api: Api;
  me: Me;
  /** true when the signed-in examiner holds `role` (every role reads) */
  can(role: Role): boolean;
  /** goes to a hash route, e.g. "#/papers/hex_1/publish" */
  navigate(hash: string): void;
  signOut(message?: string): void;
}

/** The stored token, or null. */
export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Stores the token for this tab only. */
export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

/** Forgets the token. */
export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}

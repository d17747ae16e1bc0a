/**
 * The signed-in session. The API key lives only in sessionStorage (issue 5: never
 * localStorage, cookies or the URL), so it is gone when the tab closes. The workspace
 * record is kept in memory and refreshed from GET /workspaces/me.
 */
import { Api } from './api.js';
import type { Workspace } from './types.js';

const KEY = 'hallcbt.admin.apiKey';

/** Everything a screen needs: the keyed client, the workspace, navigation. */
export interface Ctx {
  api: Api;
  workspace: Workspace;
  /** re-reads the workspace (credits change as candidates start) and updates the header */
  refreshWorkspace(): Promise<Workspace>;
  /** goes to a hash route, e.g. "#/exams/ex_1/questions" */
  navigate(hash: string): void;
  /** drops the key and returns to sign-in */
  signOut(message?: string): void;
}

/** The stored key, or null. */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Stores the key for this tab only. */
export function storeKey(apiKey: string): void {
  sessionStorage.setItem(KEY, apiKey);
}

/** Forgets the key. */
export function clearKey(): void {
  sessionStorage.removeItem(KEY);
}

/** Checks a key against the server: resolves the workspace or throws ApiError (401). */
export async function fetchWorkspace(api: Api): Promise<Workspace> {
  return api.get<Workspace>('/workspaces/me');
}

/**
 * The hono environment every router of both programs shares: the Node request and
 * response, the request id, and the authenticated caller. The dependencies themselves
 * are each program's own (src/hall/deps.ts, src/hub/deps.ts), built by its composition
 * root (docs/design.md §13).
 */
import type { HttpBindings } from '@hono/node-server';

/** The authenticated workspace on key-protected routes. */
export interface AuthedWorkspace {
  id: string;
  name: string;
}

/** Hono environment shared by every router. */
export interface AppEnv {
  /** the Node request and response under @hono/node-server; absent under app.request() */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    workspace: AuthedWorkspace;
  };
}

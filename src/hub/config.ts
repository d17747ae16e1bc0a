/**
 * The hub's configuration from environment variables (issue #24), parsed with zod at
 * start-up; a bad value stops the hub with a one-line message naming the variable.
 */
import { z } from 'zod';

export const hubConfigSchema = z.object({
  /** postgres://user:password@host:port/database */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (see README, "Running a hub")'),
  HUB_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  HUB_HOST: z.string().min(1).default('0.0.0.0'),
  /** where the hub's key file (hub-secret.key, 0600) lives; every hub process needs the same file */
  HUB_DATA_DIR: z.string().min(1).default('./data-hub'),
  /** PostgreSQL connections per hub process */
  HUB_DB_POOL: z.coerce.number().int().min(1).max(200).default(10),
  /** the URL halls use to reach this hub (put into enrolment answers); default http://<host>:<port> */
  HUB_PUBLIC_URL: z.string().url().optional(),
  /**
   * 1 when the hub runs behind a reverse proxy or load balancer that appends the client's
   * address to X-Forwarded-For: enrolment guesses are then counted per that address (the
   * last entry) instead of per the proxy's. Leave 0 when clients reach the hub directly
   * (a client could otherwise write any address it likes there).
   */
  HUB_TRUST_PROXY: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
});

export type HubConfig = z.infer<typeof hubConfigSchema>;

/** Parses `env`. @throws Error with a one-line message naming the first bad variable. */
export function loadHubConfig(env: Record<string, string | undefined> = process.env): HubConfig {
  const res = hubConfigSchema.safeParse(env);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    const name = String(issue.path[0]);
    const message = env[name] === undefined ? 'is required (see README, "Running a hub")' : issue.message;
    throw new Error(`Invalid configuration: ${name}: ${message}`);
  }
  return res.data;
}

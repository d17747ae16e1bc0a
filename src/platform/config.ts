/**
 * Configuration from environment variables, parsed with zod at start-up (docs/design.md §3).
 * A bad value stops start-up with a one-line message naming the variable.
 * Every variable is documented in README ("Configuration").
 */
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

export const configSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  CBT_PROVISIONING_TOKEN: optionalString,
  CBT_FLUSH_INTERVAL_MS: int(500, 10, 60_000),
  CBT_LLM_BASE_URL: optionalString.pipe(z.string().url().optional()),
  CBT_LLM_MODEL: optionalString,
  CBT_LLM_API_KEY: optionalString,
  /** Longest wait for the LLM endpoint before falling back to the built-in engine. */
  CBT_LLM_TIMEOUT_MS: int(60_000, 100, 600_000),
  CBT_WHISPER_MODEL: optionalString,
  CBT_TLS_CERT: optionalString,
  CBT_TLS_KEY: optionalString,
  /** Requests per minute per API key (and per address on keyless endpoints). */
  CBT_RATE_LIMIT_PER_MIN: int(120, 1, 1_000_000),
  /** Live answer saves + telemetry per minute per attempt. */
  CBT_ANSWER_RATE_LIMIT_PER_MIN: int(600, 1, 1_000_000),
  /** Minutes between scheduled online backups; 0 disables them. */
  CBT_BACKUP_INTERVAL_MINS: int(10, 0, 10_080),
  CBT_BACKUP_KEEP: int(24, 1, 10_000),
  /** Optional second backup directory (e.g. a USB stick). */
  CBT_BACKUP_DIR2: optionalString,
  /** SQLite synchronous mode for the database: FULL (default, survives power cuts) or NORMAL. */
  CBT_SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** Who commits the answer flush: 'thread' (a writer thread with its own connection) or 'main' (the event loop, in bounded transactions). */
  CBT_ANSWER_WRITER: z.enum(['thread', 'main']).default('thread'),
  /**
   * Base URL the hall PCs use to reach this server (e.g. http://192.168.1.10:8080): the
   * start URL of generated Safe Exam Browser configurations. Unset: the address the admin
   * page was opened at (a loopback one is replaced by the first LAN address).
   */
  CBT_PUBLIC_URL: optionalString.pipe(z.string().regex(/^https?:\/\/[^\s"'\\<>#?]+$/, 'must be an http(s) URL without query or fragment').optional()).transform((v) => v?.replace(/\/+$/, '')),
  /**
   * Comma-separated addresses of reverse proxies whose X-Forwarded-Proto and
   * X-Forwarded-Host are trusted (the URL the browser used, for Safe Exam Browser hashes).
   */
  CBT_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
  /**
   * `off` turns the candidates' save channel (one WebSocket each, GET /attempts/{id}/channel)
   * off for the whole hall: upgrades are refused (404 SAVE_CHANNEL_OFF) and the pages save
   * with HTTP PUT, for a network whose access points mishandle WebSockets.
   */
  CBT_SAVE_CHANNEL: z.enum(['on', 'off']).default('on'),
  /** 1 allows webhook URLs on loopback and this machine's addresses (a receiver on the same machine); refused by default. */
  CBT_WEBHOOK_ALLOW_LOCAL: z.enum(['0', '1']).default('0'),
  /**
   * 1 allows a hub address on loopback and this machine's addresses (a hub on the same
   * machine, as in tests); refused by default (docs/decisions.md, "Hub addresses and the
   * operator credential").
   */
  CBT_HUB_ALLOW_LOCAL: z.enum(['0', '1']).default('0'),
  /**
   * Share of the time (percent) a job process — reading an upload, generating questions —
   * may run while any attempt in this hall is in progress (it is stopped for the rest of
   * every 100 ms); 100: no cap (docs/decisions.md, "Background jobs yield to a live exam").
   */
  CBT_JOB_CPU_PERCENT_IN_EXAM: int(10, 1, 100),
  /**
   * Attempts each computer (client address) may start in an exam without a roster, before
   * an invigilator allows another (POST /exams/{id}/seats/allow); 0: no limit, for a hall
   * whose invigilators check every candidate at the door and that plays many computers from
   * one address (docs/decisions.md, "Open rooms: one attempt per seat").
   */
  CBT_OPEN_ROOM_SEAT_ATTEMPTS: int(1, 0, 1000),
  /** 1 exposes GET /bench/baseline, a bare route the benchmark compares against. */
  CBT_BENCH_BASELINE: z.enum(['0', '1']).default('0'),
});

export type Config = z.infer<typeof configSchema>;

/**
 * Parses `env` into a Config.
 * @throws Error with a one-line message naming the first bad variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const res = configSchema.safeParse(env);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new Error(`Invalid configuration: ${String(issue.path[0])}: ${issue.message}`);
  }
  const cfg = res.data;
  if (Boolean(cfg.CBT_TLS_CERT) !== Boolean(cfg.CBT_TLS_KEY)) {
    throw new Error('Invalid configuration: CBT_TLS_CERT and CBT_TLS_KEY must be set together');
  }
  return cfg;
}

/** Config for tests: defaults plus overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), ...overrides };
}

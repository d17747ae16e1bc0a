/**
 * Typed domain errors and their RFC 7807 problem-details form (docs/api-overview.md, "Errors", docs/design.md §9).
 * Services throw these; the single `onError` handler of the HTTP shell (http-app.ts) turns them (and zod
 * errors, and anything unknown) into `application/problem+json` bodies:
 * `{type, title, status, detail, instance, requestId, code?, errors?, ...extra}`.
 * An extension member can never replace one of RFC 7807's own members (`type`, `title`,
 * `status`, `detail`, `instance`) nor `requestId`: the type of `extra` forbids them, and
 * the constructor throws (a programming error, so it surfaces in tests) if one slips in
 * through an untyped path. A locked attempt's state travels as `attemptStatus`.
 */

/** The members of a problem body that extension members may never set (RFC 7807 §3.1 + ours). */
export const RESERVED_PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'requestId'] as const;
type Reserved = (typeof RESERVED_PROBLEM_MEMBERS)[number];

/** Extension members of a problem: anything but the reserved ones. */
export type ProblemExtras = Record<string, unknown> & { [K in Reserved]?: never };

/** One validation failure: where (`path` or `index`/`row`/`column`) and why. */
export type FieldError = Record<string, unknown> & { message: string };

/** Base error carrying an HTTP status and a stable problem type. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    detail: string,
    /** Extra members merged into the problem body (e.g. `code`, `errors`, `opensAt`); never a reserved one. */
    readonly extra: ProblemExtras = {},
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    for (const k of RESERVED_PROBLEM_MEMBERS) {
      if (Object.hasOwn(extra, k)) throw new TypeError(`Problem extension member "${k}" would overwrite the problem's own "${k}"; use another name.`);
    }
  }
  /** The problem `type` URI reference, e.g. `/problems/not-found`. */
  get type(): string {
    return `/problems/${this.slug}`;
  }
}

export class ValidationError extends ApiError {
  constructor(detail: string, errors: FieldError[] = [], extra: ProblemExtras = {}) {
    super(400, 'validation-error', 'Validation failed', detail, { code: 'VALIDATION', errors, ...extra });
  }
}
export class Unauthorized extends ApiError {
  constructor(detail = 'A valid API key is required (Authorization: Bearer <key> or x-api-key).', extra: ProblemExtras = {}) {
    super(401, 'unauthorized', 'Unauthorized', detail, extra);
  }
}
export class PaymentRequired extends ApiError {
  constructor(detail = 'The workspace has no candidate testing credits left.') {
    super(402, 'credits-exhausted', 'Candidate testing credits exhausted', detail, { code: 'CREDITS_EXHAUSTED' });
  }
}
export class Forbidden extends ApiError {
  constructor(detail: string, extra: ProblemExtras = {}) {
    super(403, 'forbidden', 'Forbidden', detail, extra);
  }
}
export class NotFound extends ApiError {
  constructor(what: string, extra: ProblemExtras = {}) {
    super(404, 'not-found', 'Not found', `${what} was not found.`, extra);
  }
}
export class Conflict extends ApiError {
  constructor(detail: string, extra: ProblemExtras = {}) {
    super(409, 'conflict', 'Conflict', detail, extra);
  }
}
export class PayloadTooLarge extends ApiError {
  constructor(limitBytes: number) {
    super(413, 'payload-too-large', 'Payload too large', `The request body exceeds the limit of ${limitBytes} bytes.`, { limitBytes });
  }
}
export class UnsupportedMediaType extends ApiError {
  constructor(detail: string) {
    super(415, 'unsupported-media-type', 'Unsupported media type', detail);
  }
}
export class TooManyRequests extends ApiError {
  constructor(detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, 'rate-limited', 'Too many requests', detail, { code: 'RATE_LIMITED', retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds), ...headers });
  }
}
export class ServiceUnavailable extends ApiError {
  constructor(detail: string, extra: ProblemExtras = {}) {
    super(503, 'service-unavailable', 'Service unavailable', detail, extra);
  }
}

/** Problem body as sent on the wire. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  requestId: string;
  [k: string]: unknown;
}

/**
 * Builds the RFC 7807 body for an ApiError at a request path. The reserved members are
 * written after the extensions, so even an extension that bypassed the constructor's
 * check cannot replace them.
 */
export function toProblem(err: ApiError, instance: string, requestId: string): ProblemBody {
  return { ...err.extra, type: err.type, title: err.title, status: err.status, detail: err.message, instance, requestId };
}

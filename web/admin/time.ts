/**
 * Time helpers. Exam windows are stored as UTC ISO 8601 (docs/api-overview.md, "Exam"); invigilators
 * type and read them in the hall's local time, which is the time zone of the browser
 * on the admin PC. `<input type="datetime-local">` values are "YYYY-MM-DDTHH:mm".
 */

const pad = (n: number): string => String(n).padStart(2, '0');

/** "2025-06-02T09:30" (local wall time) → "2025-06-02T08:30:00.000Z"; "" → null. Throws on a malformed value. */
export function localInputToUtcIso(value: string): string | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) throw new Error(`Not a date and time: ${value}`);
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return d.toISOString();
}

/** UTC ISO string → datetime-local input value in local wall time; null → "". */
export function utcIsoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The hall's time zone name, e.g. "Africa/Lagos". */
export function hallTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/**
 * An exam window in the hall's local time with the zone named:
 * "2 Jun 2025, 09:30 → 2 Jun 2025, 11:30 (Africa/Lagos)"; "any time" when both are null.
 */
export function formatWindow(startsAt: string | null | undefined, endsAt: string | null | undefined): string {
  if (!startsAt && !endsAt) return 'any time';
  const from = startsAt ? formatDateTime(startsAt) : 'any time';
  const to = endsAt ? formatDateTime(endsAt) : 'no end';
  return `${from} → ${to} (${hallTimeZone()})`;
}

/** Human date-time in local time ("2 Jun 2025, 09:30"); "—" for null. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Local clock time only ("09:30:12"); "—" for null. */
export function formatClock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Seconds → "1:05:09" or "5:09"; negatives clamp to 0. */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return hh > 0 ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

/** Duration between two ISO instants as "42 min 10 s" ("—" when either is missing). */
export function formatDuration(fromIso: string | null | undefined, toIso: string | null | undefined): string {
  if (!fromIso || !toIso) return '—';
  const s = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${s % 60} s` : `${s} s`;
}

/** Seconds elapsed from an ISO instant to `nowMs`, or null when never. */
export function secondsSince(iso: string | null | undefined, nowMs: number): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : Math.max(0, Math.round((nowMs - t) / 1000));
}

/**
 * Times in the results files, in the hall's local time with the zone named
 * (docs/decisions.md, "Results files name every candidate and give hall time"). The hall's
 * zone is the zone of the machine running the server (the TZ environment variable or the
 * system zone), which is the clock the invigilators read in the hall.
 */

/** The zone of this process, an IANA name such as "Africa/Lagos" ("UTC" when unknown). */
export function hallTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

interface WallClock {
  /** "2026-11-27 14:05:09" */
  text: string;
  /** offset from UTC in minutes (+60 for UTC+01:00) */
  offsetMinutes: number;
}

/** The wall-clock reading of instant `ms` (Unix ms) in `timeZone`, and that zone's offset then. */
function wallClock(ms: number, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '00';
  const text = `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
  const asUtc = Date.UTC(Number(p('year')), Number(p('month')) - 1, Number(p('day')), Number(p('hour')), Number(p('minute')), Number(p('second')));
  return { text, offsetMinutes: Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000) };
}

/** Offset in minutes → "UTC+01:00" / "UTC-05:00" / "UTC+05:30". */
export function utcOffsetLabel(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const m = Math.abs(offsetMinutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Instant `ms` as hall time with its offset: "2026-11-27 14:05:09 (UTC+01:00)". */
export function formatHallTime(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return `${w.text} (${utcOffsetLabel(w.offsetMinutes)})`;
}

/**
 * A Date whose UTC fields hold the hall's wall-clock reading of `ms`: spreadsheet dates
 * carry no zone, and exceljs writes a Date's UTC fields, so Excel shows the hall time.
 */
export function wallClockDate(ms: number, timeZone: string): Date {
  return new Date(Math.floor(ms / 1000) * 1000 + wallClock(ms, timeZone).offsetMinutes * 60_000);
}

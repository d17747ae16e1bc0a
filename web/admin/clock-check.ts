/**
 * The time-sync warning (issue 9 §5). Exam timing runs on the hall machine's clock
 * (DESIGN: the server is the clock), so a wrong one opens and closes exam windows at the
 * wrong time and can end attempts early. The page reads `serverTime` from
 * GET /system/info when the session starts and every few minutes, and shows a banner
 * when it differs from this computer's clock by more than 2 minutes, or reads earlier
 * than this release: a hall machine with a flat CMOS battery boots in 2000-something,
 * and when the admin browser runs on that same machine both clocks agree.
 */
import type { Api } from './api.js';
import { formatDateTime } from './time.js';
import type { SystemInfo } from './types.js';

/** The day this version was released: a server clock before it is certainly wrong. Move it with the version. */
export const RELEASE_DATE = '2026-11-22';
/** Largest difference between the two clocks that passes unremarked. */
export const MAX_SKEW_MS = 2 * 60 * 1000;
/** How often the clocks are compared again. */
export const CHECK_EVERY_MS = 3 * 60 * 1000;

export interface ClockProblem {
  /** 'skew': the clocks differ by more than MAX_SKEW_MS; 'before-release': the server reads earlier than RELEASE_DATE */
  kind: 'skew' | 'before-release';
  serverMs: number;
  browserMs: number;
}

/**
 * Compares a server reading with this computer's clock. The server read its clock while
 * the request was in flight, so it is compared with the middle of the round trip and
 * half the round trip is allowed on top of MAX_SKEW_MS. null when nothing looks wrong.
 */
export function clockProblem(serverTime: string, sentAtMs: number, receivedAtMs: number, releaseMs: number = Date.parse(RELEASE_DATE)): ClockProblem | null {
  const serverMs = Date.parse(serverTime);
  if (Number.isNaN(serverMs)) return null;
  const browserMs = Math.round((sentAtMs + receivedAtMs) / 2);
  if (serverMs < releaseMs) return { kind: 'before-release', serverMs, browserMs };
  const slack = Math.max(0, receivedAtMs - sentAtMs) / 2;
  if (Math.abs(serverMs - browserMs) > MAX_SKEW_MS + slack) return { kind: 'skew', serverMs, browserMs };
  return null;
}

/** The banner's words (times in this computer's time zone). */
export function clockWarningText(p: ClockProblem, releaseDate: string = RELEASE_DATE): string {
  const server = formatDateTime(new Date(p.serverMs).toISOString());
  const browser = formatDateTime(new Date(p.browserMs).toISOString());
  const differ = Math.abs(p.serverMs - p.browserMs) > MAX_SKEW_MS;
  let first: string;
  if (p.kind === 'skew') first = `The hall machine's clock reads ${server} but this computer reads ${browser}.`;
  else {
    const released = new Date(`${releaseDate}T00:00:00`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
    first = `The hall machine's clock reads ${server}, before this version of HallCBT was released (${released}), so it is wrong${differ ? `; this computer reads ${browser}` : ''}.`;
  }
  return `${first} Exam timing uses the server clock; set the correct time before starting an exam (see docs/operations.md).`;
}

/**
 * Compares the clocks now and every CHECK_EVERY_MS, showing or hiding `banner`. Each
 * finished check bumps `data-checks` on the banner (tests wait on it). A failed request
 * (Wi-Fi drop) leaves the banner as it was.
 * @returns stops the checks and hides the banner
 */
export function startClockCheck(api: Api, banner: HTMLElement): () => void {
  let stopped = false;
  let checks = 0;
  const check = async (): Promise<void> => {
    const sentAt = Date.now();
    let info: SystemInfo;
    try {
      info = await api.get<SystemInfo>('/system/info');
    } catch {
      return;
    }
    if (stopped) return;
    const problem = clockProblem(info.serverTime, sentAt, Date.now());
    banner.textContent = problem ? clockWarningText(problem) : '';
    banner.hidden = problem === null;
    banner.setAttribute('data-kind', problem ? problem.kind : 'ok');
    banner.setAttribute('data-checks', String(++checks));
  };
  void check();
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
    banner.hidden = true;
    banner.textContent = '';
    banner.removeAttribute('data-checks');
  };
}

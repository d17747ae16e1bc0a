/**
 * Live hall monitor: GET /exams/:id/monitor for the first paint, then
 * /exams/:id/monitor/stream (server-sent events: a `snapshot` on each connection, then
 * `delta`s of the changed rows, and `alert`s) for updates — one long request, no polling. Shows every candidate's address, progress, last save,
 * remaining time (ticked locally between snapshots), violations and status, and when a
 * page has not been heard from for 15 s, when it was last seen; lists the roster
 * candidates who have not started ("absent" once the window has closed) in the same
 * table, names in natural order (Student 2 before Student 10); keeps at least 12 rows in
 * view at 1024×768 (compact rows, compact room-code header: issue 36); raises
 * alerts for disqualification and for candidates not seen for 60 s; lists wrong sign-ins
 * per student ID with "Clear sign-in throttle" (one ID, or all); in an open room (no
 * roster) shows the computer (seat) each attempt was started from and offers "Allow
 * another attempt from this computer". A candidate with extra time from the roster
 * (access arrangements) shows it beside the name — "+25% +15 min · ends 11:45:00", the end
 * being that candidate's own (none while the exam is paused).
 */
import { h, hiddenHeader, replace } from '../dom.js';
import { absentWord, byName, MonitorState, plural, type RaisedAlert } from '../monitor-state.js';
import type { Ctx } from '../session.js';
import { openEventStream, type StreamState } from '../sse.js';
import { formatClock, formatSeconds } from '../time.js';
import type { AttemptSummary, Exam, MonitorAlert, MonitorDelta, MonitorSnapshot, SignInFailure } from '../types.js';
import { errorText, toast } from '../ui.js';
import { SEB_CELL_TITLE, sebCheckText } from './seb-check.js';
import { extraTimeText } from './roster.js';
import { allowSeatAttempt, clearAllSignInThrottles, clearSignInThrottle, extendTime, forceSubmit, pauseOrResume, reinstate } from './monitor-actions.js';

const STATUS_TEXT = { IN_PROGRESS: 'Writing', COMPLETED: 'Submitted', DISQUALIFIED: 'Disqualified' } as const;

/** Draws the monitor and starts the stream; returns the function that stops it. */
export async function renderMonitor(ctx: Ctx, host: HTMLElement, exam: Exam): Promise<() => void> {
  const state = new MonitorState();
  const sebRequired = !!exam.safeExamBrowser?.required;
  const connection = h('span', { class: 'conn', id: 'monitor-connection' }, 'Connecting…');
  const summary = h('p', { class: 'monitor-summary', id: 'monitor-summary' });
  const pauseBtn = h('button', { type: 'button', class: 'secondary', id: 'pause-exam' }, 'Pause exam');
  const alertsHost = h('div', { class: 'alerts', id: 'monitor-alerts', 'aria-live': 'assertive' });
  const tbody = h('tbody');
  const failuresHost = h('section', { class: 'sign-in-failures', id: 'sign-in-failures' });
  let failuresSig = '';
  const pausedBanner = h('div', { class: 'banner warn', id: 'paused-banner', hidden: true }, 'The exam is paused: every candidate’s clock is stopped.');

  const act = (p: Promise<boolean>, done: string) => p.then((ok) => { if (ok) toast(done); }).catch((err) => toast(errorText(err), 'error'));
  const patched = (s: AttemptSummary) => { state.patchAttempt(s); draw(); };

  pauseBtn.addEventListener('click', () => {
    const ex = state.snapshot?.exam ?? exam;
    const wasPaused = Boolean(ex.isPaused);
    void act(pauseOrResume(ctx, ex, wasPaused).then((ok) => {
      if (ok && state.snapshot) state.snapshot.exam = { ...state.snapshot.exam, isPaused: !wasPaused };
      draw();
      return ok;
    }), wasPaused ? 'Exam resumed.' : 'Exam paused.');
  });

  // Rows are kept and updated in place: a button must not be swapped out under the
  // invigilator's pointer by the once-a-second clock tick.
  const rows = new Map<string, { el: HTMLElement; sig: string }>();
  const build = (a: AttemptSummary): HTMLElement => {
    const pct = a.totalQuestions ? Math.round((a.answered / a.totalQuestions) * 100) : 0;
    const extra = extraTimeText(a);
    return h('tr', { 'data-attempt-id': a.attemptId, 'data-status': a.status },
      h('td', { 'data-field': 'candidate' }, h('strong', null, a.candidateName), ' ', h('small', { class: 'muted' }, a.studentId),
        extra ? h('small', { class: 'extra-time', 'data-field': 'extra-time', title: 'Extra time from the roster (access arrangements)' }, ` ${extra}${a.timeUpAt ? ` · ends ${formatClock(a.timeUpAt)}` : ''}`) : null),
      h('td', { class: 'mono', 'data-field': 'seat' }, a.seatAddress ?? a.clientAddress ?? '—',
        a.seatAddress && a.clientAddress && a.clientAddress !== a.seatAddress ? h('small', { class: 'muted' }, h('br'), `now at ${a.clientAddress}`) : null),
      h('td', { 'data-field': 'progress' }, `${a.answered}/${a.totalQuestions}`, h('span', { class: 'bar' }, h('span', { style: `width:${pct}%` }))),
      h('td', { 'data-field': 'last-saved' }),
      h('td', { 'data-field': 'remaining', class: 'mono' }),
      h('td', { 'data-field': 'violations', class: a.violations > 0 ? 'warn' : null }, `${a.violations}/${a.maxTabViolations}`),
      sebRequired ? h('td', { 'data-field': 'seb', class: a.sebValid === false ? 'warn' : null, title: SEB_CELL_TITLE }, sebCheckText(a.sebCheck ?? null, a.sebValid ?? null)) : null,
      h('td', { 'data-field': 'status' },
        h('span', { class: `badge status-${a.status.toLowerCase()}` }, a.lockReason === 'SAFE_EXAM_BROWSER' ? 'Locked: not SEB' : STATUS_TEXT[a.status] ?? a.status),
        h('span', { class: 'unseen-slot' }),
        a.extraSeconds ? h('small', { class: 'muted' }, ` +${Math.round(a.extraSeconds / 60)} min`) : null),
      h('td', { class: 'row-actions' },
        a.status === 'IN_PROGRESS' ? h('button', { type: 'button', class: 'link small', 'data-action': 'extend', onclick: () => void act(extendTime(ctx, a, patched), 'Time extended.') }, 'Extend') : null,
        a.status === 'DISQUALIFIED' ? h('button', { type: 'button', class: 'link small', 'data-action': 'reinstate', onclick: () => void act(reinstate(ctx, a, patched), 'Candidate reinstated.') }, 'Reinstate') : null,
        a.status !== 'COMPLETED' ? h('button', { type: 'button', class: 'link small danger-text', 'data-action': 'force-submit', onclick: () => void act(forceSubmit(ctx, a), 'Attempt submitted.') }, 'Force submit') : null,
        state.snapshot?.openRoom && a.seatAddress ? h('button', { type: 'button', class: 'link small', 'data-action': 'allow-seat', title: 'This computer has used its one start of this exam', onclick: () => void act(allowSeatAttempt(ctx, exam.id, a.seatAddress!), 'Another attempt allowed from this computer.') }, 'Allow another attempt from this computer') : null));
  };
  /** Updates the parts of a row that move with the clock: time left and "last seen". */
  const tick = (el: HTMLElement, a: AttemptSummary, now: number) => {
    const unseen = state.isUnseen(a, now);
    const quiet = state.isQuiet(a, now);
    const remaining = state.remaining(a, now);
    el.className = a.status === 'DISQUALIFIED' ? 'row-bad' : unseen ? 'row-warn' : quiet ? 'row-quiet' : '';
    (el.querySelector('[data-field="last-saved"]') as HTMLElement).textContent = formatClock(a.lastSavedAt);
    const cell = el.querySelector('[data-field="remaining"]') as HTMLElement;
    cell.dataset.seconds = String(remaining);
    cell.textContent = a.status === 'IN_PROGRESS' ? formatSeconds(remaining) : '—';
    cell.classList.toggle('warn', a.status === 'IN_PROGRESS' && remaining < 300);
    const slot = el.querySelector('.unseen-slot') as HTMLElement;
    const silent = state.unseenSeconds(a, now) ?? 0;
    replace(slot, quiet ? h('span', { class: 'badge warn', 'data-quiet': 'true', 'data-unseen': unseen ? 'true' : null }, `last seen ${silent < 60 ? `${silent} s` : formatSeconds(silent)} ago`) : null);
  };
  /** A roster candidate without an attempt: name, ID and "Not started" (or "Absent" after the window). */
  const absentRow = (c: { studentId: string; candidateName: string }, word: string): HTMLElement =>
    h('tr', { 'data-absent': c.studentId, class: 'row-absent' },
      h('td', { 'data-field': 'candidate' }, h('strong', null, c.candidateName), ' ', h('small', { class: 'muted' }, c.studentId)),
      [...Array(sebRequired ? 6 : 5)].map(() => h('td', { class: 'muted' }, '—')),
      h('td', { 'data-field': 'status' }, h('span', { class: `badge status-${word === 'absent' ? 'absent' : 'not-started'}` }, word === 'absent' ? 'Absent' : 'Not started')),
      h('td'));

  const drawAlerts = () => replace(alertsHost, state.alerts.map((al) => h('div', { class: `alert alert-${al.kind}`, 'data-kind': al.kind, 'data-attempt-id': al.attemptId },
    h('span', null, formatClock(new Date(al.at).toISOString()), ' — ', h('strong', null, al.candidateName), al.kind === 'disqualified' ? ' was disqualified for violations.' : ' has not been seen for 60 s (power, network or left the seat?).'),
    h('button', { type: 'button', class: 'link small', onclick: () => { state.dismiss(al.key); drawAlerts(); } }, 'Dismiss'))));

  /** Wrong sign-ins per student ID; redrawn only when they change (buttons stay put). */
  const drawFailures = (list: SignInFailure[]) => {
    const sig = JSON.stringify(list);
    if (sig === failuresSig) return;
    failuresSig = sig;
    replace(failuresHost, list.length ? [
      h('h3', null, 'Wrong sign-ins (last 15 minutes)'),
      h('button', { type: 'button', class: 'link small', 'data-action': 'clear-all-throttles', onclick: () => void act(clearAllSignInThrottles(ctx, exam.id).then(async (ok) => {
        if (ok) onSnapshot(await ctx.api.get<MonitorSnapshot>(`/exams/${encodeURIComponent(exam.id)}/monitor`));
        return ok;
      }), 'Every sign-in throttle of this exam cleared.') }, 'Clear all sign-in throttles'),
      h('table', { class: 'table' },
        h('thead', null, h('tr', null, ['Student ID', 'Wrong tries', 'Computers', 'Last', 'Held back', ''].map((t) => h('th', null, t)))),
        h('tbody', null, list.map((f) => h('tr', { 'data-student-id': f.studentId },
          h('td', { class: 'mono' }, f.studentId),
          h('td', null, String(f.failures)),
          h('td', null, String(f.addresses)),
          h('td', null, formatClock(f.lastFailedAt)),
          h('td', { class: f.retryAfterSeconds ? 'warn' : null }, f.retryAfterSeconds ? formatSeconds(f.retryAfterSeconds) : '—'),
          h('td', { class: 'row-actions' }, h('button', { type: 'button', class: 'link small', 'data-action': 'clear-throttle', onclick: () => void act(clearSignInThrottle(ctx, exam.id, f).then(async (ok) => {
            if (ok) onSnapshot(await ctx.api.get<MonitorSnapshot>(`/exams/${encodeURIComponent(exam.id)}/monitor`));
            return ok;
          }), 'Sign-in throttle cleared.') }, 'Clear sign-in throttle')))))),
    ] : null);
  };

  function draw(): void {
    const now = Date.now();
    const s = state.snapshot;
    if (!s) return;
    drawFailures(s.signInFailures ?? []);
    const c = state.counts(now);
    const absent = s.absent ?? [];
    const word = absentWord(s.exam.endsAt, state.serverNow());
    replace(summary, `${plural(s.attempts.length + absent.length, 'candidate')}: ${c.writing} writing, ${c.submitted} submitted, ${c.disqualified} disqualified`,
      absent.length ? `, ${absent.length} ${word}` : '', c.quiet ? `; ${plural(c.quiet, 'candidate')} not heard from for 15 s or more` : '', '.');
    pauseBtn.textContent = s.exam.isPaused ? 'Resume exam' : 'Pause exam';
    pauseBtn.className = s.exam.isPaused ? 'primary' : 'secondary';
    pausedBanner.hidden = !s.exam.isPaused;
    // one list of the whole room, names in natural order (Student 2 before Student 10)
    const room = [...s.attempts.map((a) => ({ name: a.candidateName, id: a.studentId, a })), ...absent.map((b) => ({ name: b.candidateName, id: b.studentId, b }))]
      .sort((x, y) => byName(x.name, y.name) || byName(x.id, y.id));
    if (!room.length) {
      rows.clear();
      replace(tbody, h('tr', null, h('td', { colspan: sebRequired ? 9 : 8, class: 'empty' }, 'Nobody has started yet. Candidates appear here the moment they start.')));
      return;
    }
    const seen = new Set<string>();
    let prev: Element | null = null;
    for (const entry of room) {
      if (!('a' in entry)) {
        const key = `absent:${entry.id}:${word}`;
        seen.add(key);
        let r = rows.get(key);
        if (!r) rows.set(key, (r = { el: absentRow(entry.b, word), sig: key }));
        const want: Element | null = prev ? prev.nextElementSibling : tbody.firstElementChild;
        if (want !== r.el) tbody.insertBefore(r.el, want);
        prev = r.el;
        continue;
      }
      const a = entry.a;
      seen.add(a.attemptId);
      const { remainingSeconds: _r, lastSeenAt: _s, lastSavedAt: _v, ...stable } = a;
      const sig = JSON.stringify(stable);
      let r = rows.get(a.attemptId);
      if (!r || r.sig !== sig) {
        const el = build(a);
        if (r) r.el.replaceWith(el);
        r = { el, sig };
        rows.set(a.attemptId, r);
      }
      tick(r.el, a, now);
      // keep DOM order without moving rows that are already in place
      const want: Element | null = prev ? prev.nextElementSibling : tbody.firstElementChild;
      if (want !== r.el) tbody.insertBefore(r.el, want);
      prev = r.el;
    }
    for (const [id, r] of rows) if (!seen.has(id)) { r.el.remove(); rows.delete(id); }
    for (const el of Array.from(tbody.children)) if (!el.hasAttribute('data-attempt-id') && !el.hasAttribute('data-absent')) el.remove();
  }

  const announce = (fresh: RaisedAlert[]) => {
    if (!fresh.length) return;
    drawAlerts();
    for (const al of fresh) toast(`${al.candidateName}: ${al.kind === 'disqualified' ? 'disqualified' : 'not seen for 60 s'}`, 'error');
  };
  const onSnapshot = (snap: MonitorSnapshot) => {
    const before = state.snapshot?.attempts.length;
    announce(state.apply(snap));
    // each new attempt spends a credit: keep the header's balance true
    if (before !== undefined && snap.attempts.length > before) void ctx.refreshWorkspace().catch(() => undefined);
    draw();
  };
  /** The stream's `delta`: only the rows that changed since its last event. */
  const onDelta = (d: MonitorDelta) => {
    const before = state.snapshot?.attempts.length;
    announce(state.applyDelta(d));
    if (before !== undefined && (state.snapshot?.attempts.length ?? 0) > before) void ctx.refreshWorkspace().catch(() => undefined);
    draw();
  };

  const first = await ctx.api.get<MonitorSnapshot>(`/exams/${encodeURIComponent(exam.id)}/monitor`);
  onSnapshot(first);

  replace(host,
    h('div', { class: 'page-head' }, h('div', null, summary, connection), h('div', { class: 'actions' }, pauseBtn)),
    pausedBanner, alertsHost,
    h('table', { class: 'table compact monitor', id: 'monitor-table' },
      h('thead', null, h('tr', null, ['Candidate', 'Seat / address', 'Answered', 'Last saved', 'Time left', 'Violations', ...(sebRequired ? ['SEB'] : []), 'Status'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
      tbody),
    failuresHost);
  draw();
  drawAlerts();

  const labels: Record<StreamState, string> = { connecting: 'Connecting…', open: '● Live', retrying: 'Reconnecting…', stopped: 'Stopped' };
  const stream = openEventStream({
    url: `/exams/${encodeURIComponent(exam.id)}/monitor/stream`,
    headers: ctx.api.headers(),
    fatalStatuses: [401, 403, 404],
    onState: (st, detail) => {
      connection.className = `conn conn-${st}`;
      connection.textContent = detail && st !== 'open' ? `${labels[st]} (${detail})` : labels[st];
    },
    onEvent: (event, data) => {
      try {
        if (event === 'snapshot') onSnapshot(JSON.parse(data) as MonitorSnapshot);
        else if (event === 'delta') onDelta(JSON.parse(data) as MonitorDelta);
        else if (event === 'alert') {
          const r = state.raise(JSON.parse(data) as MonitorAlert);
          if (r) announce([r]);
        }
      } catch {
        /* a malformed event is skipped; the next connection's snapshot repairs the view */
      }
    },
  });
  // tick the clocks and the "not seen" check once a second between snapshots
  const ticker = window.setInterval(() => {
    announce(state.checkUnseen());
    draw();
  }, 1000);
  return () => {
    clearInterval(ticker);
    stream.close();
  };
}

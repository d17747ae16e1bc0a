/**
 * What a virtual candidate does in each phase (issue 8), open-loop on its own timers:
 *
 * - `start`:  at a random moment of the window, POST /attempts/start with room code,
 *   studentId and 4-digit PIN (the response is the candidate's paper: all the questions of
 *   a flat paper (60 or 180), or the 180 drawn from the UTME paper's sections); then saves.
 *
 * A candidate answers only the questions it was given (`c.given`: indexes in the paper, from
 * its start's response or, for a pre-seated attempt, from seed.mjs; absent: the whole paper).
 * - `hall`:   saves an answer every `saveEveryMs` (±`jitterMs`) from a random phase, and
 *   now and then (1 in `telemetryEvery` saves) a telemetry event; with `target:
 *   'baseline'` the same schedule GETs the bare route instead (the baseline hall).
 * - `fill`:   one POST /attempts/:id/answers with an answer to every question given (the page's
 *   offline-replay batch), so that grading at submit has a whole script to mark.
 * - `submit`: saves until a random moment of the window, then POST /attempts/:id/submit.
 *
 * Probe connections GET the bare route every `probeEveryMs` throughout, giving the
 * baseline latency in the same window. Phases end when their work is done (plus
 * `settleMs`) or at `deadlineMs`, whichever is first.
 */
const rnd = (a, b) => a + Math.random() * (b - a);
const at = (epochMs, fn) => setTimeout(fn, Math.max(0, epochMs - Date.now()));
const TELEMETRY = ['NETWORK_ONLINE', 'FULLSCREEN_ENTER', 'WINDOW_BLUR'];

/**
 * Runs one phase for this generator's candidates.
 * @returns {Promise<{started: number, submits: [string, number][], wallMs: number}>}
 *   submits = [attemptId, epoch ms the submit response arrived]
 */
export function runPhase(state, p, rec) {
  const ctx = { stopped: false, pending: 0, started: 0, submits: [] };
  const t = { start: 120_000, save: 30_000, submit: 60_000, ...p.timeouts };
  const q = state.questions;

  const own = (c) => (c.given ? c.given.map((i) => q[i]) : q);
  const answer = (c) => {
    const item = c.given ? q[c.given[Math.floor(Math.random() * c.given.length)]] : q[Math.floor(Math.random() * q.length)];
    c.last = { questionId: item.id, optionId: item.optionIds[Math.floor(Math.random() * item.optionIds.length)], seq: ++c.seq };
    return c.last;
  };
  const save = (c, intended) => {
    if (p.target === 'baseline') return rec.send(c.conn, 'baseline-hall', intended, 'GET', state.baselinePath, null, t.save);
    const a = answer(c);
    return rec.send(c.conn, 'save', intended, 'PUT', `/attempts/${c.attemptId}/answers/${a.questionId}`, `{"optionId":"${a.optionId}","seq":${a.seq}}`, t.save);
  };
  const telemetry = (c, intended) =>
    rec.send(c.conn, 'telemetry', intended, 'POST', `/attempts/${c.attemptId}/telemetry`, JSON.stringify({ type: TELEMETRY[Math.floor(Math.random() * TELEMETRY.length)], meta: { action: 'bench' } }), t.save);

  const saveLoop = (c, firstAt, stopAt) => {
    const tick = (intended) => {
      if (ctx.stopped || intended >= stopAt || c.submitting) return;
      save(c, intended);
      if (p.target !== 'baseline' && p.telemetryEvery && Math.random() * p.telemetryEvery < 1) telemetry(c, intended);
      const next = intended + p.saveEveryMs + rnd(-p.jitterMs, p.jitterMs);
      at(next, () => tick(next));
    };
    at(firstAt, () => tick(firstAt));
  };

  return new Promise((resolve) => {
    const began = Date.now();
    let finished = false;
    const finish = async (forced) => {
      if (finished) return;
      finished = true;
      ctx.stopped = true;
      if (forced) for (const c of [...state.cands.map((x) => x.conn), ...state.probes]) c.close();
      while (rec.outstanding > 0) await new Promise((r) => setTimeout(r, 50));
      resolve({ started: ctx.started, submits: ctx.submits, wallMs: Date.now() - began });
    };
    const done = () => {
      if (--ctx.pending === 0) setTimeout(() => finish(false), p.settleMs ?? 2000);
    };
    at(p.t0 + p.deadlineMs, () => finish(true));

    for (const probe of state.probes) {
      const tick = (intended) => {
        if (ctx.stopped) return;
        rec.send(probe, 'baseline-probe', intended, 'GET', state.baselinePath, null, t.save);
        at(intended + p.probeEveryMs, () => tick(intended + p.probeEveryMs));
      };
      const first = p.t0 + rnd(0, p.probeEveryMs);
      at(first, () => tick(first));
    }

    const live = state.cands.filter((c) => (p.kind === 'start' ? !c.attemptId : c.attemptId || p.target === 'baseline'));
    if (p.kind === 'hall') {
      for (const c of live) saveLoop(c, p.t0 + rnd(0, p.saveEveryMs), p.t0 + p.durationMs);
      at(p.t0 + p.durationMs, () => finish(false));
      return;
    }
    ctx.pending = live.length + 1;
    for (const c of live) {
      const when = p.t0 + rnd(0, p.windowMs);
      if (p.kind === 'submit' && p.saves) saveLoop(c, p.t0 + rnd(0, p.saveEveryMs), when);
      at(when, async () => {
        if (p.kind === 'start') {
          // a candidate of a two-paper hall (scenarios.mjs) carries its exam's room code and paper
          const body = JSON.stringify({ accessCode: c.accessCode ?? state.accessCode, studentId: c.studentId, candidateName: `Candidate ${c.studentId}`, candidatePin: c.pin });
          const r = await rec.send(c.conn, 'start', when, 'POST', '/attempts/start', body, t.start);
          // and its start counts for its paper too (`start:utme`, …)
          if (r && c.paper) rec.record(`start:${c.paper}`, r);
          if (r) {
            const s = JSON.parse(r.body.toString('utf8'));
            const perCandidate = c.perCandidate ?? state.perCandidate;
            if (s.questions?.length !== perCandidate) rec.error('start', 'paper-incomplete', `${s.questions?.length} questions`);
            else if (perCandidate !== q.length) c.given = s.questions.map((x) => state.questionIndex.get(x.id));
            if (r.body.includes('isCorrect')) rec.error('start', 'answer-key-leaked', '');
            c.attemptId = s.attemptId;
            c.seq = Math.max(c.seq, s.durableSeq ?? 0);
            ctx.started++;
            if (p.saves && !ctx.stopped) saveLoop(c, Date.now() + rnd(0, p.saveEveryMs), Infinity);
          }
        } else if (p.kind === 'fill') {
          const answers = own(c).map((item) => ({ questionId: item.id, optionId: item.optionIds[Math.floor(Math.random() * item.optionIds.length)], seq: ++c.seq }));
          await rec.send(c.conn, 'save-batch', when, 'POST', `/attempts/${c.attemptId}/answers`, JSON.stringify({ answers }), t.save);
        } else if (p.kind === 'submit') {
          c.submitting = true;
          const r = await rec.send(c.conn, 'submit', when, 'POST', `/attempts/${c.attemptId}/submit`, JSON.stringify({ answers: [answer(c)] }), t.submit);
          if (r) {
            const s = JSON.parse(r.body.toString('utf8'));
            if (s.status !== 'COMPLETED') rec.error('submit', `status-${s.status}`, '');
            else ctx.submits.push([c.attemptId, Date.now()]);
          }
        }
        done();
      });
    }
    done(); // the +1 above: a generator with no candidates still finishes
  });
}

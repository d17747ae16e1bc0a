/**
 * Candidate page entry point (served at `/`, bundled to ES2019 by
 * scripts/build-web.mjs). Decides which screen to show:
 * - no attempt remembered on this PC → sign-in, which previews the exam (no clock runs
 *   yet) → the instructions → "Start exam" starts the attempt and its clock (issue 20);
 * - an attempt remembered (reload, browser crash, power cut) → `GET /attempts/:id` and
 *   straight back into the exam with the same question order and answers; if the
 *   server cannot be reached, the exam continues from the copy kept in localStorage
 *   (clock shown as unknown until the server answers);
 * - completed → result or receipt; disqualified → lock screen, which reopens by itself
 *   if an invigilator reinstates the attempt.
 */
import './polyfills.js';
import { attemptPath, call } from './api.js';
import { ExamController } from './exam.js';
import { keepInstructions } from './exam-instructions.js';
import { messageFor } from './messages.js';
import { fromPreview, fromSession, showInstructions } from './screens/instructions.js';
import { showLocked, showMessage, showResult, type ResultInput } from './screens/result.js';
import { showSignIn } from './screens/signin.js';
import { attemptKey, currentAttempt, forgetAttempt, readJson, setCurrentAttempt } from './storage.js';
import { registerOfflineShell } from './offline-shell.js';
import { resetView } from './view-prefs.js';
import { paperQuery, showsMathml, styleMaths } from './math.js';
import type { Credentials, Preview, Session } from './types.js';
import { lockText, rememberQuitUrl, sebReady, showSebRequired } from './seb.js';

function signIn(notice?: { title: string; text: string; calm?: boolean }): void {
  resetView();
  showSignIn(signedIn, notice);
}

/**
 * After the preview: a resumed attempt (its clock already runs) is started at once and
 * routed as before; a new one shows the instructions, and only "Start exam" starts it.
 */
function signedIn(preview: Preview, credentials: Credentials): void {
  // the exam's instructions stay with the attempt, for its Instructions button (exam-instructions.ts)
  const kept = (session: Session) => keepInstructions(session.attemptId, preview.instructionsHtml);
  if (preview.isResumed) {
    void begin(credentials, (session) => (kept(session), route(session, false)));
    return;
  }
  // the examiner's instructions may hold maths in KaTeX's HTML (an old browser's form): its stylesheet then
  styleMaths([{ promptHtml: preview.instructionsHtml || undefined }]);
  showInstructions(fromPreview(preview), () => begin(credentials, (session) => (kept(session), route(session, true))));
}

/**
 * How long the page waits for a response that carries the paper (start, resume), ms. At
 * exam start the whole hall downloads its papers in the same minute over one access
 * point: 1,000 papers of ~6 KB take ~12 s of a 20 Mbit/s link at best (the network
 * bench's floor, docs/benchmarks.md), so the last candidates' responses are slow, not lost.
 * Giving up after the default 10 s would make them ask again and add to the load.
 */
const PAPER_TIMEOUT_MS = 60_000;
/** Starts tried before the page goes back to sign-in, when no answer comes at all. */
const START_TRIES = 4;

/**
 * `POST /attempts/start`; a refusal goes back to sign-in saying why. No answer at all
 * (a busy or dropped Wi-Fi) is tried again, up to START_TRIES times with growing pauses,
 * telling the candidate to wait: starting again resumes the same attempt (`isResumed`,
 * docs/api-overview.md, "Candidate session"), so a retry never makes a second one or charges twice.
 */
async function begin(credentials: Credentials, then: (session: Session) => void): Promise<void> {
  let res = await call<Session>('POST', '/attempts/start' + paperQuery(), credentials, PAPER_TIMEOUT_MS);
  for (let tried = 1; res.kind === 'network' && tried < START_TRIES; tried++) {
    showMessage('Getting your paper…', 'The hall network is busy. Please wait: this page keeps trying by itself.');
    await new Promise((resolve) => setTimeout(resolve, 2000 * tried + Math.random() * 2000));
    res = await call<Session>('POST', '/attempts/start' + paperQuery(), credentials, PAPER_TIMEOUT_MS);
  }
  if (res.kind === 'ok') return then(res.body);
  const problem = res.kind === 'problem' ? res.problem : null;
  if (problem && problem.code === 'SEB_REQUIRED') return showSebRequired(problem, () => signIn());
  signIn(messageFor(problem));
}

/** Shows the screen for a session's status. */
function route(session: Session, fromReload: boolean): void {
  setCurrentAttempt(session.attemptId);
  rememberQuitUrl(session.safeExamBrowser && session.safeExamBrowser.quitUrl);
  if (session.status === 'COMPLETED') return finished({ ...session, attemptId: session.attemptId });
  if (session.status === 'DISQUALIFIED') return locked(session.attemptId, lockText(`You had ${session.violations} proctoring violations; the limit is ${session.maxTabViolations}.`, session.lockReason));
  if (fromReload) return openExam(session);
  showInstructions(fromSession(session), () => openExam(session));
}

function openExam(session: Session): void {
  styleMaths(session.questions);
  const exam = new ExamController(session, {
    onFinished: finished,
    onLocked: (detail) => locked(session.attemptId, detail),
    onGone: () => {
      forgetAttempt(session.attemptId);
      signIn({ title: 'Session not found', text: 'The exam server no longer knows this attempt. Sign in again, or call the invigilator.' });
    },
  });
  exam.start();
}

function finished(result: ResultInput): void {
  // The server holds the final answers now: drop the local copies, keep the pointer so
  // a reload shows this result again until the candidate presses Finish.
  const id = result.attemptId;
  forgetAttempt(id);
  setCurrentAttempt(id);
  showResult(result, () => {
    forgetAttempt(id);
    signIn({ title: 'Exam finished', text: 'Your answers are submitted and you are signed out. The next candidate can sign in here.', calm: true });
  });
}

/** Lock screen; polls every 10 s so a reinstated candidate continues without help. */
function locked(attemptId: string, detail: string): void {
  showLocked(detail);
  const check = async () => {
    if (!document.getElementById('screen-locked')) return;
    const res = await call<Session>('GET', attemptPath(attemptId, paperQuery()));
    if (!document.getElementById('screen-locked')) return;
    if (res.kind === 'ok' && res.body.status !== 'DISQUALIFIED') return route(res.body, true);
    if (res.kind === 'problem' && res.status === 404) {
      forgetAttempt(attemptId);
      return signIn();
    }
    setTimeout(check, 10_000);
  };
  setTimeout(check, 10_000);
}

/** Reopens the attempt this PC was sitting. */
async function resume(attemptId: string): Promise<void> {
  showMessage('Reconnecting to your exam…', 'Please wait a moment.');
  const cached = readJson<Session | null>(attemptKey(attemptId, 'session'), null);
  const canGoOn = !!(cached && cached.status === 'IN_PROGRESS' && cached.questions && cached.questions.length);
  // with the paper on this PC the exam goes on from it after the usual 10 s; without it, wait for the paper
  const res = await call<Session>('GET', attemptPath(attemptId, paperQuery()), undefined, canGoOn ? undefined : PAPER_TIMEOUT_MS);
  if (res.kind === 'ok') return route(res.body, true);
  if (res.kind === 'network') {
    if (cached && canGoOn) {
      // Work on from the local copy; the clock stays unknown until the server answers, and
      // the flags are this PC's (the copy's list is the server's at the start)
      return openExam({ ...cached, flagged: undefined, remainingSeconds: NaN, isPaused: false });
    }
    showMessage('Cannot reach the exam server', 'This computer cannot reach the exam server. Check the network cable or Wi-Fi; this page tries again by itself.', {
      label: 'Try again now',
      run: () => resume(attemptId),
    });
    setTimeout(() => {
      if (document.getElementById('screen-message')) resume(attemptId);
    }, 5000);
    return;
  }
  if (res.status === 403 && (!res.problem.code || res.problem.code === 'DISQUALIFIED' || res.problem.code === 'SEB_REQUIRED')) {
    return locked(attemptId, lockText('Your exam was locked after too many proctoring violations.', res.problem.lockReason));
  }
  forgetAttempt(attemptId);
  signIn(res.status === 404 ? undefined : messageFor(res.problem));
}

/**
 * A room link (`?room=CODE`, the start URL of a Safe Exam Browser configuration) asks
 * the server first whether the room requires SEB and whether this browser passes.
 */
async function checkRoom(room: string): Promise<void> {
  const res = await call<{ required: boolean; verified: boolean; reason: string | null }>('GET', '/rooms/' + encodeURIComponent(room) + '/safe-exam-browser');
  if (res.kind === 'ok' && res.body.required && !res.body.verified) return showSebRequired(res.body, () => void checkRoom(room));
  signIn();
}

async function boot(): Promise<void> {
  registerOfflineShell();
  // which form of the maths to ask for (MathML where the browser lays it out), once
  showsMathml();
  await sebReady();
  const params = new URLSearchParams(location.search);
  if (params.get('quit') === '1') return showMessage('Exam finished', 'You can leave Safe Exam Browser now. Please follow the invigilator’s instructions.');
  const current = currentAttempt();
  if (current) return resume(current.attemptId);
  const room = params.get('room');
  if (room && /^[A-Za-z0-9-]{4,32}$/.test(room)) return checkRoom(room);
  signIn();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void boot());
else void boot();

/**
 * Instructions screen (issue 4 point 2): duration, number of questions, total marks,
 * the violation limit and the keyboard shortcuts, then "Start exam" — which asks the
 * browser for fullscreen (a user gesture is required for that) and opens the exam.
 * A new candidate reads them from `POST /attempts/preview`, before any clock runs: the
 * clock starts when they press Start (issue 20). The exam's own instructions, when the
 * examiner wrote some, come first (issue 36: `instructionsHtml`, rendered and sanitised
 * by the server like a question's prompt). A resumed attempt's clock already
 * runs, so its time left is shown ticking. The button stays in view at 1024×768.
 */
import { formatClock } from '../clock.js';
import { h, mount } from '../dom.js';
import type { Preview, Session } from '../types.js';

/** What the screen shows, from a preview (not started) or a resumed session. */
export interface InstructionsInfo {
  examTitle: string;
  candidateName: string;
  studentId: string;
  durationMins: number;
  questionCount: number;
  essayCount: number;
  totalMarks: number;
  maxTabViolations: number;
  remainingSeconds: number;
  isPaused: boolean;
  /** the attempt exists and its clock runs */
  isResumed: boolean;
  /** the examiner's instructions, sanitised HTML from the server; null/absent: none */
  instructionsHtml?: string | null;
}

/** The screen's facts from a start/resume session. */
export function fromSession(s: Session): InstructionsInfo {
  return {
    examTitle: s.examTitle,
    candidateName: s.candidateName,
    studentId: s.studentId,
    durationMins: s.durationMins,
    questionCount: s.questions.length,
    essayCount: s.questions.filter((q) => q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY').length,
    totalMarks: s.questions.reduce((sum, q) => sum + (Number(q.marks) || 0), 0),
    maxTabViolations: s.maxTabViolations,
    remainingSeconds: s.remainingSeconds,
    isPaused: s.isPaused,
    isResumed: !!s.isResumed,
  };
}

/** The screen's facts from a preview. */
export function fromPreview(p: Preview): InstructionsInfo {
  return { ...p };
}

/** Asks for fullscreen; resolves either way (refused, unsupported, headless). */
export async function requestFullscreen(): Promise<void> {
  const el = document.documentElement as HTMLElement & { webkitRequestFullscreen?: () => void };
  try {
    if (el.requestFullscreen) await el.requestFullscreen();
    else if (el.webkitRequestFullscreen) el.webkitRequestFullscreen();
  } catch {
    /* the exam works without fullscreen; leaving it is what gets recorded */
  }
}

/**
 * Shows the instructions.
 * @param info from `fromPreview` (clock not started) or `fromSession` (resumed)
 * @param onStart called after the candidate pressed Start (fullscreen already requested);
 *   the button reads "Starting…" until it settles
 */
export function showInstructions(info: InstructionsInfo, onStart: () => void | Promise<void>): void {
  const running = info.isResumed;
  const start = h('button.primary.big', { type: 'button', id: 'start-exam' }, running ? 'Continue my exam' : 'Start exam');
  start.addEventListener('click', async () => {
    start.setAttribute('disabled', '');
    start.textContent = 'Starting…';
    await requestFullscreen();
    await onStart();
  });
  const limit = info.maxTabViolations;
  if (running) {
    // Keep the time-left figure moving (monotonic deltas since the server's answer).
    const t0 = performance.now();
    const ticker = setInterval(() => {
      const el = document.getElementById('instr-time');
      if (!el) return clearInterval(ticker);
      if (info.isPaused) return;
      el.textContent = formatClock(Math.ceil(info.remainingSeconds - (performance.now() - t0) / 1000));
    }, 1000);
  }
  const cut = !running && info.remainingSeconds < info.durationMins * 60;
  mount(
    h(
      'main.screen.center',
      { id: 'screen-instructions' },
      h(
        'section.card.instructions',
        { 'aria-labelledby': 'instr-title' },
        h('h1', { id: 'instr-title' }, info.examTitle),
        h('p.lead', {}, `${info.candidateName} · ${info.studentId}`),
        running
          ? h('p.notice.ok', {}, 'Welcome back. Your saved answers and your place are restored. Your time is running.')
          : h('p.notice.ok', { id: 'clock-not-started' }, 'Your time has not started. Read these instructions; the clock starts when you press Start exam.'),
        h(
          'dl.facts',
          {},
          h('dt', {}, 'Duration'),
          h('dd', {}, `${info.durationMins} minutes`),
          h('dt', {}, running ? 'Time left' : 'Your time'),
          h('dd', { id: 'instr-time' }, formatClock(info.remainingSeconds)),
          h('dt', {}, 'Questions'),
          h('dd', { id: 'instr-questions' }, `${info.questionCount}${info.essayCount ? ` (${info.essayCount} written)` : ''}`),
          h('dt', {}, 'Total marks'),
          h('dd', {}, String(Math.round(info.totalMarks * 100) / 100)),
          h('dt', {}, 'Violation limit'),
          h('dd', {}, String(limit)),
        ),
        cut ? h('p.small', {}, 'The exam window closes before the full duration is over, so you have less time than the duration.') : null,
        info.instructionsHtml ? h('h2', { id: 'exam-instructions-title' }, 'Instructions') : null,
        info.instructionsHtml ? h('div.exam-instructions.rich', { id: 'exam-instructions', html: info.instructionsHtml, 'aria-labelledby': 'exam-instructions-title', tabindex: '0' }) : null,
        h('h2', {}, 'Before you start'),
        h(
          'ul.rules',
          {},
          h('li', {}, 'The clock is kept by the exam server. When it reaches zero your answers are submitted automatically.'),
          h('li', {}, 'Every answer is saved as you go. If the network drops, keep working: answers are kept on this computer and sent when it returns.'),
          h('li', {}, `Switching to another window or tab, leaving full screen, copying, pasting or right-clicking is recorded. After ${limit} such event${limit === 1 ? '' : 's'}, the next one locks your exam.`),
          h('li', {}, 'You can move between questions freely and flag any question to review later.'),
        ),
        h(
          'p.keys',
          {},
          'Keys: ',
          h('kbd', {}, 'A'), '–', h('kbd', {}, 'D'), ' (or ', h('kbd', {}, '1'), '–', h('kbd', {}, '9'), ') choose · ',
          h('kbd', {}, 'N'), ' next · ', h('kbd', {}, 'P'), ' previous · ', h('kbd', {}, 'F'), ' flag for review',
        ),
        h('div.start-row', {}, start),
      ),
    ),
  );
}

/**
 * Instructions screen (issue 4 point 2): duration, number of questions, total marks,
 * the violation limit and the keyboard shortcuts, then "Start" — which asks the
 * browser for fullscreen (a user gesture is required for that) and opens the exam.
 * The server's clock already runs (it starts at sign-in), so the time left is shown.
 */
import { formatClock } from '../clock.js';
import { h, mount } from '../dom.js';
import type { Session } from '../types.js';

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
 * @param session start or resume response
 * @param onStart called after the candidate pressed Start (fullscreen already requested)
 */
export function showInstructions(session: Session, onStart: () => void): void {
  const total = session.questions.reduce((sum, q) => sum + (Number(q.marks) || 0), 0);
  const essays = session.questions.filter((q) => q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY').length;
  const start = h('button.primary.big', { type: 'button', id: 'start-exam' }, session.isResumed ? 'Continue my exam' : 'Start exam');
  start.addEventListener('click', async () => {
    start.setAttribute('disabled', '');
    await requestFullscreen();
    onStart();
  });
  const limit = session.maxTabViolations;
  // Keep the time-left figure moving (monotonic deltas since the server's answer).
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const el = document.getElementById('instr-time');
    if (!el) return clearInterval(ticker);
    if (session.isPaused) return;
    el.textContent = formatClock(Math.ceil(session.remainingSeconds - (performance.now() - t0) / 1000));
  }, 1000);
  mount(
    h(
      'main.screen.center',
      { id: 'screen-instructions' },
      h(
        'section.card.instructions',
        { 'aria-labelledby': 'instr-title' },
        h('h1', { id: 'instr-title' }, session.examTitle),
        h('p.lead', {}, `${session.candidateName} · ${session.studentId}`),
        session.isResumed
          ? h('p.notice.ok', {}, 'Welcome back. Your saved answers and your place are restored.')
          : null,
        h(
          'dl.facts',
          {},
          h('dt', {}, 'Duration'),
          h('dd', {}, `${session.durationMins} minutes`),
          h('dt', {}, 'Time left'),
          h('dd', { id: 'instr-time' }, formatClock(session.remainingSeconds)),
          h('dt', {}, 'Questions'),
          h('dd', {}, `${session.questions.length}${essays ? ` (${essays} written)` : ''}`),
          h('dt', {}, 'Total marks'),
          h('dd', {}, String(Math.round(total * 100) / 100)),
          h('dt', {}, 'Violation limit'),
          h('dd', {}, String(limit)),
        ),
        h('h2', {}, 'Before you start'),
        h(
          'ul.rules',
          {},
          h('li', {}, 'The clock is kept by the exam server. When it reaches zero your answers are submitted automatically.'),
          h('li', {}, 'Every answer is saved as you go. If the network drops, keep working: answers are kept on this computer and sent when it returns.'),
          h('li', {}, `Switching to another window or tab, leaving full screen, copying, pasting or right-clicking is recorded. After ${limit} such event${limit === 1 ? '' : 's'}, the next one locks your exam.`),
          h('li', {}, 'You can move between questions freely and flag any question to review later.'),
        ),
        h('h2', {}, 'Keyboard shortcuts'),
        h(
          'ul.keys',
          {},
          h('li', {}, h('kbd', {}, 'A'), '–', h('kbd', {}, 'D'), ' choose an option (or ', h('kbd', {}, '1'), '–', h('kbd', {}, '9'), ')'),
          h('li', {}, h('kbd', {}, 'N'), ' next question, ', h('kbd', {}, 'P'), ' previous question'),
          h('li', {}, h('kbd', {}, 'F'), ' flag or unflag for review'),
        ),
        start,
      ),
    ),
  );
}

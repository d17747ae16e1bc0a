/**
 * The question navigator (issue 4 point 3): one numbered button per question showing
 * answered / unanswered / flagged-for-review and the current one, plus the answered
 * count and the Submit button. States are conveyed by shape and text as well as colour
 * (high-contrast and colour-blind friendly), and in each button's accessible name.
 */
import { h } from '../dom.js';

export interface NavItemState {
  answered: boolean;
  flagged: boolean;
  /** answer still only on this computer (not yet durable on the server) */
  unsaved: boolean;
}

export interface Navigator {
  element: HTMLElement;
  /** Redraws every button's state. */
  update(states: NavItemState[], current: number): void;
}

/**
 * Builds the navigator.
 * @param total number of questions
 * @param onGo called with a 0-based question index
 * @param onSubmit called when the candidate presses Submit
 */
export function createNavigator(total: number, onGo: (index: number) => void, onSubmit: () => void): Navigator {
  const buttons: HTMLButtonElement[] = [];
  const grid = h('ol.nav-grid', { role: 'list' });
  for (let i = 0; i < total; i++) {
    const b = h('button.nav-q', { type: 'button', 'data-index': String(i) }, String(i + 1)) as HTMLButtonElement;
    b.addEventListener('click', () => onGo(i));
    buttons.push(b);
    grid.appendChild(h('li', {}, b));
  }
  const summary = h('p.nav-summary', { id: 'nav-summary' });
  const submit = h('button.submit.big', { type: 'button', id: 'open-submit' }, 'Submit exam…');
  submit.addEventListener('click', onSubmit);
  const element = h(
    'nav.navigator',
    { 'aria-label': 'Question navigator', id: 'navigator' },
    h('h2.nav-title', {}, 'Questions'),
    summary,
    grid,
    h(
      'ul.legend',
      { 'aria-label': 'Legend' },
      h('li', {}, h('span.swatch.answered', { 'aria-hidden': 'true' }), 'Answered'),
      h('li', {}, h('span.swatch.answered.unsaved', { 'aria-hidden': 'true' }), 'Answered, still saving'),
      h('li', {}, h('span.swatch', { 'aria-hidden': 'true' }), 'Not answered'),
      h('li', {}, h('span.swatch.flagged', { 'aria-hidden': 'true' }), 'Flagged for review'),
      h('li', {}, h('span.swatch.current', { 'aria-hidden': 'true' }), 'Current question'),
    ),
    submit,
  );
  return {
    element,
    update(states, current) {
      let answered = 0;
      let flagged = 0;
      states.forEach((s, i) => {
        const b = buttons[i];
        if (!b) return;
        if (s.answered) answered++;
        if (s.flagged) flagged++;
        b.classList.toggle('answered', s.answered);
        b.classList.toggle('flagged', s.flagged);
        b.classList.toggle('unsaved', s.unsaved);
        b.classList.toggle('current', i === current);
        if (i === current) b.setAttribute('aria-current', 'step');
        else b.removeAttribute('aria-current');
        const parts = [s.answered ? 'answered' : 'not answered'];
        if (s.flagged) parts.push('flagged for review');
        if (s.unsaved) parts.push('not yet saved');
        const label = `Question ${i + 1}, ${parts.join(', ')}`;
        if (b.getAttribute('aria-label') !== label) b.setAttribute('aria-label', label);
      });
      summary.textContent = `${answered} of ${states.length} answered${flagged ? ` · ${flagged} flagged` : ''}`;
    },
  };
}

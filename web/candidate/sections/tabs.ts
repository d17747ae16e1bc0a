/**
 * A page built for 180 questions (issue 37 item 8, a JAMB-style sitting): subject tabs under
 * the top bar, each with its answered and flagged counts; a compact navigator of the current
 * subject only (its questions numbered within it); the question's heading numbered within
 * its subject ("Mathematics 1 of 40"); Submit moved beside the timer; and a layout in which
 * the page itself never scrolls (the question and the navigator scroll on their own), so the
 * timer and Submit stay in view at 1024×768 and 1366×768. Tabs follow the WAI-ARIA tabs
 * pattern: Tab reaches the selected one, ← → Home End move between subjects. Each subject
 * reopens at the question last shown in it. The submit dialog counts unanswered and flagged
 * questions per subject (`lists`). Moving between questions stays the page's (N, P, Next,
 * Previous in the paper's order); this only draws (docs/decisions.md, "A page built for 180
 * questions").
 */
import { h } from '../dom.js';
import type { NavItemState } from '../screens/navigator.js';
import type { SectionsHandle, SectionsHost } from './contract.js';
import { subjectsOf, type Subject } from './groups.js';

/** the tabs' stylesheet (sections.css under its content-hashed name: scripts/build-web.mjs) */
declare const __SECTIONS_CSS__: string;

/** Counts of one subject's questions in `states`. */
function countIn(s: Subject, states: NavItemState[]): { answered: number; flagged: number } {
  let answered = 0;
  let flagged = 0;
  for (const i of s.indices) {
    const st = states[i];
    if (st && st.answered) answered++;
    if (st && st.flagged) flagged++;
  }
  return { answered, flagged };
}

function setText(el: Element | null, text: string): void {
  if (el && el.textContent !== text) el.textContent = text;
}

/** Installs the tabs on the exam screen; see the module's description. */
export function installSections(host: SectionsHost): SectionsHandle {
  const subjects = subjectsOf(host.session.questions, host.session.sections);
  /** per question: its subject's index and its number within the subject (1-based) */
  const subjectOf: number[] = [];
  const numberOf: number[] = [];
  subjects.forEach((s, k) => s.indices.forEach((i, n) => ((subjectOf[i] = k), (numberOf[i] = n + 1))));
  const last = subjects.map((s) => s.indices[0]!);
  const screen = document.getElementById('screen-exam');
  // the attempt ended before this script arrived: nothing to draw on
  if (!screen) return { update() {} };
  if (!document.getElementById('sections-css')) document.head.appendChild(h('link', { id: 'sections-css', rel: 'stylesheet', href: __SECTIONS_CSS__ }));
  screen.classList.add('sectioned');
  const topbar = screen.querySelector('.topbar')!;

  let shown = -1;
  let states: NavItemState[] = [];
  const tabs: HTMLButtonElement[] = [];
  const tablist = h('div.subject-tabs', { role: 'tablist', 'aria-label': 'Subjects', id: 'subject-tabs' });
  const open = (k: number, focusTab: boolean) => {
    host.go(last[k]!);
    if (focusTab) tabs[k]!.focus();
  };
  subjects.forEach((s, k) => {
    const tab = h('button.subject-tab', { type: 'button', role: 'tab', id: 'subject-tab-' + k, 'aria-selected': 'false', tabindex: '-1', 'data-subject': s.name, title: s.name }, h('span.subject-name', {}, s.name), h('span.subject-count')) as HTMLButtonElement;
    tab.addEventListener('click', () => open(k, false));
    tabs.push(tab);
    tablist.appendChild(tab);
  });
  tablist.addEventListener('keydown', (e) => {
    const k = tabs.indexOf(e.target as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (k < 0 || to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    open((to + tabs.length) % tabs.length, true);
  });
  topbar.parentNode!.insertBefore(tablist, topbar.nextSibling);
  // Submit beside the timer: always in view
  const submit = document.getElementById('open-submit');
  if (submit) topbar.appendChild(submit);

  // the subject's navigator in place of the whole paper's
  const flat = document.getElementById('navigator');
  if (flat) flat.hidden = true;
  const title = h('h2.nav-title', { id: 'subject-nav-title' });
  const summary = h('p.nav-summary', { id: 'subject-summary' });
  const grid = h('ol.nav-grid', { role: 'list' });
  let buttons: HTMLButtonElement[] = [];
  const nav = h(
    'nav.navigator.subject-nav',
    { 'aria-labelledby': 'subject-nav-title', id: 'subject-nav' },
    title,
    summary,
    grid,
    h(
      'ul.legend',
      { 'aria-label': 'Legend' },
      h('li', {}, h('span.swatch.answered', { 'aria-hidden': 'true' }), 'Answered'),
      h('li', {}, h('span.swatch', { 'aria-hidden': 'true' }), 'Not answered'),
      h('li', {}, h('span.swatch.flagged', { 'aria-hidden': 'true' }), 'Flagged'),
      h('li', {}, h('span.swatch.answered.unsaved', { 'aria-hidden': 'true' }), 'Saving'),
    ),
  );
  const navHost = flat && flat.parentNode ? flat.parentNode : screen.querySelector('.navigator-host')!;
  navHost.appendChild(nav);

  const showSubject = (k: number) => {
    shown = k;
    const s = subjects[k]!;
    tabs.forEach((t, j) => {
      t.setAttribute('aria-selected', j === k ? 'true' : 'false');
      t.tabIndex = j === k ? 0 : -1;
    });
    // the row of tabs scrolls sideways: bring the subject shown into it
    const tab = tabs[k]!;
    const row = tab.parentElement!;
    if (tab.offsetLeft < row.scrollLeft || tab.offsetLeft + tab.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = tab.offsetLeft - 16;
    setText(title, s.name);
    grid.textContent = '';
    buttons = s.indices.map((i, n) => {
      const b = h('button.nav-q', { type: 'button', 'data-index': String(i) }, String(n + 1)) as HTMLButtonElement;
      b.addEventListener('click', () => host.go(i));
      grid.appendChild(h('li', {}, b));
      return b;
    });
  };

  const handle: SectionsHandle = {
    update(next, current) {
      states = next;
      const k = subjectOf[current];
      if (k === undefined) return;
      last[k] = current;
      if (k !== shown) showSubject(k);
      const s = subjects[k]!;
      subjects.forEach((sub, j) => {
        const c = countIn(sub, states);
        setText(tabs[j]!.lastChild as Element, `${c.answered}/${sub.indices.length}${c.flagged ? ` · ⚑${c.flagged}` : ''}`);
        tabs[j]!.setAttribute('aria-label', `${sub.name}: ${c.answered} of ${sub.indices.length} answered${c.flagged ? `, ${c.flagged} flagged` : ''}`);
      });
      const c = countIn(s, states);
      setText(summary, `${c.answered} of ${s.indices.length} answered${c.flagged ? ` · ${c.flagged} flagged` : ''}`);
      s.indices.forEach((i, n) => {
        const b = buttons[n]!;
        const st = states[i] || { answered: false, flagged: false, unsaved: false };
        b.classList.toggle('answered', st.answered);
        b.classList.toggle('flagged', st.flagged);
        b.classList.toggle('unsaved', st.unsaved);
        b.classList.toggle('current', i === current);
        if (i === current) b.setAttribute('aria-current', 'step');
        else b.removeAttribute('aria-current');
        const parts = [st.answered ? 'answered' : 'not answered'];
        if (st.flagged) parts.push('flagged for review');
        if (st.unsaved) parts.push('not yet saved');
        const label = `${s.name} question ${n + 1}, ${parts.join(', ')}`;
        if (b.getAttribute('aria-label') !== label) b.setAttribute('aria-label', label);
      });
      // the heading on screen, numbered within its subject
      const heading = document.getElementById('q-title');
      if (heading && heading.firstChild) {
        heading.firstChild.nodeValue = `${s.name} ${numberOf[current]}`;
        setText(heading.querySelector('.of'), ` of ${s.indices.length}`);
        setText(document.querySelector('#question-host legend'), `Choose one answer for ${s.name} question ${numberOf[current]}`);
      }
    },
  };
  /** the submit dialog's unanswered and flagged questions per subject; `go` leaves the dialog and shows one */
  const lists = (go: (index: number) => void): HTMLElement => {
    const list = h('ul.subject-counts', { id: 'submit-by-subject', 'aria-label': 'Unanswered and flagged questions by subject' });
    for (const s of subjects) {
      const unanswered = s.indices.filter((i) => !(states[i] && states[i]!.answered));
      const flagged = s.indices.filter((i) => states[i] && states[i]!.flagged);
      const jump = (label: string, items: number[]) =>
        h(
          'ul.jump-list',
          { 'aria-label': `${s.name}: ${label}` },
          ...items.map((i) => {
            const b = h('button.link', { type: 'button', 'aria-label': `Go to ${s.name} question ${numberOf[i]}` }, String(numberOf[i]));
            b.addEventListener('click', () => go(i));
            return h('li', {}, b);
          }),
        );
      const n = unanswered.length;
      list.appendChild(
        h(
          'li',
          { 'data-subject': s.name },
          h('strong', {}, s.name),
          h('span.subject-unanswered', { class: n ? 'warn' : '' }, n ? ` — ${n} of ${s.indices.length} unanswered` : ' — all answered'),
          flagged.length ? h('span', {}, `, ${flagged.length} flagged`) : null,
          n ? jump('unanswered', unanswered) : null,
          flagged.length ? h('p.small', {}, 'Flagged:') : null,
          flagged.length ? jump('flagged', flagged) : null,
        ),
      );
    }
    return list;
  };
  // The submit dialog (screens/dialog.ts) lists the whole paper's numbers: once it is open, the
  // same questions per subject instead. A link leaves the dialog as "Go back to my exam" does
  // (focus returned, dialog gone), then shows the question.
  const leaveTo = (i: number) => {
    const back = document.getElementById('cancel-submit');
    if (back) back.click();
    host.go(i);
  };
  new MutationObserver(() => {
    const dialog = document.getElementById('submit-dialog');
    if (!dialog || dialog.querySelector('#submit-by-subject') || !document.body.contains(screen)) return;
    const first = dialog.querySelector('h2 + p');
    const old = dialog.querySelectorAll('.jump-list');
    for (let i = 0; i < old.length; i++) {
      const prev = old[i]!.previousElementSibling;
      // "Flagged for review:" goes with its list
      if (prev && prev !== first && prev.tagName === 'P') dialog.removeChild(prev);
      dialog.removeChild(old[i]!);
    }
    if (first) dialog.insertBefore(lists(leaveTo), first.nextSibling);
  }).observe(document.body, { childList: true });
  return handle;
}

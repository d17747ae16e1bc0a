/**
 * Papers: every exam on the hub (GET /hub/v1/exams) with its start, counts and publication,
 * and, for authors, a new paper (POST /hub/v1/exams): title, start, duration and the
 * candidates as "student ID, name" lines; questions come next, by editor or import.
 */
import { field, formValues, h, replace } from '../../admin/dom.js';
import { formatDateTime, localInputToUtcIso } from '../../admin/time.js';
import { errorBlock, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Paper, PaperSummary } from '../types.js';

/** "ID, Name" (or tab-separated) lines → roster entries; blank lines skipped. */
export function parseRoster(text: string): { studentId: string; candidateName: string }[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((l) => {
    const [id, ...rest] = l.split(/\t|,/);
    return { studentId: (id ?? '').trim(), candidateName: rest.join(',').trim() };
  });
}

/** Draws the papers list into `host`. */
export async function renderPapers(ctx: BoardCtx, host: HTMLElement): Promise<void> {
  const papers = await ctx.api.get<PaperSummary[]>('/hub/v1/exams');
  const panel = h('div');
  const openNew = () => {
    const errorHost = h('div');
    const form = h('form', { id: 'new-paper', class: 'stack' },
      h('div', { class: 'grid3' },
        field('Title', h('input', { name: 'title', required: true, maxlength: 200 })),
        field('Starts at', h('input', { name: 'startsAt', type: 'datetime-local', required: true })),
        field('Duration (minutes)', h('input', { name: 'durationMins', type: 'number', min: 1, max: 600, value: 60, required: true }))),
      field('Candidates', h('textarea', { name: 'roster', rows: 6, required: true, placeholder: 'BRD-001, Ada Obi\nBRD-002, Bola Ade' }), 'One per line: student ID, then the name (comma or tab between). PINs are issued by the hub.'),
      errorHost,
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => replace(panel) }, 'Cancel'),
        h('button', { type: 'submit', class: 'primary', id: 'create-paper' }, 'Create paper')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = formValues(form);
      try {
        const paper = await ctx.api.post<Paper>('/hub/v1/exams', { title: v.title, startsAt: localInputToUtcIso(String(v.startsAt)), durationMins: Number(v.durationMins), roster: parseRoster(String(v.roster)) });
        toast('Paper created: add or import its questions.');
        ctx.navigate(`#/papers/${encodeURIComponent(paper.id)}/import`);
      } catch (err) {
        replace(errorHost, errorBlock(err));
      }
    });
    replace(panel, h('section', { class: 'card' }, h('h2', null, 'New paper'), form));
    (form.querySelector('input') as HTMLInputElement).focus();
  };

  replace(host,
    h('div', { class: 'page-head' },
      h('h1', null, 'Papers'),
      ctx.can('author') ? h('button', { type: 'button', class: 'primary', id: 'new-paper-open', onclick: openNew }, 'New paper') : null),
    panel,
    papers.length
      ? h('table', { class: 'table', id: 'papers' },
        h('thead', null, h('tr', null, ['Title', 'Starts', 'Questions', 'Candidates', 'Version', 'Published to'].map((t) => h('th', null, t)))),
        h('tbody', null, papers.map((p) => h('tr', { 'data-paper-id': p.id },
          h('td', null, h('a', { href: `#/papers/${encodeURIComponent(p.id)}/questions` }, p.title)),
          h('td', null, formatDateTime(p.startsAt)),
          h('td', null, String(p.questions)),
          h('td', null, String(p.candidates)),
          h('td', null, p.publishedVersion === null ? `${p.version} (not published)` : p.publishedVersion < p.version ? `${p.version} (published ${p.publishedVersion}: publish again)` : String(p.version)),
          h('td', null, p.hallIds.length ? `${p.hallIds.length} hall${p.hallIds.length === 1 ? '' : 's'}` : '—')))))
      : h('p', { class: 'empty' }, 'No papers yet.'));
}

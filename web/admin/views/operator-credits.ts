/**
 * The hall operator's "Workspaces and credits" section (issue 36 item 1; docs/decisions.md,
 * "Credits a centre tops up offline"): every workspace on this hall with the credits it has
 * left (GET /system/workspaces), and "Add credits" per workspace, which asks for the number
 * (1–100000) and a note kept in that workspace's audit log
 * (POST /system/workspaces/{id}/credits). Drawn below the backups on #/operator.
 */
import type { Api } from '../api.js';
import { field, h, replace } from '../dom.js';
import { errorBlock, loading, openDialog, toast } from '../ui.js';

interface WorkspaceCredits {
  id: string;
  name: string;
  type: string;
  ownerEmail: string;
  credits: number;
}

/** Draws the section into `host` with the operator's client `api` (it sends x-operator-key). */
export async function renderWorkspaceCredits(host: HTMLElement, api: Api): Promise<void> {
  replace(host, loading());
  let list: WorkspaceCredits[];
  try {
    list = (await api.get<{ workspaces: WorkspaceCredits[] }>('/system/workspaces')).workspaces;
  } catch (err) {
    replace(host, errorBlock(err));
    return;
  }
  const addTo = async (ws: WorkspaceCredits) => {
    const done = await openDialog({
      title: `Add credits to “${ws.name}”`,
      intro: h('p', null, `It has ${ws.credits} left. Each new candidate uses one credit; resuming uses none.`),
      fields: [
        field('Credits to add', h('input', { name: 'add', type: 'number', required: true, min: 1, max: 100000, step: 1, inputmode: 'numeric' })),
        field('Note (kept in the hall’s audit log)', h('input', { name: 'note', maxlength: 200, placeholder: 'e.g. paid cash, receipt 0042' })),
      ],
      submitLabel: 'Add credits',
      onSubmit: async (v) => {
        const res = await api.post<{ credits: number }>(`/system/workspaces/${encodeURIComponent(ws.id)}/credits`, { add: Number(v.add), note: String(v.note ?? '') });
        toast(`“${ws.name}” now has ${res.credits} credits.`);
      },
    });
    if (done) await renderWorkspaceCredits(host, api);
  };
  replace(host, h('section', { class: 'workspace-credits' },
    h('h2', null, 'Workspaces and credits'),
    h('p', { class: 'muted' }, 'Each hall (workspace) starts with 30 free credits; a new candidate uses one. Add credits here when a centre pays; the note goes into that hall’s audit log.'),
    list.length
      ? h('table', { class: 'table', id: 'workspace-credits' },
        h('thead', null, h('tr', null, h('th', null, 'Hall'), h('th', null, 'E-mail'), h('th', { class: 'num' }, 'Credits left'), h('th', null, h('span', { class: 'visually-hidden' }, 'Actions')))),
        h('tbody', null, list.map((ws) => h('tr', { 'data-workspace-id': ws.id },
          h('td', null, ws.name),
          h('td', { class: 'email' }, ws.ownerEmail),
          h('td', { class: 'num credits' }, String(ws.credits)),
          h('td', null, h('button', { type: 'button', class: 'secondary small', 'data-action': 'add-credits', onclick: () => void addTo(ws) }, 'Add credits'))))))
      : h('p', { class: 'empty', id: 'workspace-credits' }, 'No halls are registered on this machine yet.')));
}

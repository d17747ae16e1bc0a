/**
 * Deliveries: the webhook outbox (GET /webhooks/events?status=pending|delivered|failed)
 * with next try, last error and redelivery (POST /webhooks/events/:id/redeliver); the
 * workspace's webhook URL (PATCH /workspaces/me) and rotating the signing secret
 * (POST /workspaces/me/webhook-secret), which is shown once.
 */
import { copyText, field, formValues, h, hiddenHeader, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import { formatDateTime } from '../time.js';
import type { OutboxEvent, Workspace } from '../types.js';
import { confirmDialog, errorBlock, errorText, toast } from '../ui.js';

const STATUSES = ['pending', 'failed', 'delivered', 'all'] as const;
type Filter = (typeof STATUSES)[number];

/** Draws the deliveries screen (`filter` chooses the outbox status shown). */
export async function renderDeliveries(ctx: Ctx, host: HTMLElement, filter: Filter = 'pending'): Promise<void> {
  const ws = await ctx.refreshWorkspace();
  const events = await ctx.api.get<OutboxEvent[]>(filter === 'all' ? '/webhooks/events' : `/webhooks/events?status=${filter}`);

  const urlError = h('div');
  const urlForm = h('form', { id: 'webhook-url-form', class: 'inline-form' },
    field('Webhook URL', h('input', { name: 'webhookUrl', type: 'url', required: true, value: ws.webhookUrl ?? '', class: 'wide' })),
    h('button', { type: 'submit', class: 'secondary' }, 'Save URL'));
  urlForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(urlError);
    try {
      await ctx.api.patch<Workspace>('/workspaces/me', { webhookUrl: formValues(urlForm).webhookUrl });
      toast('Webhook URL saved. Pending events go to the new address.');
    } catch (err) {
      replace(urlError, errorBlock(err));
    }
  });

  const secretHost = h('div', { id: 'webhook-secret-host' });
  const rotate = h('button', { type: 'button', class: 'secondary', id: 'rotate-secret', onclick: async () => {
    if (!(await confirmDialog('Rotate signing secret', 'Your receiver must switch to the new secret: events signed from now on will not verify with the old one.', 'Rotate'))) return;
    try {
      const { webhookSecret } = await ctx.api.post<{ webhookSecret: string }>('/workspaces/me/webhook-secret');
      replace(secretHost, h('div', { class: 'secret' },
        h('span', { class: 'field-label' }, 'New signing secret — shown only now'),
        h('code', { id: 'new-webhook-secret' }, webhookSecret),
        h('button', { type: 'button', class: 'secondary small', onclick: () => void copyText(webhookSecret).then(() => toast('Copied.')) }, 'Copy')));
    } catch (err) {
      toast(errorText(err), 'error');
    }
  } }, 'Rotate signing secret');

  const redeliver = async (ev: OutboxEvent) => {
    try {
      await ctx.api.post(`/webhooks/events/${encodeURIComponent(ev.id)}/redeliver`);
      toast('Queued for delivery now.');
      await renderDeliveries(ctx, host, filter);
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };

  const filterSelect = h('select', { id: 'delivery-filter', 'aria-label': 'Show events' }, STATUSES.map((s) => h('option', { value: s, selected: s === filter }, s === 'all' ? 'All' : s[0]!.toUpperCase() + s.slice(1))));
  filterSelect.addEventListener('change', () => void renderDeliveries(ctx, host, filterSelect.value as Filter).catch((err) => toast(errorText(err), 'error')));

  const rows = events.map((ev) => {
    const status = ev.status.toLowerCase();
    return h('tr', { 'data-event-id': ev.id, 'data-status': status },
      h('td', null, h('code', null, ev.id)),
      h('td', null, ev.type),
      h('td', null, h('span', { class: `badge delivery-${status}` }, status)),
      h('td', { class: 'num' }, String(ev.attempts ?? ev.tries ?? 0)),
      h('td', null, status === 'pending' ? formatDateTime(ev.nextAttemptAt) : '—'),
      h('td', { class: 'small' }, ev.lastStatusCode ? `HTTP ${ev.lastStatusCode} ` : '', ev.lastError ?? ''),
      h('td', null, formatDateTime(ev.createdAt)),
      h('td', null, formatDateTime(ev.deliveredAt)),
      h('td', { class: 'row-actions' }, h('button', { type: 'button', class: 'link small', 'data-action': 'redeliver', onclick: () => void redeliver(ev) }, status === 'delivered' ? 'Send again' : 'Redeliver now')));
  });

  replace(host,
    h('h1', null, 'Deliveries'),
    h('section', { class: 'card' },
      h('h2', null, 'Where results go'),
      h('p', { class: 'muted' }, 'Every completed or disqualified attempt is sent to this address, signed with the secret (header x-cbt-signature). Without internet, events wait here and are retried.'),
      urlForm, urlError, h('div', { class: 'actions left' }, rotate), secretHost),
    h('div', { class: 'page-head' }, h('h2', null, 'Outbox'), h('label', { class: 'inline-form' }, 'Show ', filterSelect)),
    events.length
      ? h('table', { class: 'table', id: 'delivery-table' },
        h('thead', null, h('tr', null, ['Event', 'Type', 'Status', 'Tries', 'Next try', 'Last reply', 'Created', 'Delivered'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
        h('tbody', null, rows))
      : h('p', { class: 'empty' }, `No ${filter === 'all' ? '' : `${filter} `}events.`));
}

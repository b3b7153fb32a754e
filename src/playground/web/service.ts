/**
 * Playing the service's side: the simulator's controls (end a call, write as the end user, statuses, faults). The
 * panel is updated in place as the simulator moves (each second or so): rows that did not change stay, and what a
 * person is typing as the end user stays with its conversation.
 */
import type { PageService } from '../api.js';
import { send, type Answer } from './client.js';
import { fill, h, reconcile } from './dom.js';

type Done = (answer: Answer) => void;
type Call = PageService['calls'][number];
type Campaign = PageService['campaigns'][number];

export class ServicePanel {
  readonly element = h('section', { class: 'service', attrs: { 'aria-label': 'The service side' } });
  private readonly state = h('p', { class: 'service-state', attrs: { role: 'status' } });
  private readonly billing = h('input', { attrs: { type: 'checkbox' } });
  private readonly campaigns = h('ul', { class: 'service-campaigns' });
  private readonly calls = h('ul', { class: 'service-calls' });
  private readonly noCalls = h('p', {}, 'No call in the last few minutes.');
  private readonly rows = new Map<string, HTMLElement>();
  private readonly writers = new Map<string, HTMLElement>();

  constructor(
    private readonly as: () => string,
    private readonly done: Done,
  ) {
    this.billing.addEventListener('change', () => {
      void send('service/billing-limit', { as: this.as(), reached: this.billing.checked }).then(this.done);
    });
    const outage = () => void send('service/outage', { as: this.as(), seconds: 60 }).then(this.done);
    fill(
      this.element,
      h('h2', {}, 'The service (simulator)'),
      this.state,
      h(
        'div',
        { class: 'service-faults' },
        h('button', { class: 'btn', on: { click: outage } }, 'Take the service down for a minute'),
        h('label', { class: 'choice' }, this.billing, ' Billing limit reached'),
      ),
      h('h3', {}, 'Campaigns'),
      this.campaigns,
      h('h3', {}, 'Calls'),
      this.noCalls,
      this.calls,
    );
  }

  update(service: PageService): void {
    const down = service.down ? '⛔ The service is down' : '🟢 The service is up';
    this.state.textContent = `${down}${service.billingLimitReached ? ' · billing limit reached' : ''}`;
    this.billing.checked = service.billingLimitReached;
    reconcile(
      this.campaigns,
      service.campaigns.map((c) => this.row(`c:${c.id}:${c.status}:${c.name}`, () => this.campaignRow(c))),
    );
    reconcile(
      this.calls,
      service.calls.map((c) => this.row(`k:${c.callId}:${c.status}:${c.threadId}`, () => this.callRow(c))),
    );
    this.noCalls.hidden = service.calls.length > 0;
    const shown = new Set([
      ...service.campaigns.map((c) => `c:${c.id}:${c.status}:${c.name}`),
      ...service.calls.map((c) => `k:${c.callId}:${c.status}:${c.threadId}`),
    ]);
    for (const key of this.rows.keys()) if (!shown.has(key)) this.rows.delete(key);
  }

  private row(key: string, draw: () => HTMLElement): HTMLElement {
    const known = this.rows.get(key);
    if (known) return known;
    const drawn = draw();
    this.rows.set(key, drawn);
    return drawn;
  }

  private campaignRow(campaign: Campaign): HTMLElement {
    const statuses = ['active', 'paused', 'finished'] as const;
    const shownStatus = campaign.status === 'inactive' ? 'paused' : campaign.status;
    const select = h(
      'select',
      { attrs: { 'aria-label': `Status of ${campaign.name}` } },
      // The campaign's own status first when the panel cannot set it (pending, ready…): the select shows what is.
      (statuses as readonly string[]).includes(shownStatus)
        ? null
        : h('option', { attrs: { value: '', selected: true } }, shownStatus),
      statuses.map((status) => h('option', { attrs: { value: status, selected: status === shownStatus } }, status)),
    );
    const apply = () => {
      const status = statuses.find((candidate) => candidate === select.value);
      if (!status) return;
      void send('service/campaign-status', { as: this.as(), campaignId: campaign.id, status }).then(this.done);
    };
    return h(
      'li',
      { attrs: { 'data-campaign': campaign.id } },
      h('span', { class: 'campaign-name' }, `${campaign.name} (#${campaign.id})`),
      ' ',
      h('span', { class: 'campaign-status' }, campaign.status),
      ' ',
      select,
      h(
        'button',
        { class: 'btn', on: { click: apply }, attrs: { 'aria-label': `Set status of ${campaign.name}` } },
        'Set',
      ),
    );
  }

  private callRow(call: Call): HTMLElement {
    const end = () => {
      void send('service/end-call', { as: this.as(), campaignId: call.campaignId, callId: call.callId }).then(
        this.done,
      );
    };
    return h(
      'li',
      { attrs: { 'data-call': call.callId } },
      h(
        'span',
        {},
        `${call.endUser} · campaign #${call.campaignId} · `,
        h('span', { class: 'call-status' }, call.status),
      ),
      ' ',
      h('button', { class: 'btn', attrs: { 'aria-label': `End the call with ${call.endUser}` }, on: { click: end } }, [
        'End call',
      ]),
      call.threadId ? this.writer(call.threadId, call.endUser) : null,
    );
  }

  /** One form per conversation (several calls may share it): the same element wherever its call is drawn. */
  private writer(threadId: string, endUser: string): HTMLElement {
    const known = this.writers.get(threadId);
    if (known) return known;
    const text = h('input', {
      attrs: { type: 'text', 'aria-label': `Write as ${endUser}`, placeholder: 'Write as the end user' },
    });
    const write = () => {
      if (!text.value) return;
      void send('service/end-user-writes', { as: this.as(), threadId, text: text.value }).then((answer) => {
        if (answer.ok) text.value = '';
        this.done(answer);
      });
    };
    const form = h(
      'form',
      { class: 'write-as', on: { submit: (event) => (event.preventDefault(), write()) } },
      text,
      h('button', { class: 'btn', attrs: { type: 'submit', 'aria-label': `Send as ${endUser}` } }, 'Send'),
    );
    this.writers.set(threadId, form);
    return form;
  }
}

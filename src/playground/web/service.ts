/** Playing the service's side: the simulator's controls (end a call, write as the end user, statuses, faults). */
import type { PageService } from '../api.js';
import { send, type Answer } from './client.js';
import { h } from './dom.js';

type Report = (error: string | undefined) => void;
type Done = (answer: Answer) => void;

export function servicePanel(service: PageService, as: string, report: Report): HTMLElement {
  const done: Done = (answer) => report(answer.ok ? undefined : (answer.error ?? 'failed'));
  return h(
    'section',
    { class: 'service', attrs: { 'aria-label': 'The service side' } },
    h('h2', {}, 'The service (simulator)'),
    h(
      'p',
      { class: 'service-state' },
      service.down ? '⛔ The service is down' : '🟢 The service is up',
      service.billingLimitReached ? ' · billing limit reached' : '',
    ),
    h(
      'div',
      { class: 'service-faults' },
      h(
        'button',
        {
          class: 'btn',
          on: { click: () => void send('service/outage', { as, seconds: 60 }).then(done) },
        },
        'Take the service down for a minute',
      ),
      h('label', { class: 'choice' }, billing(service, as, done), ' Billing limit reached'),
    ),
    h('h3', {}, 'Campaigns'),
    h(
      'ul',
      { class: 'service-campaigns' },
      service.campaigns.map((campaign) => campaignRow(campaign, as, done)),
    ),
    h('h3', {}, 'Calls'),
    service.calls.length
      ? h(
          'ul',
          { class: 'service-calls' },
          service.calls.map((call) => callRow(call, as, done)),
        )
      : h('p', {}, 'No call in the last few minutes.'),
  );
}

function billing(service: PageService, as: string, done: Done) {
  const box = h('input', { attrs: { type: 'checkbox', checked: service.billingLimitReached } });
  box.addEventListener('change', () => void send('service/billing-limit', { as, reached: box.checked }).then(done));
  return box;
}

function campaignRow(campaign: PageService['campaigns'][number], as: string, done: Done): HTMLElement {
  const statuses = ['active', 'paused', 'finished'] as const;
  const select = h(
    'select',
    { attrs: { 'aria-label': `Status of ${campaign.name}` } },
    statuses.map((status) => h('option', { attrs: { value: status, selected: status === campaign.status } }, status)),
  );
  const apply = () => {
    const status = statuses.find((candidate) => candidate === select.value) ?? 'paused';
    void send('service/campaign-status', { as, campaignId: campaign.id, status }).then(done);
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

function callRow(call: PageService['calls'][number], as: string, done: Done): HTMLElement {
  const text = h('input', {
    attrs: { type: 'text', 'aria-label': `Write as ${call.endUser}`, placeholder: 'Write as the end user' },
  });
  const write = () => {
    if (!call.threadId || !text.value) return;
    void send('service/end-user-writes', { as, threadId: call.threadId, text: text.value }).then((answer) => {
      if (answer.ok) text.value = '';
      done(answer);
    });
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
    h(
      'button',
      {
        class: 'btn',
        attrs: { 'aria-label': `End the call with ${call.endUser}` },
        on: {
          click: () =>
            void send('service/end-call', { as, campaignId: call.campaignId, callId: call.callId }).then(done),
        },
      },
      'End call',
    ),
    call.threadId
      ? h(
          'form',
          { class: 'write-as', on: { submit: (event) => (event.preventDefault(), write()) } },
          text,
          h('button', { class: 'btn', attrs: { type: 'submit' } }, 'Send'),
        )
      : null,
  );
}

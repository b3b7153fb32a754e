/** What the emulator refused as Slack would: the method, the JSON path and the error, newest first. */
import type { PageRefusal } from '../api.js';
import { h } from './dom.js';

function refusalView(refusal: PageRefusal): HTMLElement {
  return h(
    'li',
    { class: 'refusal' },
    h('code', { class: 'refusal-method' }, refusal.method),
    ' ',
    h('strong', { class: 'refusal-error' }, refusal.error),
    refusal.path ? [' at ', h('code', { class: 'refusal-path' }, refusal.path)] : null,
    refusal.detail ? h('div', { class: 'refusal-detail' }, refusal.detail) : null,
    h('small', {}, new Date(refusal.at).toLocaleTimeString()),
  );
}

export function refusalsPanel(refusals: PageRefusal[]): HTMLElement {
  return h(
    'section',
    { class: 'refusals', attrs: { 'aria-label': 'Refused by Slack' } },
    h('h2', {}, 'Refused by Slack'),
    refusals.length
      ? h('ul', {}, [...refusals].reverse().map(refusalView))
      : h('p', {}, 'Nothing refused: every call of the app was one Slack would take.'),
  );
}

/** The sidebar: the person's channels (public, private, shared with another company) and their DM with the app. */
import type { PageChannel } from '../api.js';
import { h } from './dom.js';
import type { Model } from './model.js';

const MARK: Record<PageChannel['kind'], string> = { public: '#', private: '🔒', shared: '⇄', im: '●' };
const KIND: Record<PageChannel['kind'], string> = {
  public: 'public channel',
  private: 'private channel',
  shared: 'channel shared with another company',
  im: 'app',
};

export function sidebar(model: Model, current: string | undefined, open: (id: string) => void): HTMLElement {
  const { channels, team } = model.state;
  const item = (channel: PageChannel) =>
    h(
      'li',
      {},
      h(
        'button',
        {
          class: ['channel-link', channel.id === current && 'current'],
          attrs: {
            'aria-current': channel.id === current ? 'page' : undefined,
            'aria-label': `${channel.name}, ${KIND[channel.kind]}`,
            'data-channel': channel.id,
          },
          on: { click: () => open(channel.id) },
        },
        h('span', { class: 'mark', attrs: { 'aria-hidden': 'true' } }, MARK[channel.kind]),
        ' ',
        channel.name,
        channel.kind === 'shared' ? h('span', { class: 'badge' }, 'shared') : null,
      ),
    );
  const sorted = [...channels].sort((a, b) => a.name.localeCompare(b.name));
  return h(
    'nav',
    { class: 'sidebar', attrs: { 'aria-label': 'Channels and apps' } },
    h('div', { class: 'team' }, team.name),
    h('h2', {}, 'Channels'),
    h('ul', {}, sorted.filter((channel) => channel.kind !== 'im').map(item)),
    h('h2', {}, 'Apps'),
    h('ul', {}, sorted.filter((channel) => channel.kind === 'im').map(item)),
  );
}

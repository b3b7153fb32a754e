/** The playground's page: a person's workspace, drawn from their state and kept live by the server's events. */
import type { ActionSource, PageEvent, PageMessage, PageState, PageView, ViewValues } from '../api.js';
import { blocks } from './blocks.js';
import { loadState, send, subscribe, type Answer } from './client.js';
import { fill, h, reconcile } from './dom.js';
import { composer, ephemeralView, messageView, type Workspace } from './messages.js';
import { ModalLayer, ViewForms } from './modal.js';
import { compareTs, Model, type Change } from './model.js';
import { refusalsPanel } from './refusals.js';
import { ServicePanel } from './service.js';
import { sidebar } from './sidebar.js';
import { list, type BlockContext, type Form } from './text.js';

/**
 * Messages drawn at once in a channel: the newest, as Slack pages a channel's history; scrolling to the top draws
 * this many more. A long channel opens without drawing all of it (bench/playground.bench.ts: its longest task).
 */
const ROWS_AT_ONCE = 100;

const ROLE: Record<string, string> = {
  admin: 'admin',
  responder: 'responder',
  member: 'member',
  readonly: 'read-only member',
  guest: 'guest',
  external: 'other company',
};

class Page implements Workspace {
  model!: Model;
  forms!: ViewForms;
  private channel: string | undefined;
  private tab: 'home' | 'messages' = 'messages';
  private thread: { channel: string; ts: string } | undefined;
  private unsubscribe: (() => void) | undefined;
  private modals!: ModalLayer;
  private readonly cache = new Map<string, { key: unknown; el: HTMLElement }>();
  /** How many of a channel's newest rows are drawn, and how many older ones are not (yet). */
  private readonly shownRows = new Map<string, number>();
  private olderRows = 0;

  private readonly topbar = h('header', { class: 'topbar' });
  private readonly nav = h('div', { class: 'nav-slot' });
  private readonly main = h('main', { class: 'pane', attrs: { 'aria-label': 'Conversation' } });
  private readonly threadPane = h('aside', { class: 'thread', attrs: { 'aria-label': 'Thread', hidden: true } });
  private readonly side = h('aside', { class: 'side', attrs: { hidden: true } });
  private readonly toasts = h('div', { class: 'toasts', attrs: { role: 'status', 'aria-live': 'polite' } });
  private sidePanel: 'service' | 'refusals' | undefined;
  private readonly service = new ServicePanel(
    () => this.model.state.me,
    (answer) => (answer.ok ? undefined : this.toast(`The simulator answered: ${answer.error ?? 'failed'}`, 'error')),
  );

  async start(): Promise<void> {
    document.body.append(this.topbar, h('div', { class: 'layout' }, this.nav, this.main, this.threadPane, this.side));
    document.body.append(this.toasts);
    const as = new URLSearchParams(location.search).get('as') ?? undefined;
    await this.become(as);
  }

  /** Loads the page as a person: their channels, messages, ephemerals, modals and Home tab. */
  private async become(as: string | undefined): Promise<void> {
    this.unsubscribe?.();
    const state = await loadState(as);
    this.adopt(state);
    const url = new URL(location.href);
    url.searchParams.set('as', state.me);
    history.replaceState(null, '', url);
    this.unsubscribe = subscribe(
      state.me,
      (event) => this.apply(event),
      () => void loadState(state.me).then((fresh) => this.adopt(fresh)),
    );
  }

  private adopt(state: PageState): void {
    this.model = new Model(state);
    this.forms = new ViewForms(this.model);
    // The modal layer lives as long as the page; it reads whoever the page is now.
    const page = this as Page;
    this.modals ??= new ModalLayer({
      get model() {
        return page.model;
      },
      get forms() {
        return page.forms;
      },
      context: (source, form, values) => this.context(source, form, values),
      closed: (viewId) => this.apply({ type: 'modal_closed', id: viewId }),
    });
    this.cache.clear();
    const channels = state.channels;
    if (!channels.some((channel) => channel.id === this.channel)) {
      this.channel = (channels.find((channel) => channel.kind !== 'im') ?? channels[0])?.id;
    }
    if (this.thread && !channels.some((channel) => channel.id === this.thread?.channel)) this.thread = undefined;
    this.renderAll();
  }

  private apply(event: PageEvent): void {
    const change = this.model.apply(event);
    this.rerender(change);
    if (event.type === 'refusal') {
      const { method, error, path } = event.refusal;
      this.toast(`Slack refused ${method}: ${error}${path ? ` at ${path}` : ''}`, 'refusal');
    }
  }

  private rerender(change: Change): void {
    if (change === 'messages' || change === 'ephemerals') this.renderConversation();
    else if (change === 'channels') this.renderAll();
    else if (change === 'home' && this.tab === 'home') this.renderConversation();
    else if (change === 'modals') this.modals.render();
    else if (change === 'refusals') this.renderTopbar();
    if ((change === 'service' && this.sidePanel === 'service') || (change === 'refusals' && this.sidePanel)) {
      this.renderSide();
    }
  }

  private renderAll(): void {
    this.renderTopbar();
    fill(
      this.nav,
      sidebar(this.model, this.channel, (id) => this.openChannel(id)),
    );
    this.renderConversation();
    this.renderSide();
    this.modals.render();
  }

  private renderTopbar(): void {
    const { users, me, refusals, team } = this.model.state;
    const switcher = h(
      'select',
      { attrs: { 'aria-label': 'Be anyone', id: 'be-anyone' } },
      users
        .filter((user) => !user.isBot)
        .map((user) =>
          h(
            'option',
            { attrs: { value: user.id, selected: user.id === me } },
            `${user.name} — ${ROLE[user.role] ?? user.role} · ${user.locale}`,
          ),
        ),
    );
    switcher.addEventListener('change', () => void this.become(switcher.value));
    const toggle = (panel: 'service' | 'refusals', label: string) =>
      h(
        'button',
        {
          class: ['btn', this.sidePanel === panel && 'pressed'],
          attrs: { 'aria-pressed': String(this.sidePanel === panel) },
          on: { click: () => this.toggleSide(panel) },
        },
        label,
      );
    fill(
      this.topbar,
      h('span', { class: 'brand' }, team.name, h('span', { class: 'badge' }, 'local Slack playground')),
      h('label', { class: 'be-anyone', attrs: { for: 'be-anyone' } }, 'Be '),
      switcher,
      toggle('service', 'Service side'),
      toggle('refusals', `Refused by Slack (${refusals.length})`),
    );
  }

  private toggleSide(panel: 'service' | 'refusals'): void {
    this.sidePanel = this.sidePanel === panel ? undefined : panel;
    this.renderTopbar();
    this.renderSide();
  }

  private renderSide(): void {
    this.side.hidden = !this.sidePanel;
    if (this.sidePanel === 'service') {
      this.service.update(this.model.state.service);
      if (this.side.firstElementChild !== this.service.element) fill(this.side, this.service.element);
    } else if (this.sidePanel === 'refusals') fill(this.side, refusalsPanel(this.model.state.refusals));
    else fill(this.side);
  }

  private openChannel(id: string): void {
    this.channel = id;
    this.thread = undefined;
    const channel = this.model.state.channels.find((candidate) => candidate.id === id);
    if (channel?.kind === 'im') this.openTab(this.tab);
    fill(
      this.nav,
      sidebar(this.model, this.channel, (next) => this.openChannel(next)),
    );
    this.renderConversation(true);
  }

  private openTab(tab: 'home' | 'messages'): void {
    this.tab = tab;
    void send('app-home', { as: this.model.state.me, tab }).then((answer) => this.failed(answer));
    this.renderConversation(true);
  }

  openThread(channel: string, ts: string): void {
    this.thread = { channel, ts };
    this.renderThread(true);
  }

  /** The main pane: a channel's messages, or the app's Home or Messages tab. */
  private renderConversation(fresh = false): void {
    const channel = this.model.state.channels.find((candidate) => candidate.id === this.channel);
    if (!channel) {
      fill(this.main, h('p', { class: 'empty' }, 'No channel to show.'));
      return;
    }
    const isApp = channel.kind === 'im';
    if (fresh || !this.main.querySelector(`[data-pane="${channel.id}:${isApp ? this.tab : 'messages'}"]`)) {
      const tabs = isApp ? this.appTabs() : null;
      const head = h(
        'header',
        { class: 'pane-head' },
        h('h1', {}, isApp ? channel.name : `${channel.kind === 'private' ? '🔒' : '#'} ${channel.name}`),
        channel.kind === 'shared' ? h('span', { class: 'badge' }, 'Shared with another company') : null,
        !isApp && !channel.botIsMember
          ? h('span', { class: 'badge' }, `${this.model.state.app.name} is not in this channel`)
          : null,
        tabs,
      );
      const content =
        isApp && this.tab === 'home'
          ? h('section', { class: 'home', attrs: { 'aria-label': 'Home' } })
          : h('div', {
              class: 'messages',
              attrs: { role: 'log', 'aria-label': `Messages in ${channel.name}` },
              on: { scroll: () => this.olderOnTop(channel.id) },
            });
      const writer =
        isApp && this.tab === 'home' ? null : composer(this, channel.id, `Message ${isApp ? '' : '#'}${channel.name}`);
      fill(
        this.main,
        h(
          'div',
          { class: 'pane-inner', attrs: { 'data-pane': `${channel.id}:${isApp ? this.tab : 'messages'}` } },
          head,
          content,
          writer,
        ),
      );
    }
    if (isApp && this.tab === 'home') this.renderHome();
    else this.renderMessages(channel.id);
    this.renderThread();
  }

  private appTabs(): HTMLElement {
    const tab = (name: 'home' | 'messages', label: string) =>
      h(
        'button',
        {
          class: ['tab', this.tab === name && 'current'],
          attrs: { role: 'tab', 'aria-selected': String(this.tab === name) },
          on: { click: () => this.openTab(name) },
        },
        label,
      );
    return h('div', { class: 'tabs', attrs: { role: 'tablist' } }, tab('home', 'Home'), tab('messages', 'Messages'));
  }

  private renderHome(): void {
    const section = this.main.querySelector('section.home');
    if (!section) return;
    const home = this.model.state.home;
    if (!home) {
      fill(section, h('p', { class: 'empty' }, 'The app has not published a Home tab for you yet.'));
      return;
    }
    fill(section, this.viewBlocks(home));
  }

  private viewBlocks(view: PageView): HTMLElement {
    const { form, values } = this.forms.form(view.id, () => view.errors ?? {});
    return blocks(list(view.view.blocks), this.context({ kind: 'view', viewId: view.id }, form, values));
  }

  /** Scrolled to the top of what is drawn: the next older rows are drawn above, the view staying where it was. */
  private olderOnTop(channelId: string): void {
    const container = this.main.querySelector('.messages');
    if (!container || container.scrollTop > 80 || this.olderRows === 0) return;
    this.shownRows.set(channelId, (this.shownRows.get(channelId) ?? ROWS_AT_ONCE) + ROWS_AT_ONCE);
    const before = container.scrollHeight;
    this.renderMessages(channelId);
    container.scrollTop += container.scrollHeight - before;
  }

  private renderMessages(channelId: string): void {
    const container = this.main.querySelector('.messages');
    if (!container) return;
    const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
    const messages = (this.model.state.messages[channelId] ?? []).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    const ephemerals = this.model.state.ephemerals.filter((e) => e.channel === channelId && !e.thread_ts);
    // Sorted first, drawn after: only the rows shown are made into elements.
    const rows = [
      ...messages.map((m) => ({ ts: m.ts, draw: () => this.messageElement(m, false) })),
      ...ephemerals.map((e) => ({ ts: e.ts, draw: () => this.cached(`e:${e.id}`, e, () => ephemeralView(this, e)) })),
    ].sort((a, b) => compareTs(a.ts, b.ts));
    const shown = rows.slice(-(this.shownRows.get(channelId) ?? ROWS_AT_ONCE));
    this.olderRows = rows.length - shown.length;
    reconcile(
      container,
      shown.map((row) => row.draw()),
    );
    if (atBottom) container.scrollTop = container.scrollHeight;
  }

  private messageElement(message: PageMessage, inThread: boolean): HTMLElement {
    const replies = inThread
      ? 0
      : Math.max(message.reply_count ?? 0, this.model.replies(message.channel, message.ts).length);
    const key = `${inThread ? 't' : 'm'}:${message.channel}:${message.ts}`;
    return this.cached(
      key,
      { message, replies },
      () => messageView(this, message, replies, inThread),
      (a, b) => {
        const x = a as { message: PageMessage; replies: number };
        const y = b as { message: PageMessage; replies: number };
        return x.message === y.message && x.replies === y.replies;
      },
    );
  }

  /** An element drawn again only when what it shows changed, so the others keep their place and focus. */
  private cached(key: string, value: unknown, draw: () => HTMLElement, same = (a: unknown, b: unknown) => a === b) {
    const known = this.cache.get(key);
    if (known && same(known.key, value)) return known.el;
    const el = draw();
    this.cache.set(key, { key: value, el });
    return el;
  }

  private renderThread(fresh = false): void {
    const thread = this.thread;
    this.threadPane.hidden = !thread;
    if (!thread) return fill(this.threadPane);
    const parent = (this.model.state.messages[thread.channel] ?? []).find((m) => m.ts === thread.ts);
    if (fresh || !this.threadPane.querySelector(`[data-thread="${thread.channel}:${thread.ts}"]`)) {
      fill(
        this.threadPane,
        h(
          'div',
          { class: 'thread-inner', attrs: { 'data-thread': `${thread.channel}:${thread.ts}` } },
          h(
            'header',
            { class: 'pane-head' },
            h('h2', {}, 'Thread'),
            h(
              'button',
              { class: 'btn', attrs: { 'aria-label': 'Close thread' }, on: { click: () => this.closeThread() } },
              '×',
            ),
          ),
          h('div', { class: 'thread-messages', attrs: { role: 'log', 'aria-label': 'Thread messages' } }),
          composer(this, thread.channel, 'Reply…', thread.ts),
        ),
      );
    }
    const container = this.threadPane.querySelector('.thread-messages');
    if (!container) return;
    const replies = this.model
      .replies(thread.channel, thread.ts)
      .map((m) => ({ ts: m.ts, el: this.messageElement(m, true) }));
    const ephemerals = this.model.state.ephemerals
      .filter((e) => e.channel === thread.channel && e.thread_ts === thread.ts)
      .map((e) => ({ ts: e.ts, el: this.cached(`e:${e.id}`, e, () => ephemeralView(this, e)) }));
    const rows = [...replies, ...ephemerals].sort((a, b) => compareTs(a.ts, b.ts)).map((row) => row.el);
    reconcile(container, parent ? [this.messageElement(parent, true), ...rows] : rows);
  }

  private closeThread(): void {
    this.thread = undefined;
    this.renderThread();
  }

  context(source: ActionSource, form?: Form, values?: () => ViewValues): BlockContext {
    const model = this.model;
    return {
      names: { user: (id) => model.userName(id), channel: (id) => model.channelName(id) },
      users: model.state.users,
      channels: model.state.channels,
      act: async (action) => {
        const answer = await send('action', { as: model.state.me, source, action, values: values?.() });
        this.failed(answer);
      },
      form,
    };
  }

  private failed(answer: Answer): void {
    if (!answer.ok) this.toast(`Not done: ${answer.error ?? 'unknown error'}`, 'error');
  }

  private toast(text: string, kind: 'error' | 'refusal'): void {
    const note = h(
      'div',
      { class: ['toast', `toast-${kind}`] },
      text,
      ' ',
      h(
        'button',
        {
          class: 'btn',
          attrs: { 'aria-label': 'Dismiss' },
          on: { click: () => note.remove() },
        },
        '×',
      ),
    );
    this.toasts.appendChild(note);
    while (this.toasts.children.length > 5) this.toasts.firstElementChild?.remove();
  }
}

void new Page().start().catch((error: unknown) => {
  document.body.append(
    h('p', { class: 'fatal', attrs: { role: 'alert' } }, `The playground could not load: ${String(error)}`),
  );
});

/** A person's view of the workspace, as loaded and then changed by the live events. */
import type { PageEphemeral, PageEvent, PageMessage, PageState, PageUser, PageView } from '../api.js';

export type Change = 'messages' | 'ephemerals' | 'channels' | 'home' | 'modals' | 'refusals' | 'service';

export class Model {
  constructor(public state: PageState) {}

  apply(event: PageEvent): Change {
    const state = this.state;
    switch (event.type) {
      case 'message':
        this.upsertMessage(event.message);
        return 'messages';
      case 'message_deleted': {
        const list = state.messages[event.channel] ?? [];
        state.messages[event.channel] = list.filter((message) => message.ts !== event.ts);
        return 'messages';
      }
      case 'ephemeral':
        this.upsertEphemeral(event.ephemeral);
        return 'ephemerals';
      case 'channel': {
        const others = state.channels.filter((channel) => channel.id !== event.channel.id);
        const stillIn = event.channel.members.includes(state.me);
        state.channels = stillIn ? [...others, event.channel] : others;
        return 'channels';
      }
      case 'home':
        state.home = event.view;
        return 'home';
      case 'modal':
        this.upsertModal(event.view);
        return 'modals';
      case 'modal_closed':
        state.modals = state.modals.filter((view) => view.id !== event.id);
        return 'modals';
      case 'refusal':
        state.refusals = [...state.refusals, event.refusal];
        return 'refusals';
      case 'service':
        state.service = event.service;
        return 'service';
    }
  }

  private upsertMessage(message: PageMessage): void {
    const list = this.state.messages[message.channel] ?? [];
    const at = list.findIndex((known) => known.ts === message.ts);
    if (at >= 0) list[at] = message;
    else {
      list.push(message);
      list.sort((a, b) => compareTs(a.ts, b.ts));
    }
    this.state.messages[message.channel] = list;
  }

  private upsertEphemeral(ephemeral: PageEphemeral): void {
    const others = this.state.ephemerals.filter((known) => known.id !== ephemeral.id);
    this.state.ephemerals = [...others, ephemeral].sort((a, b) => compareTs(a.ts, b.ts));
  }

  private upsertModal(view: PageView): void {
    const at = this.state.modals.findIndex((known) => known.id === view.id);
    if (at >= 0) this.state.modals[at] = view;
    else this.state.modals.push(view);
  }

  user(id: string): PageUser | undefined {
    return this.state.users.find((user) => user.id === id);
  }

  userName(id: string): string {
    if (id === this.state.app.botUserId) return this.state.app.name;
    return this.user(id)?.name ?? id;
  }

  channelName(id: string): string {
    return this.state.channels.find((channel) => channel.id === id)?.name ?? id;
  }

  /** A thread's replies, oldest first. */
  replies(channel: string, threadTs: string): PageMessage[] {
    return (this.state.messages[channel] ?? []).filter((m) => m.thread_ts === threadTs && m.ts !== threadTs);
  }
}

/** Slack timestamps compared as numbers ("1700000000.000100"). */
export function compareTs(a: string, b: string): number {
  const [as, af = ''] = a.split('.');
  const [bs, bf = ''] = b.split('.');
  return Number(as) - Number(bs) || Number(af.padEnd(6, '0')) - Number(bf.padEnd(6, '0'));
}

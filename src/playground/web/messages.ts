/** A channel's messages, ephemerals and threads, and the composer that writes in them. */
import type { ActionSource, Json, PageEphemeral, PageFile, PageMessage } from '../api.js';
import { blocks } from './blocks.js';
import { send } from './client.js';
import { h, link, type Child } from './dom.js';
import { emoji } from './emoji.js';
import type { Model } from './model.js';
import { mrkdwn } from './mrkdwn.js';
import { list, str, textObject, type BlockContext } from './text.js';

/** What the message views need of the page. */
export interface Workspace {
  model: Model;
  context(source: ActionSource): BlockContext;
  openThread(channel: string, ts: string): void;
}

function time(ts: string): HTMLTimeElement {
  const date = new Date(Number(ts.split('.')[0]) * 1000);
  const shown = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return h('time', { attrs: { datetime: date.toISOString(), title: date.toLocaleString() } }, shown);
}

function author(space: Workspace, user: string, botId?: string): Child[] {
  const isApp = user === space.model.state.app.botUserId || botId !== undefined;
  const name = isApp ? space.model.state.app.name : space.model.userName(user);
  return [h('strong', { class: 'author' }, name), isApp ? h('span', { class: 'badge' }, 'APP') : null];
}

/** A message's body: its blocks when it has some (Slack shows `text` only as the notification then). */
function body(space: Workspace, text: string, items: Json[] | undefined, source: ActionSource): Child[] {
  const names = space.context(source).names;
  if (items && items.length) return [blocks(items, space.context(source))];
  return [h('div', { class: 'msg-text' }, mrkdwn(text, names))];
}

function attachments(space: Workspace, items: Json[] | undefined, source: ActionSource): Child {
  if (!items?.length) return null;
  const ctx = space.context(source);
  return items.map((attachment) => {
    const color = str(attachment.color);
    const tone = ['good', 'warning', 'danger'].includes(color) ? color : color ? 'custom' : 'none';
    return h(
      'div',
      { class: ['attachment', `attachment-${tone}`] },
      attachment.pretext ? h('div', {}, mrkdwn(str(attachment.pretext), ctx.names)) : null,
      attachment.title ? h('strong', {}, str(attachment.title)) : null,
      list(attachment.blocks).length ? blocks(list(attachment.blocks), ctx) : null,
      attachment.text ? h('div', {}, mrkdwn(str(attachment.text), ctx.names)) : null,
      list(attachment.fields).map((field) =>
        h('div', { class: 'attachment-field' }, h('b', {}, str(field.title)), ' ', mrkdwn(str(field.value), ctx.names)),
      ),
      attachment.footer ? h('small', {}, textObject({ type: 'mrkdwn', text: attachment.footer }, ctx.names)) : null,
    );
  });
}

function files(items: PageFile[] | undefined): Child {
  if (!items?.length) return null;
  return h(
    'div',
    { class: 'files' },
    items.map((file) =>
      file.mimetype.startsWith('image/')
        ? h(
            'figure',
            { class: 'file-image' },
            h('img', { src: file.url, attrs: { alt: file.title ?? file.name } }),
            h('figcaption', {}, file.title ?? file.name),
          )
        : h('div', { class: 'file' }, '📄 ', link(file.url, file.name)),
    ),
  );
}

function reactions(message: PageMessage): Child {
  if (!message.reactions?.length) return null;
  return h(
    'div',
    { class: 'reactions' },
    message.reactions.map((reaction) =>
      h(
        'span',
        { class: 'reaction', attrs: { title: `:${reaction.name}:`, 'data-reaction': reaction.name } },
        emoji(reaction.name) ?? `:${reaction.name}:`,
        ' ',
        String(reaction.count),
      ),
    ),
  );
}

export function messageView(space: Workspace, message: PageMessage, replies: number, inThread: boolean): HTMLElement {
  const source: ActionSource = { kind: 'message', channel: message.channel, ts: message.ts };
  const isParent = replies > 0 && !inThread;
  return h(
    'article',
    {
      class: 'msg',
      attrs: { 'data-ts': message.ts, 'aria-label': `Message from ${space.model.userName(message.user)}` },
    },
    h('div', { class: 'msg-head' }, author(space, message.user, message.botId), time(message.ts), [
      message.edited ? h('span', { class: 'edited' }, '(edited)') : null,
    ]),
    body(space, message.text, message.blocks, source),
    attachments(space, message.attachments, source),
    files(message.files),
    reactions(message),
    isParent
      ? h(
          'button',
          { class: 'replies', on: { click: () => space.openThread(message.channel, message.ts) } },
          replies === 1 ? '1 reply' : `${replies} replies`,
        )
      : null,
    !isParent && !inThread && message.thread_ts === undefined
      ? h(
          'button',
          {
            class: 'reply-in-thread',
            attrs: { 'aria-label': 'Reply in thread' },
            on: { click: () => space.openThread(message.channel, message.ts) },
          },
          'Reply',
        )
      : null,
  );
}

export function ephemeralView(space: Workspace, ephemeral: PageEphemeral): HTMLElement {
  const source: ActionSource = { kind: 'ephemeral', id: ephemeral.id };
  return h(
    'article',
    { class: 'msg ephemeral', attrs: { 'data-ephemeral': ephemeral.id } },
    h('div', { class: 'msg-head' }, author(space, space.model.state.app.botUserId), time(ephemeral.ts)),
    body(space, ephemeral.text, ephemeral.blocks, source),
    h('div', { class: 'only-you' }, '👁 Only visible to you'),
  );
}

/** The composer: Enter sends, Shift+Enter starts a new line; typing `/` shows the command's usage hint. */
export function composer(space: Workspace, channel: string, placeholder: string, threadTs?: string): HTMLElement {
  const command = space.model.state.command;
  const field = h('textarea', { attrs: { rows: 1, placeholder, 'aria-label': placeholder } });
  const hint = h(
    'div',
    { class: 'command-hint', attrs: { hidden: true, role: 'note' } },
    h('strong', {}, command.name),
    ' ',
    h('span', { class: 'usage' }, command.usageHint),
    h('div', { class: 'command-description' }, command.description),
  );
  const error = h('div', { class: 'composer-error', attrs: { role: 'alert' } });
  const submit = async () => {
    const text = field.value.trim();
    if (!text) return;
    error.textContent = '';
    const answer = await send('message', { as: space.model.state.me, channel, text, thread_ts: threadTs });
    if (answer.ok) {
      field.value = '';
      hint.hidden = true;
    } else error.textContent = `Not sent: ${answer.error ?? 'unknown error'}`;
  };
  field.addEventListener('input', () => {
    hint.hidden = !(field.value.startsWith('/') && command.name.startsWith(field.value.split(/\s/)[0] ?? ''));
  });
  field.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void submit();
    }
  });
  return h(
    'form',
    { class: 'composer', on: { submit: (event) => (event.preventDefault(), void submit()) } },
    hint,
    h(
      'div',
      { class: 'composer-row' },
      field,
      h('button', { class: 'btn btn-primary', attrs: { type: 'submit' } }, 'Send'),
    ),
    error,
  );
}

/**
 * The Home tab: published when a person opens it, and again after every change that person makes anywhere in the
 * app (every change passes through the audit trail, which tells the Home service: src/main.ts wires it). Its own
 * elements: the filter selects, the page buttons, Refresh, and each campaign's menu (edit, upload contacts, watch in
 * a channel, show calls) with the watch modal it opens. The lifecycle, Show and New campaign buttons in the tab reuse
 * the app's own action ids and listeners. Menu choices that change something are checked on the server like every
 * other path (src/slack/routes.ts wraps them in `change()`), and answer in the person's DM (a Home tab has no
 * response_url).
 */
import type { Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Translator } from '../../i18n/translator.js';
import { errorMessage } from '../../render/feedback.js';
import { HOME_FILTER_PATTERN } from '../../render/ids.js';
import { raw } from '../../render/mrkdwn.js';
import { tmd } from '../../render/text.js';
import {
  decodeFilterChoice,
  HomeWatchMetadata,
  HOME_WATCH_ACTION,
  HOME_WATCH_BLOCK,
  homeNoticeModal,
  homeWatchModal,
  type HomeMenuChoice,
} from '../../render/home.js';
import { loadCallsPage } from '../campaigns/pages.js';
import { openEditForm, type OpenDeps } from '../campaign-form/open.js';
import type { AppDeps } from '../deps.js';
import type { ChangeHandler } from '../middleware/change.js';
import {
  buttonValue,
  submission,
  type ActionListener,
  type ButtonContext,
  type ViewAck,
  type Saved,
  type ViewListener,
} from '../middleware/listener.js';
import { openUploadModal } from '../upload/modal.js';
import type { HomeService } from './service.js';

type HomeDeps = AppDeps & { home: HomeService };

export function opened(deps: HomeDeps): Middleware<SlackEventMiddlewareArgs<'app_home_opened'>> {
  const { home } = deps;
  return async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await home.remember(event.user);
    await home.refresh(event.user, client, { firstOpen: !event.view });
  };
}

/** A filter select (status, channel, agent): back to the first page. */
export function filter({ home }: HomeDeps): ActionListener {
  return async ({ ack, body, client }) => {
    await ack();
    const a = body.actions[0];
    const which = HOME_FILTER_PATTERN.exec(a?.action_id ?? '')?.[1] ?? '';
    const choice = decodeFilterChoice(which, buttonValue(body));
    const userId = body.user.id;
    if (choice) await home.setFilter(userId, choice.key, choice.value);
    await home.refresh(userId, client);
  };
}

/** Previous / next page. */
export function page({ home }: HomeDeps): ActionListener {
  return async ({ ack, body, client }) => {
    await ack();
    const raw = buttonValue(body);
    const userId = body.user.id;
    if (raw && /^\d{1,6}$/.test(raw)) await home.setPage(userId, Number(raw));
    await home.refresh(userId, client);
  };
}

/** Refresh: everything read again. */
export function refresh({ home }: HomeDeps): ActionListener {
  return async ({ ack, body, client }) => {
    await ack();
    home.forget();
    await home.refresh(body.user.id, client);
  };
}

/** What a stale menu says, in the clicker's words. */
export const staleMenu = (t: Translator) => errorMessage({ sentence: t.t('home.staleMenu') }, t);

/** A campaign's menu: one handler per choice (src/slack/routes.ts says which change something). */
export function menu<D extends AppDeps>(
  handlers: Record<HomeMenuChoice, (ctx: MenuContext<D>) => Promise<void>>,
): (ctx: MenuContext<D>) => Promise<void> {
  return (ctx) => handlers[ctx.value.choice](ctx);
}

type MenuContext<D extends AppDeps = AppDeps> = ButtonContext<{ choice: HomeMenuChoice; campaignId: number }, D>;

/** "Show calls" from the menu. */
export async function callsFromMenu({ value, deps, reply, t, person }: MenuContext): Promise<void> {
  await reply.ephemeral(await loadCallsPage(deps, t, { campaignId: value.campaignId, page: 0 }, person.timeZone));
}

/** "Edit" from the menu: the result goes to the person's DM (the Home tab has no channel). */
export const editFromMenu: ChangeHandler<MenuContext<OpenDeps>> = ({ value, body, deps, client, userId, t }) =>
  openEditForm(deps, client, { triggerId: body.trigger_id, userId, campaignId: value.campaignId, t });

/** "Upload contacts" from the menu: progress goes to the person's DM (the Home tab has no channel). */
export const uploadFromMenu: ChangeHandler<MenuContext> = ({ value, body, deps, client, reply, userId, t }) =>
  openUploadModal(deps, t, client, { triggerId: body.trigger_id, userId, campaignId: value.campaignId, reply });

/** "Watch in a channel" from the menu: the Home tab has no channel of its own, so the person picks one. */
export async function openWatchModal({ value, body, client, t }: MenuContext): Promise<void> {
  await client.views.open({ trigger_id: body.trigger_id, view: homeWatchModal({ id: value.campaignId }, t) });
}

/** The watch modal's checked submission: who, which campaign, which channel, answered in the person's DM. */
export type HomeWatch = Saved<{ campaignId: number; channelId: string }>;

/**
 * The watch modal's submission: a stale form, a read-only person (the refusal audited) and a missing channel are
 * answered inside the ack; then `watch` after it.
 */
export function watchSubmitted(deps: AppDeps, watch: (req: HomeWatch) => Promise<void>): ViewListener {
  const notice = (text: string, t: Translator, response_action: 'update' | 'push' = 'update'): ViewAck => ({
    response_action,
    view: homeNoticeModal(t.t('home.watch.title'), text, t),
  });
  return submission<ViewAck, number, { campaignId: number; channelId: string }>(deps, {
    what: 'home watch submission',
    metadata: { schema: HomeWatchMetadata, stale: (t) => notice(t.t('home.watch.stale'), t) },
    refuse: {
      what: () => 'watch',
      campaign: (campaignId) => campaignId,
      answer: (text, t) => notice(tmd(t, 'home.watch.refused', { text: raw(text) }), t),
    },
    read: ({ view, meta, t }) => {
      const channelId = view.state.values[HOME_WATCH_BLOCK]?.[HOME_WATCH_ACTION]?.selected_conversation;
      if (channelId) return { input: { campaignId: meta, channelId } };
      return { ack: { response_action: 'errors', errors: { [HOME_WATCH_BLOCK]: t.t('home.watch.noChannel') } } };
    },
    save: watch,
    crashed: (t) => notice(t.t('submission.crashed'), t, 'push'),
  });
}

/**
 * What a person does on the page, turned into what Slack sends the app (through the emulator's driver: a slash
 * command, a message event, block_actions, view_submission / view_closed, block_suggestion, app_home_opened) or
 * into the simulator's controls (the service's panel). Each answers once the app acknowledged it.
 */
import type { FakeSlack } from '../emulator/fake-slack.js';
import type { Json } from '../emulator/harness.js';
import type { SlackDriver } from '../emulator/slack-driver.js';
import type { PageEvent, PageRefusal, PageRequests, ViewValues } from './api.js';
import { PanelError, type ServicePanel } from './service-panel.js';
import { channelAudience, pageView } from './shapes.js';
import { CHANNELS } from './workspace.js';

/** A request the page got wrong (or the app refused): its status and a sentence saying what to change. */
export class PageRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ActionDeps {
  emulator: FakeSlack;
  driver: SlackDriver;
  panel: ServicePanel;
  errors: Map<string, Record<string, string>>;
  /** Sends an event to some people (the modal's errors to its owner). */
  publish(event: PageEvent, to: string[]): void;
  refused(refusal: PageRefusal): void;
}

type Answer = Json & { ok: boolean };
type Handlers = { [K in keyof PageRequests]: (deps: ActionDeps, body: PageRequests[K]) => Promise<Answer> };

const OK: Answer = { ok: true };

export const HANDLERS: Handlers = {
  async message(d, body) {
    memberOf(d, body.as, body.channel);
    if (body.text.startsWith('/')) return slashCommand(d, body);
    if (body.thread_ts && !d.emulator.message(body.channel, body.thread_ts)) {
      throw new PageRequestError(400, `thread_ts: no message ${body.thread_ts} in channel ${body.channel}`);
    }
    await viaDriver(() =>
      d.driver.userMessage({
        text: asTyped(body.text),
        channelId: body.channel,
        userId: body.as,
        ...(body.thread_ts ? { threadTs: body.thread_ts } : {}),
      }),
    );
    return OK;
  },

  async action(d, { as, source, action, values }) {
    const where =
      source.kind === 'message'
        ? (memberOf(d, as, source.channel), { messageTs: source.ts, channelId: source.channel })
        : source.kind === 'ephemeral'
          ? { ephemeralTs: source.id }
          : (ownView(d, as, source.viewId), { view: source.viewId });
    const { action_id, block_id, type, value, ...selected } = action;
    await viaDriver(() =>
      d.driver.blockAction({
        ...where,
        userId: as,
        actionId: action_id,
        blockId: block_id,
        type,
        ...(value !== undefined ? { value } : {}),
        ...(values ? { stateValues: stateValues(d, values) } : {}),
        actionExtra: selected,
      }),
    );
    return OK;
  },

  async 'view/submit'(d, { as, viewId, values }) {
    ownView(d, as, viewId);
    const r = await viaDriver(() => d.driver.viewSubmission({ viewId, userId: as, values: stateValues(d, values) }));
    const result = r.viewResult;
    if (!result) throw new PageRequestError(502, `The app answered the submission with HTTP ${r.status}.`);
    if (!result.ok) {
      d.refused({ at: new Date().toISOString(), method: 'view_submission ack', error: result.error ?? 'refused' });
      return { ok: false, error: `Slack refused the app's answer: ${result.error ?? 'refused'}` };
    }
    if (result.action !== 'errors') return OK;
    const errors = ((r.json as Json).errors ?? {}) as Record<string, string>;
    d.errors.set(viewId, errors);
    const view = d.emulator.view(viewId);
    if (view) d.publish({ type: 'modal', view: pageView(view, errors) }, [as]);
    return { ok: false, errors };
  },

  async 'view/close'(d, { as, viewId }) {
    const view = ownView(d, as, viewId);
    if (view.notify_on_close === true) await viaDriver(() => d.driver.viewClosed({ viewId, userId: as }));
    else d.emulator.closeView(viewId);
    return OK;
  },

  async suggestion(d, { as, viewId, action_id, block_id, value }) {
    ownView(d, as, viewId);
    const r = await viaDriver(() =>
      d.driver.suggestion({ viewId, actionId: action_id, blockId: block_id, value, userId: as }),
    );
    const answer = (r.json ?? {}) as Json;
    return {
      ok: true,
      options: Array.isArray(answer.options) ? answer.options : [],
      ...(Array.isArray(answer.option_groups) ? { option_groups: answer.option_groups } : {}),
    };
  },

  async 'app-home'(d, { as, tab }) {
    d.emulator.dm(as);
    await viaDriver(() => d.driver.appHomeOpened({ userId: as, tab }));
    return OK;
  },

  async 'service/end-call'(d, { campaignId, callId }) {
    return panel(() => d.panel.endCall(campaignId, callId));
  },
  async 'service/end-user-writes'(d, { threadId, text }) {
    return panel(() => d.panel.endUserWrites(threadId, text));
  },
  async 'service/campaign-status'(d, { campaignId, status }) {
    return panel(() => d.panel.setCampaignStatus(campaignId, status));
  },
  async 'service/billing-limit'(d, { reached }) {
    return panel(() => d.panel.setBillingLimit(reached));
  },
  async 'service/outage'(d, { seconds }) {
    return panel(() => d.panel.outage(seconds));
  },
};

async function slashCommand(d: ActionDeps, body: PageRequests['message']): Promise<Answer> {
  const command = body.text.split(/\s/, 1)[0] as string;
  if (command !== '/campaign') {
    throw new PageRequestError(400, `${command} is not a command of this workspace: the app's command is /campaign.`);
  }
  const r = await viaDriver(() =>
    d.driver.command(asTyped(body.text.slice(command.length).trim()), {
      userId: body.as,
      channelId: body.channel,
      command,
    }),
  );
  if (r.status !== 200) throw new PageRequestError(502, `The app answered /campaign with HTTP ${r.status}.`);
  d.emulator.showCommandAck({ channelId: body.channel, userId: body.as, body: r.json });
  return OK;
}

/**
 * What Slack's composer makes of typed text: `&`, `<` and `>` escaped, and `#channel` of a channel of the
 * workspace sent as its mention (the command's should_escape, so the app gets ids).
 */
function asTyped(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/(^|\s)#([a-z0-9_-]+)/g, (all, before: string, name: string) => {
    const ch = CHANNELS.find((c) => c.name === name);
    return ch ? `${before}<#${ch.id}|${name}>` : all;
  });
}

function memberOf(d: ActionDeps, userId: string, channelId: string): void {
  if (!channelAudience(d.emulator.channel(channelId)).includes(userId)) {
    throw new PageRequestError(400, `channel: ${channelId} is not one of this person's channels or DMs.`);
  }
}

function ownView(d: ActionDeps, userId: string, viewId: string): Json {
  const view = d.emulator.view(viewId);
  const open =
    d.emulator.openViews(userId).some((v) => v.id === viewId) || d.emulator.publishedHome(userId)?.id === viewId;
  if (!view || d.emulator.viewOwner(viewId) !== userId || !open) {
    throw new PageRequestError(400, `viewId: ${viewId} is not a view open for this person.`);
  }
  return view;
}

/** The page's values as Slack's view.state.values: a file_input's files as Slack's file objects. */
function stateValues(d: ActionDeps, values: ViewValues): Json {
  const out: Json = {};
  for (const [blockId, elements] of Object.entries(values)) {
    const block: Json = {};
    for (const [actionId, v] of Object.entries(elements)) {
      if (v.type !== 'file_input') {
        block[actionId] = v;
        continue;
      }
      const files = v.files.map((f) => {
        const file = d.emulator.fileObjectOf(f.id);
        if (!file) throw new PageRequestError(400, `values.${blockId}.${actionId}: no uploaded file ${f.id}.`);
        return file;
      });
      block[actionId] = { type: 'file_input', files };
    }
    out[blockId] = block;
  }
  return out;
}

/** The driver refuses what Slack's client would not send (a required input empty): a 400 naming it. */
async function viaDriver<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.startsWith('slack driver: ')) throw new PageRequestError(400, message.slice('slack driver: '.length));
    throw new PageRequestError(502, `The app did not answer: ${message}`);
  }
}

function panel(act: () => void): Promise<Answer> {
  try {
    act();
    return Promise.resolve(OK);
  } catch (err) {
    if (err instanceof PanelError) throw new PageRequestError(400, err.message);
    throw err;
  }
}

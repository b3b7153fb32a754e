/**
 * Every command, action, view and event the app answers, in one table, each with the wrapper it runs in:
 *
 * - `change(...)`: a route that changes something. The person's permission is checked first (a read-only person is
 *   told who can, and the refusal audited), the outcome is audited, then answered. Routes without it only read.
 * - `button(...)` / `readButton(...)` / `slashCommand(...)`: ack at once, the value decoded (a stale one answered),
 *   whatever the handler (or the change in it) throws a sentence for the person, once.
 * - `submission(...)` (inside every view's `submitted`): a view submission acked exactly once, its metadata read back,
 *   the permission checked inside the ack (or by the `change()` its work runs in), a crash before the ack answered.
 *
 * Ids come from src/render/ids.ts; the handlers from each feature's listeners.ts. Built once by src/main.ts when the
 * services exist.
 */
import type { App, BlockAction } from '@slack/bolt';
import { callDetailsMessage } from '../render/call-message.js';
import { DISPATCHING_PATTERN } from '../render/campaign-form.js';
import { decodeMenuChoice } from '../render/home.js';
import {
  ACTION_IDS,
  actionIdPattern,
  decodeCampaignAction,
  decodeCampaignId,
  decodeCampaignListNext,
  decodeCallsPage,
  decodeConfirmValue,
  decodeContactRef,
  decodeScheduleConfirmValue,
  decodeContactsPage,
  END_USER_VIEW_ID,
  FORM_CALLBACK_ID,
  HOME_ACTION_IDS,
  HOME_FILTER_PATTERN,
  HOME_PAGE_PATTERN,
  HOME_WATCH_VIEW_ID,
  REPORT_CONFIRM_EXTERNAL_ACTION,
  REPORT_SCHEDULE_CONFIRM_ACTION,
  TRY_AGENT_ACTION,
  UPLOAD_CALLBACK_ID,
  WATCH_ACTION_IDS,
  WATCH_CONFIRM_EXTERNAL_ACTION,
  WATCH_SETTINGS_VIEW_ID,
  decodeCallCardValue,
  decodeSettingsValue,
} from '../render/ids.js';
import type { WatchService } from '../watch/service.js';
import * as form from './campaign-form/listeners.js';
import type { AgentDirectory } from './campaign-form/directory.js';
import type { FormSubmissions } from './campaign-form/once.js';
import type { SubmitTiming } from './campaign-form/submit.js';
import * as campaigns from './campaigns/listeners.js';
import {
  loadCallsPage,
  loadCampaignDetail,
  loadCampaignList,
  loadContactDetail,
  loadContactsPage,
} from './campaigns/pages.js';
import type { AppDeps } from './deps.js';
import * as home from './home/listeners.js';
import * as language from './language/listeners.js';
import type { HomeService } from './home/service.js';
import { change, changeAfterAck } from './middleware/change.js';
import { registerFairUse } from './middleware/fair-use.js';
import type { PersonBudget } from './middleware/person-budget.js';
import { button, readButton, slashCommand, type Subcommands } from './middleware/listener.js';
import * as reports from './reports/listeners.js';
import type { ReportService } from './reports/service.js';
import * as tryAgent from './try/listeners.js';
import * as upload from './upload/listeners.js';
import type { UploadService } from './upload/service.js';
import * as watch from './watch/listeners.js';
import * as watchSettings from './watch/settings.js';
import { watchChange } from './watch/subscribe.js';

/** The app's shared base plus every service a listener uses. */
export interface Services extends AppDeps {
  watch: WatchService;
  uploads: UploadService;
  home: HomeService;
  /** Agents and integrations offered by the campaign form. */
  directory: AgentDirectory;
  /** The campaign form's submissions, each carried out once. */
  submissions: FormSubmissions;
  /** How long a form submission waits for the service before its ack (read at each submission). */
  formTiming: SubmitTiming;
  /** Campaign reports, now and on a schedule. */
  reports: ReportService;
  /** Each person's share of commands and clicks (one for every replica with PostgreSQL). */
  personBudget: PersonBudget;
}

/** `/campaign <sub>`: one row per kind the grammar parses (src/slack/grammar.ts); a missing row is a compile error. */
const subcommands: Subcommands<Services> = {
  help: campaigns.help,
  list: campaigns.list,
  show: campaigns.show,
  contacts: campaigns.contacts,
  calls: campaigns.calls,
  lifecycle: change(
    { what: (c) => c.command.action, campaign: (c) => c.command.id, failedAs: (c) => c.command.action },
    campaigns.lifecycle,
  ),
  create: change({ what: () => 'create' }, form.create),
  edit: change({ what: () => 'edit', campaign: (c) => c.command.id }, form.edit),
  upload: change({ what: () => 'uploadTo', campaign: (c) => c.command.id }, upload.upload),
  watch: change(
    { what: () => 'watch', campaign: (c) => c.command.id, failedAs: (c) => `watch in ${watch.commandChannel(c)}` },
    watch.watch,
  ),
  unwatch: change({ what: () => 'unwatch', campaign: (c) => c.command.id }, watch.unwatch),
  watching: watch.watching,
  try: tryAgent.tryAgent,
  lang: language.lang,
  // Not a change: anyone may ask; where it goes depends on who asks (reports/channels.ts).
  report: reports.report,
  reportSchedule: change(
    {
      what: () => 'scheduleReports',
      campaign: (c) => c.command.id,
      failedAs: () => 'schedule reports',
    },
    reports.schedule,
  ),
  reportOff: change(
    { what: () => 'scheduleReports', campaign: (c) => c.command.id, failedAs: () => 'stop scheduled reports' },
    reports.unschedule,
  ),
  reports: reports.reports,
};

// eslint-disable-next-line max-lines-per-function -- the one table of every route (see the top of the file)
export function routes(app: App, s: Services): void {
  // First: every request runs on behalf of its sender, and one over their share goes no further.
  registerFairUse(app, s, s.personBudget);

  app.command('/campaign', slashCommand(s, subcommands));

  // Campaigns, their contacts and calls.
  const byId = (id: number) => id;
  const ofCampaign = (v: { campaignId: number }) => v.campaignId;
  app.action(
    ACTION_IDS.campaignShow,
    readButton(s, decodeCampaignId, (id, { t, person }) => loadCampaignDetail(s, t, id, person.timeZone), byId),
  );
  app.action(
    ACTION_IDS.campaignListNext,
    readButton(s, decodeCampaignListNext, (v, { t }) => loadCampaignList(s, t, v.filter, v.cursor)),
  );
  app.action(
    ACTION_IDS.campaignContacts,
    readButton(
      s,
      decodeCampaignId,
      (id, { t, person }) => loadContactsPage(s, t, { campaignId: id, page: 0 }, person.timeZone),
      byId,
    ),
  );
  app.action(
    ACTION_IDS.campaignCalls,
    readButton(
      s,
      decodeCampaignId,
      (id, { t, person }) => loadCallsPage(s, t, { campaignId: id, page: 0 }, person.timeZone),
      byId,
    ),
  );
  app.action(
    actionIdPattern(ACTION_IDS.campaignAction),
    button(
      s,
      decodeCampaignAction,
      change(
        { what: (c) => c.value.action, campaign: (c) => c.value.id, failedAs: (c) => c.value.action },
        campaigns.lifecycleButton,
      ),
      { campaignOf: (v) => v.id },
    ),
  );
  app.action(
    actionIdPattern(ACTION_IDS.contactsPage),
    readButton(s, decodeContactsPage, (v, { t, person }) => loadContactsPage(s, t, v, person.timeZone), ofCampaign),
  );
  app.action(
    actionIdPattern(ACTION_IDS.callsPage),
    readButton(s, decodeCallsPage, (v, { t, person }) => loadCallsPage(s, t, v, person.timeZone), ofCampaign),
  );
  app.action(
    ACTION_IDS.contactDetails,
    readButton(s, decodeContactRef, (v, { t, person }) => loadContactDetail(s, t, v, person.timeZone), ofCampaign),
  );
  app.action(
    ACTION_IDS.contactRemove,
    button(
      s,
      decodeContactRef,
      change(
        {
          what: () => 'removeContacts',
          campaign: (c) => c.value.campaignId,
          failedAs: (c) => `remove contact ${c.value.contactId}`,
        },
        campaigns.removeContact,
      ),
      { campaignOf: ofCampaign },
    ),
  );

  // Reports: anyone may ask for one (a read-only person gets it privately: reports/channels.ts); the Slack Connect
  // confirmations are changes.
  app.action(ACTION_IDS.campaignReport, button(s, decodeCampaignId, reports.reportButton, { campaignOf: byId }));
  app.action(
    REPORT_CONFIRM_EXTERNAL_ACTION,
    button(
      s,
      decodeConfirmValue,
      change(
        {
          what: () => 'postReports',
          campaign: (c) => c.value.campaignId,
          failedAs: (c) => `post a report in ${c.value.channelId}`,
        },
        reports.reportConfirmed,
      ),
      { campaignOf: ofCampaign },
    ),
  );
  app.action(
    REPORT_SCHEDULE_CONFIRM_ACTION,
    button(
      s,
      decodeScheduleConfirmValue,
      change(
        { what: () => 'scheduleReports', campaign: (c) => c.value.campaignId, failedAs: () => 'schedule reports' },
        reports.scheduleConfirmed,
      ),
      { campaignOf: ofCampaign },
    ),
  );

  // The campaign form.
  app.action(
    ACTION_IDS.campaignCreateOpen,
    button(s, (): true => true, change({ what: () => 'create' }, form.createButton)),
  );
  app.action<BlockAction>({ callback_id: FORM_CALLBACK_ID, action_id: DISPATCHING_PATTERN }, form.reshape(s));
  app.view({ callback_id: FORM_CALLBACK_ID, type: 'view_submission' }, form.submitted(s));

  // Uploads.
  app.action(
    ACTION_IDS.campaignUploadOpen,
    button(s, decodeCampaignId, change({ what: () => 'uploadTo', campaign: (c) => c.value }, upload.uploadButton), {
      stale: upload.staleUploadButton,
      campaignOf: byId,
    }),
  );
  app.view({ callback_id: UPLOAD_CALLBACK_ID, type: 'view_submission' }, upload.submitted(s));

  // Watching.
  const watchSpec = {
    what: () => 'watch' as const,
    campaign: (c: { value: { campaignId: number } }) => c.value.campaignId,
    failedAs: (c: { value: { channelId: string } }) => `watch in ${c.value.channelId}`,
  };
  app.action(
    WATCH_ACTION_IDS.watchHere,
    button(s, watch.decodeWatchHere, change(watchSpec, watch.watchHere), { campaignOf: ofCampaign }),
  );
  app.action(
    WATCH_CONFIRM_EXTERNAL_ACTION,
    button(s, decodeConfirmValue, change(watchSpec, watch.watchConfirmed), { campaignOf: ofCampaign }),
  );
  app.action(
    WATCH_ACTION_IDS.callDetails,
    readButton(
      s,
      (callId) => callId || null,
      async (callId, { t, person }) =>
        callDetailsMessage(await s.outreach.getCall(callId), { timezone: person.timeZone ?? null }, t),
    ),
  );
  app.action(WATCH_ACTION_IDS.callContact, button(s, watch.decodeContactValue, watch.showEndUser));
  app.action(WATCH_ACTION_IDS.callCard, button(s, decodeCallCardValue, watchSettings.showCallCard));
  app.action(
    WATCH_ACTION_IDS.settings,
    button(
      s,
      (v, body) => watchSettings.decodeSettingsButton(decodeSettingsValue(v), body),
      change(
        { what: () => 'watch', campaign: (c) => c.value.campaignId, failedAs: (c) => `watch in ${c.value.channelId}` },
        watchSettings.settingsButton,
      ),
      { campaignOf: ofCampaign },
    ),
  );
  app.view(
    WATCH_SETTINGS_VIEW_ID,
    watchSettings.settingsSubmitted(
      s,
      changeAfterAck(
        { campaign: (c) => c.campaignId, failedAs: (c) => `watch in ${c.channelId}` },
        watchSettings.saveSettings,
      ),
    ),
  );
  app.view(END_USER_VIEW_ID, watch.endUserSubmitted(s, change({ what: () => 'editEndUsers' }, watch.saveEndUser)));
  app.event('message', watch.onMessage(s));
  app.event('member_joined_channel', watch.onMemberJoined(s));
  app.event('channel_unarchive', watch.onUnarchived(s));
  app.event('group_unarchive', watch.onUnarchived(s));

  // Trying an agent.
  app.action(TRY_AGENT_ACTION, button(s, tryAgent.decodeAgentId, tryAgent.tryButton));

  // The Home tab.
  app.event('app_home_opened', home.opened(s));
  app.action(HOME_FILTER_PATTERN, home.filter(s));
  app.action(HOME_PAGE_PATTERN, home.page(s));
  app.action(HOME_ACTION_IDS.refresh, home.refresh(s));
  app.action(
    HOME_ACTION_IDS.menu,
    button(
      s,
      decodeMenuChoice,
      home.menu({
        calls: home.callsFromMenu,
        edit: change({ what: () => 'edit', campaign: (c) => c.value.campaignId }, home.editFromMenu),
        upload: change({ what: () => 'uploadTo', campaign: (c) => c.value.campaignId }, home.uploadFromMenu),
        watch: change({ what: () => 'watch', campaign: (c) => c.value.campaignId }, home.openWatchModal),
        report: (c: Parameters<typeof home.callsFromMenu>[0] & { deps: Services }) =>
          reports.reportButton({ ...c, value: c.value.campaignId }),
      }),
      { stale: home.staleMenu, campaignOf: ofCampaign },
    ),
  );
  app.view(
    HOME_WATCH_VIEW_ID,
    home.watchSubmitted(
      s,
      changeAfterAck({ campaign: (c) => c.campaignId, failedAs: (c) => `watch in ${c.channelId}` }, (c) =>
        watchChange(s.watch, c.t, c.client, { userId: c.userId, campaignId: c.campaignId, channelId: c.channelId }),
      ),
    ),
  );
}

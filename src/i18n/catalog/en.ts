/**
 * English messages, ICU MessageFormat (formatjs). Keys are `<area>.<what>`; every key is written whole somewhere in
 * src/ (test/unit/i18n-catalog.test.ts checks both ways). Values are mrkdwn of our own: an outside value comes in
 * through `{placeholder}` (escaped by `tmd`, src/render/text.ts), a literal `<` is written `&lt;`. Counts use
 * `{n, plural, one {# x} other {# xs}}`; ids are passed as text (a number would get a thousands separator).
 * See docs/messages.md, "Languages".
 */
export const en = {
  'common.cancel': 'Cancel',

  'format.duration.hms': '{h}h {m}m {s}s',
  'format.duration.ms': '{m}m {s}s',
  'format.duration.s': '{s}s',
  'format.minutes': '{m} min',
  'format.hoursMinutes': '{h}h {m}m',
  'format.hours': '{h}h',
  'format.oneDay': '1 day',

  'status.campaign.pending': '⏳ Pending',
  'status.campaign.ready': '🔵 Ready',
  'status.campaign.active': '🟢 Active',
  'status.campaign.inactive': '⏸ Inactive',
  'status.campaign.cooldown': '❄️ Cooldown',
  'status.campaign.finished': '🏁 Finished',
  'status.archived': '🗄 Archived',
  'status.unknown': '❔ {status}',
  'status.unknownBlank': '❔ Unknown',

  'channel.phone_call': '📞 Phone call',
  'channel.whatsapp': '💬 WhatsApp',

  'schedule.day.mon': 'Mon',
  'schedule.day.tue': 'Tue',
  'schedule.day.wed': 'Wed',
  'schedule.day.thu': 'Thu',
  'schedule.day.fri': 'Fri',
  'schedule.day.sat': 'Sat',
  'schedule.day.sun': 'Sun',
  'schedule.none': 'No schedule: runs any time',

  'cycles.off': 'Off',
  'cycles.on': 'On',
  'cycles.rounds': '{max, plural, one {Up to # round} other {Up to # rounds}}',
  'cycles.onSchedule': '{rounds} on {schedule}',
  'cycles.campaignSchedule': 'the campaign schedule',
  'cycles.dates':
    '{text}{range, select, both {, from {start} until {end}} start {, from {start}} end {, until {end}} other {}}',
  'cycles.apart': '{rounds}, {cooldown} apart',
  'cycles.backToBack': '{rounds}, back to back',
  'cycles.skips': '{text}; skips contacts that are {statuses}',
  'cycles.nowOnRound': '{text}; now on round {round}',

  'lifecycle.button.activate': '▶️ Activate',
  'lifecycle.button.pause': '⏸ Pause',
  'lifecycle.button.resume': '⏯ Resume',
  'lifecycle.button.archive': '🗄 Archive',
  'lifecycle.which.named': '*{name}* (#{id})',
  'lifecycle.which.unnamed': 'Campaign #{id}',
  'lifecycle.confirm.activate.title': 'Activate campaign?',
  'lifecycle.confirm.activate.text': '{which} will start contacting its contacts within its schedule.',
  'lifecycle.confirm.activate.confirm': 'Activate',
  'lifecycle.confirm.archive.title': 'Archive campaign?',
  'lifecycle.confirm.archive.text': '{which} will be hidden from lists. Its status does not change.',
  'lifecycle.confirm.archive.confirm': 'Archive',

  'paging.previous': '◀ Previous',
  'paging.next': 'Next ▶',

  'usage.title': '*Usage:* `/campaign &lt;command&gt;`',
  'usage.line': '• `/campaign {syntax}` — {meaning}',
  'usage.problem': '⚠️ {problem}',
  'usage.problemFallback': '⚠️ {problem} See /campaign help.',
  'usage.fallback': 'How to use /campaign',
  'usage.idHint': '`&lt;id&gt;` is a campaign number as shown by `/campaign list`, e.g. `12`.',
  'usage.otherLanguage': 'Los comandos también se aceptan en español: `/campaign ayuda` los muestra.',
  'usage.help.syntax': 'help',
  'usage.help.meaning': 'this help',
  'usage.list.syntax': 'list [status] [phone_call|whatsapp] [archived]',
  'usage.list.meaning': 'list campaigns; status is one of {statuses}',
  'usage.show.syntax': 'show &lt;id&gt;',
  'usage.show.meaning': 'one campaign in full, with its buttons',
  'usage.activate.syntax': 'activate &lt;id&gt;',
  'usage.activate.meaning': 'start a pending, ready or cooldown campaign',
  'usage.pause.syntax': 'pause &lt;id&gt;',
  'usage.pause.meaning': 'pause an active or cooldown campaign',
  'usage.resume.syntax': 'resume &lt;id&gt;',
  'usage.resume.meaning': 'resume a paused (inactive) campaign',
  'usage.archive.syntax': 'archive &lt;id&gt;',
  'usage.archive.meaning': 'hide a campaign from lists (its status stays)',
  'usage.contacts.syntax': 'contacts &lt;id&gt; [status]',
  'usage.contacts.meaning': 'the campaign’s contacts, a page at a time',
  'usage.calls.syntax': 'calls &lt;id&gt; [status]',
  'usage.calls.meaning': 'the campaign’s calls (phone campaigns)',
  'usage.create.syntax': 'create',
  'usage.create.meaning': 'open the new-campaign form',
  'usage.edit.syntax': 'edit &lt;id&gt;',
  'usage.edit.meaning': 'change name, schedule, retries and more',
  'usage.upload.syntax': 'upload &lt;id&gt;',
  'usage.upload.meaning': 'add contacts from a CSV or XLSX file',
  'usage.watch.syntax': 'watch &lt;id&gt; [#channel]',
  'usage.watch.meaning': 'post the campaign’s progress to a channel (default: this one)',
  'usage.unwatch.syntax': 'unwatch &lt;id&gt; [#channel]',
  'usage.unwatch.meaning': 'stop posting progress to a channel',
  'usage.watching.syntax': 'watching',
  'usage.watching.meaning': 'which campaigns are watched where',
  'usage.try.syntax': 'try &lt;agent_id&gt;',
  'usage.try.meaning': 'talk to an agent in a thread before using it in a campaign',
  'usage.lang.syntax': 'lang [en|es|auto]',
  'usage.lang.meaning':
    'the language I answer you in (`auto`: your Slack language); typed in a channel by someone who may change campaigns, the channel’s language',

  'grammar.needsId': '`{sub}` needs a campaign id, for example `/campaign {sub} 12`.',
  'grammar.notAnId': '`{raw}` is not a campaign id: ids are whole numbers, for example `/campaign {sub} 12`.',
  'grammar.badId': '`{raw}` is not a campaign id.',
  'grammar.oneId': '`{sub}` takes one campaign id, for example `/campaign {sub} 12`.',
  'grammar.idAndStatus': '`{sub}` takes a campaign id and an optional status.',
  'grammar.idAndChannel': '`{sub}` takes a campaign id and an optional #channel.',
  'grammar.noArguments': '`{sub}` takes no arguments.',
  'grammar.createNoArguments': '`{sub}` takes no arguments: it opens a form.',
  'grammar.notAChannel':
    '`{raw}` is not a channel I can read: type `#` and pick the channel from the list so Slack links it.',
  'grammar.notAListFilter':
    '`{raw}` is not a list filter. Use a status ({statuses}), a channel ({channels}) and/or `{archived}`, each at most once.',
  'grammar.notAContactStatus': '`{raw}` is not a contact status. Use one of: {contactStatuses}.',
  'grammar.notACallStatus': '`{raw}` is not a call status to filter by. Use one of: {callStatuses}.',
  'grammar.tryOneAgent': '`{sub}` takes one agent id; without it, it lists the agents you can try.',
  'grammar.notAnAgentId': '`{raw}` is not an agent id.',
  'grammar.unknownSubcommand': '`{raw}` is not a /campaign subcommand.',
  'grammar.langChoice': '`{raw}` is not a language choice. Use `en`, `es` or `auto`.',

  'campaignList.header': 'Campaigns',
  'campaignList.empty': 'No campaigns yet. Create one with the button below or `/campaign create`.',
  'campaignList.emptyFiltered':
    'No campaigns matching _{filter}_. List them all with `/campaign list`, or create one with the button below.',
  'campaignList.none': 'No campaigns.',
  'campaignList.noneMatching': 'No campaigns matching _{filter}_.',
  'campaignList.showing':
    'Showing {count, plural, one {# campaign} other {# campaigns}}{filtered, select, yes { matching _{filter}_} other {}}',
  'campaignList.showingOf':
    'Showing {shown, number} of {total, plural, one {# campaign} other {# campaigns}}{filtered, select, yes { matching _{filter}_} other {}}',
  'campaignList.item': '*{name}* · #{id}\n{state} · Agent: {agent}\n🗓 {schedule}',
  'campaignList.scheduleInZone': '{schedule} ({zone})',
  'campaignList.cycles': '🔁 Cycles: {cycles}',
  'campaignList.filter.phone': 'phone calls',
  'campaignList.filter.whatsapp': 'WhatsApp',
  'campaignList.filter.agent': 'agent {agent}',
  'campaignList.filter.archived': 'including archived',
  'campaignList.show': 'Show',
  'campaignList.showLabel': 'Show campaign {id}',
  'campaignList.new': '➕ New campaign',
  'campaignList.next': 'Next page ▶',
  'campaignList.cursorTooLong':
    'More campaigns exist, but the service’s page cursor is too long to carry on a button. Narrow the list with a filter, e.g. `/campaign list active`.',
  'campaignList.more':
    '…and {count, plural, one {# more campaign} other {# more campaigns}} on this page not shown (Slack shows at most {max} blocks): {ids}. Open one with `/campaign show &lt;id&gt;`{hasNext, select, yes {; the Next page button continues after them} other {}}.',

  'lang.name.en': 'English',
  'lang.name.es': 'Spanish',
  'lang.personSet':
    '✅ From now on I answer you in {language}. `/campaign lang auto` goes back to your Slack language.',
  'lang.personAuto': '✅ From now on I answer you in your Slack language ({language}).',
  'lang.channelSet': '{who} set this channel’s language to {language}: what I post here will be in {language}.',
  'lang.channelAuto': '{who} set this channel’s language back to the app’s default, {language}.',
  'lang.channelOwnUnchanged':
    'That set the channel’s language. Your own stays {language}: change it with `/campaign lang es|en|auto` in a direct message with me.',
  'lang.channelNotPermitted':
    'Only people who may change campaigns can set a channel’s language, so I changed only yours.',
  'lang.statusPerson':
    'I answer you in {language} ({source, select, override {you chose it with `/campaign lang`} other {your Slack language}}).',
  'lang.statusChannel':
    'What I post in this channel is in {language} ({source, select, channel {chosen for this channel} other {the app’s default}}).',
  'lang.statusHow':
    'Change yours with `/campaign lang en`, `/campaign lang es` or `/campaign lang auto` (your Slack language).',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;

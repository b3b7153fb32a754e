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

  'status.contact.queue': '🕒 Queued',
  'status.contact.sending': '📤 Sending',
  'status.contact.sent': '📨 Sent',
  'status.contact.delivered': '📬 Delivered',
  'status.contact.read': '👀 Read',
  'status.contact.accepted': '👍 Accepted',
  'status.contact.rejected': '👎 Rejected',
  'status.contact.failed': '❌ Failed',
  'status.contact.retrying': '🔁 Retrying',
  'status.contact.converted': '🎯 Converted',
  'status.contact.voicemail': '📼 Voicemail',
  'status.contact.answered': '📞 Answered',

  'status.call.created': '🆕 Created',
  'status.call.queued': '🕒 Queued',
  'status.call.ringing': '🔔 Ringing',
  'status.call.inProgress': '🎙 In progress',
  'status.call.forwarding': '↪️ Forwarding',
  'status.call.ended': '☑️ Ended',
  'status.call.busy': '🚫 Busy',
  'status.call.noAnswer': '📵 No answer',
  'status.call.failed': '❌ Failed',

  'answeredBy.human': '🙋 Person',
  'answeredBy.machine': '🤖 Machine',
  'answeredBy.unknown': '❔ Unknown',
  'endedBy.agent': 'the agent',
  'endedBy.user': 'the contact',
  'endedBy.system': 'the system',
  'endedBy.withReason': '{who} ({why})',
  'common.yes': 'Yes',
  'common.no': 'No',

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
  'lifecycle.confirm.pause.title': 'Pause campaign?',
  'lifecycle.confirm.pause.text':
    '{which} will stop placing calls and sending messages until someone resumes it. Calls under way finish.',
  'lifecycle.confirm.pause.confirm': 'Pause',
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
  'usage.watch.syntax': 'watch &lt;id&gt; [#channel] [compact|detailed] [only:&lt;outcome&gt;,…] [human] [settings]',
  'usage.watch.meaning':
    'post the campaign’s progress to a channel (default: this one); `compact`: one line per call; `only:` outcomes ({outcomes}); `human`: answered by a person; `settings`: every option in a form',
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

  // Contacts and calls pages (/campaign contacts|calls), a contact in full
  'contactsPage.header': 'Contacts · campaign #{id}',
  'contactsPage.empty':
    'No contacts in {named, select, yes {*{name}* (#{id})} other {campaign #{id}}}{filtered, select, yes { with status {status}} other {}}.',
  'contactsPage.emptyPage': 'No contacts on this page.',
  'contactsPage.addSome': 'Add some with `/campaign upload {id}`.',
  'contactsPage.summary':
    '{named, select, yes {*{name}* (#{id})} other {campaign #{id}}}{filtered, select, yes { with status {status}} other {}} · page {page, number} · {counted, select, yes {{shown, number} of {total, plural, one {# contact} other {# contacts}}} other {{shown, plural, one {# contact} other {# contacts}}}}',
  'contactsPage.fallback': 'Contacts of {summary}',
  'contactsPage.item':
    '*{name}* · {phone}\n{status} · {calls, plural, one {# call} other {# calls}}{hasLast, select, yes { · last {last}} other {}}',
  'contactsPage.unnamed': 'Contact #{id}',
  'contactsPage.details': 'Details',
  'contactsPage.remove': 'Remove',
  'contactsPage.removeTitle': 'Remove contact?',
  'contactsPage.removeText': 'Remove {name}? {phone} will be taken out of campaign #{id}. This cannot be undone.',
  'contactsPage.removed': 'Contact {contactId} was removed from campaign #{id}.',
  'contactsPage.more':
    '…and {count, plural, one {# more contact} other {# more contacts}} on this page not shown (Slack shows at most {max} blocks).',
  'contactDetail.header': 'Contact #{contactId} · campaign #{id}',
  'contactDetail.status': '*Status*\n{value}',
  'contactDetail.retries': '*Retries*\n{value, number}',
  'contactDetail.calls': '*Calls*\n{value, number}',
  'contactDetail.billedDuration': '*Billed duration*\n{value}',
  'contactDetail.lastCall': '*Last call*\n{value}',
  'contactDetail.followUp': '*Follow-up*\n{value}',
  'contactDetail.externalId': '*External id*\n{value}',
  'contactDetail.context': '*Context*\n{value}',
  'contactDetail.extractedData': '*Extracted data*',
  'contactDetail.moreFields': '…and {count, plural, one {# more field} other {# more fields}} not shown.',
  'contactDetail.allContacts': '👥 All contacts',
  'contactDetail.fallback': '{name} (contact #{contactId} of campaign #{id}): {status}',
  'callsPage.header': 'Calls · campaign #{id}',
  'callsPage.empty': 'No calls in campaign #{id}{filtered, select, yes { with status {status}} other {}} yet.',
  'callsPage.emptyPage': 'No calls on this page.',
  'callsPage.summary':
    'campaign #{id}{filtered, select, yes { with status {status}} other {}} · page {page, number} · {counted, select, yes {{shown, number} of {total, plural, one {# call} other {# calls}}} other {{shown, plural, one {# call} other {# calls}}}}',
  'callsPage.fallback': 'Calls of {summary}',
  'callsPage.item':
    '*{who}*{hasPhone, select, yes { · {phone}} other {}}\n{status}{answered, select, yes { · answered by {answeredBy}} other {}} · {duration}{ended, select, yes { · ended by {endedBy}} other {}}\nStarted {started} · call `{callId}`',
  'callsPage.contact': 'Contact #{id}',
  'callsPage.unknownContact': 'Unknown contact',
  'callsPage.more':
    '…and {count, plural, one {# more call} other {# more calls}} on this page not shown (Slack shows at most {max} blocks).',

  'serviceError.cancelled': 'The request was cancelled before the outreach service answered.',
  'serviceError.unexpected': "Something unexpected went wrong; the details are in the app's logs.",
  'serviceError.network.maybeApplied':
    'The connection to the outreach service broke while it was handling the request, so it may or may not have been applied; check before trying again.',
  'serviceError.network.unreachable': "The outreach service can't be reached right now; nothing was changed.",
  'serviceError.timeout.maybeApplied':
    'The outreach service took too long to answer, so the change may or may not have been applied; check before trying again.',
  'serviceError.timeout.unreachable':
    "The outreach service can't be reached right now (it did not answer in time); nothing was changed.",
  'serviceError.protocol':
    "The outreach service sent an answer this app doesn't understand; the details are in the app's logs.",
  'serviceError.forbidden':
    "The outreach service refused this action for the app's API key (forbidden); ask an admin to check the key's permissions.",
  'serviceError.notFound':
    'The outreach service could not find what was asked for; it may have been deleted, or the id may be wrong.',
  'serviceError.notFound.named': '{name} was not found; it may have been deleted, or the id may be wrong.',
  'serviceError.rateLimited':
    'The outreach service is receiving too many requests right now; try again in a few seconds.',
  'serviceError.rateLimited.wait':
    'The outreach service is receiving too many requests right now; try again in {seconds, plural, one {# second} other {# seconds}}.',
  'serviceError.serverError': 'The outreach service had an internal error; try again in a moment.',
  'serviceError.unavailable': 'The outreach service is temporarily unavailable; try again in a few minutes.',
  'serviceError.invalidRequest': 'The outreach service refused the request as invalid; check the values and try again.',
  'serviceError.refused.details': 'The outreach service refused the request: {details}.',
  'serviceError.refusedInput': 'The outreach service refused the input: {details}.',
  'serviceError.details.invalidValue': 'the value of {field} is not valid',
  'serviceError.badApiKey': 'The outreach service refused the API key; ask an admin to check OUTREACH_API_KEY.',
  'serviceError.conflict':
    "The outreach service refused the change because of the item's current state; refresh and try again.",
  'serviceError.conflict.details': 'The outreach service refused the change because of the current state: {details}.',
  'serviceError.unexpectedAnswer':
    "The outreach service answered in an unexpected way; the details are in the app's logs.",
  'serviceError.invalidStatus': "That status isn't valid here; pick one of the statuses offered.",
  'serviceError.immutableField':
    "That setting can't be changed once the campaign exists (the agent, the integration, the channel and the cycles on/off and mode are fixed at creation).",
  'serviceError.immutableField.named':
    'The setting "{field}" can\'t be changed once the campaign exists; create a new campaign to change it.',
  'serviceError.unknownAction':
    "The outreach service doesn't know that campaign action; use activate, pause, resume or archive.",
  'serviceError.agentNotFound':
    "The agent was not found; check that it is the agent's public id and that it belongs to this organization.",
  'serviceError.agentNotFound.named':
    "Agent {agent} was not found; check that it is the agent's public id and that it belongs to this organization.",
  'serviceError.integrationNotFound':
    'The integration was not found for that agent; pick an integration that belongs to the chosen agent.',
  'serviceError.integrationNotFound.named':
    'Integration {integration} was not found for that agent; pick an integration that belongs to the chosen agent.',
  'serviceError.invalidIntegrationType':
    "That channel isn't supported for this integration; choose phone_call or whatsapp to match the integration.",
  'serviceError.invalidFilterTag':
    "One of the cycle filter tags isn't a known thread tag; remove it or pick an existing tag.",
  'serviceError.invalidPhoneNumber':
    "The phone number isn't valid; write it with its country code, for example +52 55 1234 5678.",
  'serviceError.missingContact': 'The phone number is missing; every contact needs one.',
  'serviceError.contactNotFound': 'That contact was not found in the campaign; it may have been deleted.',
  'serviceError.contactNotDeletable':
    "The contact can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.",
  'serviceError.contactNotDeletable.named':
    "Contact {contact} can't be deleted because it has already been worked on; only contacts still queued or failed can be deleted.",
  'serviceError.campaignFinished': 'The campaign has finished, so it can no longer be changed.',
  'serviceError.cyclesNotEnabled':
    "Cycles aren't enabled on this campaign, and they can only be turned on when a campaign is created.",
  'serviceError.scheduledModeOnly':
    'The cycle schedule and its start and end dates only apply when the cycle mode is scheduled; remove them or switch the mode when creating the campaign.',
  'serviceError.invalidStatusTransition': "The campaign's current status doesn't allow that action.",
  'serviceError.billingLimitReached':
    "The organization's plan limit has been reached, so no more campaigns can run; ask an admin to raise the plan or pause another campaign.",
  'serviceError.billingLimitReached.action':
    "The organization's plan limit has been reached, so the campaign can't be {action, select, activate {activated} pause {paused} resume {resumed} archive {archived} other {changed}}; ask an admin to raise the plan or pause another campaign.",
  'serviceError.transition.now':
    "The campaign is {status}{action, select, activate {, so it can't be activated} pause {, so it can't be paused} resume {, so it can't be resumed} archive {, so it can't be archived} other {, so it can't do that}}.",
  'serviceError.transition.resumeHint': 'To restart a paused campaign, resume it.',
  'serviceError.transition.canBe': 'It can be {actions}.',
  'serviceError.transition.canGoTo': 'It can go to: {targets}.',
  'serviceError.transition.activated': 'activated',
  'serviceError.transition.paused': 'paused',
  'serviceError.transition.resumed': 'resumed',
  'serviceError.transition.archived': 'archived',
  'serviceError.subject.campaign': 'Campaign {id}',
  'serviceError.subject.contact':
    'Contact{id, select, none {} other { {id}}}{campaign, select, none {} other { of campaign {campaign}}}',
  'serviceError.subject.call': 'Call{id, select, none {} other { {id}}}',
  'serviceError.subject.thread': 'Thread{id, select, none {} other { {id}}}',
  'serviceError.subject.endUser': 'End user{id, select, none {} other { {id}}}',

  'feedback.error': '⚠️ {sentence}',
  'feedback.success': '✅ {sentence}',
  'feedback.currentStatus': 'Campaign #{id} is {status}.',
  'feedback.instead': 'What you can do instead:',
  'feedback.staleButton': 'That button no longer works. Run the command again to get a fresh one.',
  'submission.crashed':
    "Something unexpected went wrong; the details are in the app's logs. Nothing was lost: close this to go back to the form.",
  'lifecycleResult.done':
    '{who} {action, select, activate {activated} pause {paused} resume {resumed} other {archived}} *{name}* (#{id}). {action, select, archive {Its status stays {status}.} other {It is now {state}.}}',

  'readOnly.refused':
    "You can't {what, select, activate {activate campaigns} pause {pause campaigns} resume {resume campaigns} archive {archive campaigns} create {create campaigns} edit {edit campaigns} uploadTo {upload contacts to campaigns} upload {upload contacts} watch {watch campaigns} unwatch {unwatch campaigns} removeContacts {remove contacts from campaigns} editEndUsers {edit end users of campaigns} scheduleReports {schedule campaign reports} postReports {post campaign reports in channels} other {change campaigns}}. {whoCan}",
  'readOnly.whoCan': 'Only {who} can change campaigns. Ask one of them, or ask an admin to add you to ADMIN_USER_IDS.',
  'readOnly.fullMembersOnly':
    'Only full members of this workspace can change campaigns: guests and people from other organizations can read, not change.',
  'readOnly.groupMembers': 'members of {group}',
  'readOnly.whoCanReply':
    'Only {who} can reply to customers. Ask one of them, or ask an admin to add you to RESPONDER_USER_IDS.',
  'readOnly.anyMemberCanReply':
    'Members of this workspace can reply to customers; guests and people from other organizations cannot.',

  'fairUse.wait':
    "⏳ You've sent more than {burst} commands or clicks in a short time. The outreach service is shared by everyone here, so I'm pacing each person: please wait {wait, select, minutes {{minutes, plural, one {# minute} other {# minutes}}} other {{seconds, plural, one {# second} other {# seconds}}}} and try again. Nothing was done for that last one.",

  'audit.line':
    '{icon} {who} {action}{campaign, select, none {} other { campaign #{campaign}}} — {result, select, ok {ok} refused {refused} other {failed}}{detail, select, none {} other {: {detail}}}',
  'audit.action.activate': 'activate',
  'audit.action.pause': 'pause',
  'audit.action.resume': 'resume',
  'audit.action.archive': 'archive',
  'audit.action.create': 'create',
  'audit.action.edit': 'edit',
  'audit.action.upload': 'upload',
  'audit.action.uploadFinished': 'upload finished',

  'callMessage.contactNumbered': 'Contact #{id}',
  'callMessage.unknownContact': 'Unknown contact',
  'callMessage.recording': '▶️ Recording',
  'callMessage.policyScore':
    '{score}{counted, select, yes { ({met}/{evaluated} met)} other {}}{evaluating, select, yes { · evaluating} other {}}',
  'callMessage.field.answeredBy': '*Answered by*\n{value}',
  'callMessage.field.duration': '*Duration*\n{value}',
  'callMessage.field.endedBy': '*Ended by*\n{value}',
  'callMessage.field.started': '*Started*\n{value}',
  'callMessage.field.policyScore': '*Policy score*\n{value}',
  'callMessage.field.recording': '*Recording*\n{value}',
  'callMessage.extractedData': '*Extracted data*\n{data}',
  'callMessage.context': 'Campaign {campaign} · call `{callId}`',
  'callMessage.details': 'Details',
  'callMessage.contact': 'Contact',

  'callDetails.header': 'Call details',
  'callDetails.untitled': 'Call',
  'callDetails.summary': '*{who}* · {status}\ncall `{callId}`',
  'callDetails.field.type': '*Type*\n{value}',
  'callDetails.field.created': '*Created*\n{value}',
  'callDetails.field.ended': '*Ended*\n{value}',
  'callDetails.field.billed': '*Billed*\n{value}',
  'callDetails.field.agent': '*Agent*\n{value}',
  'callDetails.policies':
    '*Policies* · {met, number} met of {evaluated, number} evaluated{notApplicable, plural, =0 {} other {, # not applicable}}',
  'callDetails.morePolicies':
    '{count, plural, one {…and # more policy not shown.} other {…and # more policies not shown.}}',
  'callDetails.noResults': 'No policy results yet.',
  'callDetails.noEvaluation': 'No policy evaluation for this call.',
  'callDetails.fallback': 'Call {callId}: {status}',

  'endUser.title': 'End user',
  'endUser.untitled': 'End user',
  'endUser.summary': '*👤 {name}*\n{info}',
  'endUser.idLine': 'End user `{id}`{type, select, none {} other { · {type}}}',
  'endUser.fallback': 'End user {name}',
  'endUser.save': 'Save',
  'endUser.nameLabel': 'Display name',
  'endUser.infoLabel': 'Info',
  'endUser.infoHint': 'What the agent knows about this person.',
  'endUser.loading': 'Loading the end user…',
  'endUser.saved': '✅ Saved by you. Name now *{name}*.',
  'endUser.stale': 'This form is out of date: close it and click Contact again.',
  'endUser.nameBlank': 'Enter a display name (it may not be blank).',
  'endUser.tooLong': 'Too long: shorten it.',

  'conversation.sender.agent': '🤖 Agent',
  'conversation.sender.endUser': '👤 End user',
  'conversation.sender.system': '⚙️ System',
  'conversation.sender.you': '👤 You',
  'conversation.sender.slack': '💬 Reply sent from Slack',
  'conversation.media':
    '📎 {type, select, image {image} audio {audio} video {video} button {button} template {template} document {document} other {attachment}}',
  'conversation.empty': '_(empty {type} message)_',
  'conversation.shortened': '… _(shortened to fit Slack)_',
  'conversation.intro':
    "💬 The conversation follows in this thread. A reply here is sent to the agent on the contact's behalf and the agent's answer is posted back; start it with `note:` or `//` to keep it internal (not sent).",

  'digest.title':
    '*📦 Calls arriving faster than Slack allows one message each{part, select, none {} other { (digest {part})}}*',
  'digest.summary':
    '{count, plural, one {# call} other {# calls}} of campaign {campaigns}, updated in place. Use *Details* via `/campaign calls &lt;id&gt;`.',
  'digest.fallback': '{count, plural, one {# call} other {# calls}} of campaign {campaigns}',

  'whatsapp.digestTitle':
    '*💬 WhatsApp campaign {name}*\n{count, plural, one {# contact} other {# contacts}} by status',
  'whatsapp.noContacts': '*Contacts*\n—',
  'whatsapp.updated': 'Updated {at}',
  'whatsapp.fallback': 'WhatsApp campaign {name}: {count, plural, one {# contact} other {# contacts}}',
  'whatsapp.contactContext': 'Campaign #{campaignId} · contact {contactId}',

  'watch.invite':
    "I can't post in {channel}: it is private (or I can't see it). Invite me there with `/invite @Outreach` in that channel, then run the command again.",
  'watch.archived': '{channel} is archived. Unarchive it or pick another channel.',
  'watch.notInChannel':
    "I'm not in {channel}. Invite me there with `/invite @Outreach` in that channel, then run the command again.",
  'watch.joinFailed': "I couldn't join {channel} ({code}). Invite me with `/invite @Outreach` there, then try again.",
  'watch.confirm.text':
    "🔐 {sharing, select, unknown {I can't tell whether {channel} is shared with people of another organization (Slack would not say).} other {{channel} is a Slack Connect channel: people of another organization are members.}} If it watches {campaign}, they will read its call details, phone numbers and conversation transcripts. Nothing has started yet.",
  'watch.confirm.button': 'Watch it there anyway',
  'watch.confirm.alternative': 'Or watch it in a channel of your organization only: `/campaign watch {id} #channel`.',
  'watch.publicChannel':
    '⚠️ {channel} is a public channel: the call details, phone numbers and conversation transcripts I post there can be read by everyone in the workspace, not only its members.',
  'watch.externalChannel': '⚠️ {channel} is shared with another organization: its people can read what I post there.',
  'watch.already': '👀 {channel} already watches {campaign}.',
  'watch.intro':
    "👀 {who} set this channel to watch {campaign} · {channel}.\nI'll post {kind, select, whatsapp {contact status counts (one message, updated in place) and each contact that converts, rejects or fails} other {each call (one message, updated as it goes) with its conversation in the message's thread}}. A responder's reply in a call's thread goes to the agent for the contact; start with `note:` or `//` to keep it internal (other people's replies stay internal too).",
  'watch.started':
    '✅ {channel} now watches {campaign}{resumed, select, yes { again (it had been suspended)} other {}}. Calls from now on appear there.',
  'watch.notWatching': "{channel} doesn't watch campaign #{id}. See `/campaign watching`.",
  'watch.unwatched':
    '✅ {channel} no longer watches campaign #{id}{named, select, yes { ({name})} other {}}. Messages already posted stay.',
  'watch.reason.archived': 'the channel was archived',
  'watch.reason.removed': 'I was removed from the channel',
  'watch.reason.noPermission': 'Slack no longer lets me post there (I am probably no longer in it)',
  'watch.reason.notFound':
    'the channel no longer exists, or I can no longer see it (a private channel I was removed from)',
  'watch.reason.restricted': "the channel's posting permissions do not let me post",
  'watch.reason.other': 'Slack answered `{code}`',
  'watch.fix.unarchive':
    'Unarchive it (and invite me back with `/invite @Outreach` if I am no longer in it): posting picks up again by itself.',
  'watch.fix.invite': 'Invite me back with `/invite @Outreach` in that channel: posting picks up again by itself.',
  'watch.fix.postingPermissions':
    'Let apps post there (channel settings › Posting permissions), then run `/campaign watch` again for it.',
  'watch.fix.other': 'Once that is sorted out in Slack, run `/campaign watch` again for it.',
  'watch.notice.suspended':
    '⛔ I stopped posting {count, plural, one {campaign} other {campaigns}} {campaigns} into {channel}: {why}. {fix} Or watch it in another channel: `/campaign watch {id} #other-channel`.',
  'watch.notice.gone':
    '⛔ Campaign {campaign} no longer exists in the Outreach service (it was deleted there), so I stopped watching it in {channels}. Messages already posted stay. `/campaign unwatch {id} #channel` removes it from `/campaign watching`.',
  'watch.notice.resumed':
    '▶️ {channel} watches {count, plural, one {campaign} other {campaigns}} {campaigns} again ({why, select, invited {I was invited back} unarchived {the channel was unarchived} other {the channel is reachable again}}); posting picked up where it stopped.',

  'watching.none': 'No channel watches a campaign. Start with `/campaign watch &lt;id&gt; [#channel]`.',
  'watching.header':
    '*👀 Watching* · {subs, plural, one {# subscription} other {# subscriptions}} in {channels, plural, one {# channel} other {# channels}}',
  'watching.line':
    '• #{id}{named, select, yes { {name}} other {}} · {kind} · since {since} by {who}{state, select, gone { · ⛔ deleted in the service — `/campaign unwatch {id} {channel}` removes it} suspended { · ⛔ suspended ({error}): resumes by itself once I can post there again, or run `/campaign watch {id} {channel}`} other {}}',
  'watching.more': '…and {count, plural, one {# more channel} other {# more channels}}.',
  'watching.fallback': 'Watching: {subs, plural, one {# subscription} other {# subscriptions}}',

  'try.noAgents': 'No agent found in your campaigns yet. Run `/campaign try &lt;agent id&gt;` with the id of an agent.',
  'try.header': '*🧪 Try an agent* in your DM with me before launching a campaign. Agents seen in your campaigns:',
  'try.button': 'Try',
  'try.more': '…and {count, number} more: use `/campaign try &lt;agent id&gt;`.',
  'try.fallback': 'Try an agent',
  'try.intro':
    '🧪 You are trying agent *{agent}*{named, select, yes { (`{agentId}`)} other {}}.\nWrite here: each message goes to the agent as your test contact (end user `{endUserId}`), and its answers appear here. \nRun `/campaign try &lt;agent id&gt;` again to switch agents.',
  'try.started': '🧪 Started: open your DM with me and write to agent *{agent}*.',

  'relay.tryHint':
    'To talk to an agent here, start with `/campaign try &lt;agent id&gt;` (or `/campaign try` to pick one).',
  'relay.failed': '❌ Your reply was not sent to the service: {reason} You can write it again.',
  'relay.unwatched':
    '🔒 Your reply stayed in Slack: it was *not* sent to the customer, because {state, select, suspended {watching campaign #{id} is suspended in this channel (see `/campaign watching`)} other {campaign #{id} is no longer watched in this channel}}. To reply to its customers from here again, run `/campaign watch {id}` in this channel.',
  'relay.kept.reply': '🔒 Your reply stayed in Slack as an internal note: it was *not* sent to the customer.',
  'relay.kept.try': "🔒 You can't talk to agents with `/campaign try`.",
  'relay.refused.external':
    '{kept} Only members of the workspace that runs these campaigns can write to its customers and agents.',
  'relay.refused.guest': "{kept} Guests can't write to customers or agents through this app.",
  'relay.refused.unknownReply':
    "⚠️ Your reply was not sent to the customer: I couldn't check with Slack who may reply. Write it again in a minute.",
  'relay.refused.unknownTry': "⚠️ I couldn't check with Slack who may talk to agents. Try again in a minute.",
  'relay.refused.notResponder':
    '{kept} {whoCan}{what, select, reply { Start a message with `note:` to keep it internal without this notice.} other {}}',

  // The Home tab
  'common.close': 'Close',
  'home.header': '📣 Campaigns',
  'home.loading': '⏳ Reading the campaigns from the outreach service…',
  'home.problem':
    "⚠️ *I couldn't read the campaigns from the outreach service.* {problem}{hasAge, select, yes {\nThe list below is from {readAt} and may be out of date.} other {}}\nPress *🔄 Refresh* to try again.",
  'home.readOnly': '👁 You can read campaigns here. {whoCan}',
  'home.count': '{label}\n*{count, number}*',
  'home.filter.status': 'Status',
  'home.filter.channel': 'Channel',
  'home.filter.agent': 'Agent',
  'home.filter.allStatuses': 'All statuses',
  'home.filter.allChannels': 'All channels',
  'home.filter.allAgents': 'All agents',
  'home.filterWord.pending': 'pending',
  'home.filterWord.ready': 'ready',
  'home.filterWord.active': 'active',
  'home.filterWord.inactive': 'inactive',
  'home.filterWord.cooldown': 'cooldown',
  'home.filterWord.finished': 'finished',
  'home.filterWord.archived': 'archived',
  'home.refresh': '🔄 Refresh',
  'home.campaign': '*{name}* · #{id}\n{state} · {channel} · Agent: {agent}\n🗓 {schedule}',
  'home.channelUnknown': 'Channel unknown',
  'home.watchedIn': '👀 Watched in {channels}{more, plural, =0 {} other { and # more}}',
  'home.notWatched': '👀 Not watched in any channel',
  'home.analyticsUnavailable': '📊 Analytics unavailable right now: {problem}',
  'home.menu.edit': '✏️ Edit',
  'home.menu.upload': '📤 Upload contacts',
  'home.menu.watch': '👀 Watch in a channel',
  'home.menu.calls': '📞 Show calls',
  'home.empty': 'No campaigns yet. Create one with *➕ New campaign* above or `/campaign create`.',
  'home.emptyReadOnly': 'No campaigns yet.',
  'home.emptyFiltered': 'No campaigns match _{filter}_. Choose other filters above, or "All" to see every campaign.',
  'home.showing':
    'Showing {from, number}–{to, number} of {total, plural, one {# campaign} other {# campaigns}}{filtered, select, yes { matching _{filter}_} other {}} · page {page, number} of {pages, number} · active first, then newest',
  'home.readLine':
    '{hasStatus, select, yes {{status} · } other {}}Read {readAt}{capped, select, yes { · the service lists more campaigns than the first {cap, number} read here; use the filters to narrow it} other {}}',
  'home.more':
    '…and {count, plural, one {# more campaign} other {# more campaigns}} on this page not shown (a Home tab holds at most 100 blocks).',
  'home.staleMenu': 'That menu no longer works. Open the Home tab again to get a fresh one.',
  'home.watch.title': 'Watch a campaign',
  'home.watch.submit': 'Watch',
  'home.watch.question':
    'Which channel should follow {named, select, yes {*{name}* (#{id})} other {campaign #{id}}}? Calls (or WhatsApp progress) are posted there as they happen.',
  'home.watch.channel': 'Channel',
  'home.watch.placeholder': 'Choose a channel',
  'home.watch.hint': 'I join public channels by myself; invite me to a private one first with `/invite @Outreach`.',
  'home.watch.stale': '⚠️ This form is out of date. Close it and use the menu again.',
  'home.watch.refused': '⚠️ {text}',
  'home.noCampaignsRead': 'No campaigns could be read.',
  'home.serviceUnreadable': 'the service cannot be read.',

  'home.watch.noChannel': 'Choose the channel that should watch the campaign.',

  'campaignDetail.header': 'Campaign #{id}',
  'campaignDetail.title': '*{name}*\n{state} · {channel}',
  'campaignDetail.field': '*{label}*\n{value}',
  'campaignDetail.agent': 'Agent',
  'campaignDetail.agentNamed': '{name}\n`{id}`',
  'campaignDetail.agentId': '`{id}`',
  'campaignDetail.integration': 'Integration',
  'campaignDetail.none': 'none',
  'campaignDetail.timezone': 'Timezone',
  'campaignDetail.serviceDefaultZone': 'service default',
  'campaignDetail.created': 'Created',
  'campaignDetail.retries': 'Retries',
  'campaignDetail.messageLimit': 'Message limit',
  'campaignDetail.template': 'Template',
  'campaignDetail.templateAlt': 'Alternate template',
  'campaignDetail.scheduleAndCycles': '*Weekly schedule*\n🗓 {schedule}\n*Cycles*\n🔁 {cycles}',
  'campaignDetail.analytics': '*Analytics*',
  'campaignDetail.moreMetrics': '…and {count, plural, one {# more metric} other {# more metrics}} not shown.',
  'format.percent': '{value}%',
  'campaignDetail.analytics.calls': 'Calls',
  'campaignDetail.analytics.contactsCalled': 'Contacts called',
  'campaignDetail.analytics.contactsAnswered': 'Contacts answered',
  'campaignDetail.analytics.answerRate': 'Answer rate',
  'campaignDetail.analytics.contactsConverted': 'Contacts converted',
  'campaignDetail.analytics.conversionRate': 'Conversion rate',
  'campaignDetail.analytics.sent': 'Sent',
  'campaignDetail.analytics.delivered': 'Delivered',
  'campaignDetail.analytics.read': 'Read',
  'campaignDetail.analytics.replied': 'Replied',
  'campaignDetail.analytics.converted': 'Converted',
  'campaignDetail.analytics.deliveryRate': 'Delivery rate',
  'campaignDetail.analytics.readRate': 'Read rate',
  'campaignDetail.longText': '*{title}*\n{text}',
  'campaignDetail.shortened': '… _(shortened: the full text is longer than a Slack message holds)_',
  'campaignDetail.description': 'Description',
  'campaignDetail.firstMessage': 'First message',
  'campaignDetail.button.contacts': '👥 Contacts',
  'campaignDetail.button.calls': '📞 Calls',
  'campaignDetail.button.upload': '📤 Upload contacts',
  'campaignDetail.button.watchHere': '👀 Watch here',
  'campaignDetail.fallback': 'Campaign {name} (#{id}): {state}',

  'campaignDetail.cycles': 'Cycles',
  'campaignForm.day.mon': 'Monday',
  'campaignForm.day.tue': 'Tuesday',
  'campaignForm.day.wed': 'Wednesday',
  'campaignForm.day.thu': 'Thursday',
  'campaignForm.day.fri': 'Friday',
  'campaignForm.day.sat': 'Saturday',
  'campaignForm.day.sun': 'Sunday',
  'campaignForm.tooLongToEdit':
    "*{label}* is {length, number} characters long, more than this form can hold ({max, number}), so it can't be changed here and is kept as it is.",
  'campaignForm.integrationOption.phone': '{id} (phone)',
  'campaignForm.integrationOption.whatsapp': '{id} (WhatsApp)',
  'campaignForm.title.create': 'New campaign',
  'campaignForm.title.edit': 'Edit campaign',
  'campaignForm.title.editId': 'Edit campaign #{id}',
  'campaignForm.title.editShort': 'Edit #{id}',
  'campaignForm.title.couldNotSave': "Couldn't save",
  'campaignForm.title.creating': 'Creating…',
  'campaignForm.title.saving': 'Saving…',
  'campaignForm.title.done': 'Done',
  'campaignForm.submit.create': 'Create',
  'campaignForm.submit.save': 'Save changes',
  'campaignForm.close': 'Close',
  'campaignForm.channel': 'Channel',
  'campaignForm.channel.hint': "Choose it first: the form then shows that channel's fields.",
  'campaignForm.chooseChannelFirst':
    'Choose a channel above to see its fields: first message and cycles for phone calls, templates for WhatsApp.',
  'campaignForm.name': 'Name',
  'campaignForm.agent': 'Agent',
  'campaignForm.agent.placeholder': 'Type to search agents',
  'campaignForm.agent.hint': 'Agents seen in existing campaigns. Not listed? Type its id in the next field.',
  'campaignForm.agentTyped': 'Agent id',
  'campaignForm.agentTyped.orId': '…or agent id',
  'campaignForm.agentTyped.placeholder': 'e.g. 7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'campaignForm.agentTyped.hint': "Only for an agent that isn't in the list: its public id (a UUID).",
  'campaignForm.agentTyped.hintNoAgents':
    "No agents seen in existing campaigns yet: type the agent's public id (a UUID).",
  'campaignForm.agentNamed': '{name} (`{id}`)',
  'campaignForm.integration': 'Integration',
  'campaignForm.integration.placeholder': 'Type to search integrations',
  'campaignForm.integration.hintAgent': "This agent's integrations seen in existing campaigns, for the chosen channel.",
  'campaignForm.integration.hintGrouped': 'Grouped by agent: pick one that belongs to the chosen agent.',
  'campaignForm.integrationTyped': 'Integration id',
  'campaignForm.integrationTyped.orId': '…or integration id',
  'campaignForm.integrationTyped.hint':
    "Only for an integration that isn't in the list. It must belong to the chosen agent.",
  'campaignForm.timezone': 'Timezone',
  'campaignForm.timezone.placeholder': 'Type to search, e.g. Mexico',
  'campaignForm.timezone.hint': 'The weekly schedule is read in this zone. Default {zone}.',
  'campaignForm.retries.hint': 'Extra attempts per contact: {min} to {max}. Default {byDefault}.',
  'campaignForm.messageLimit.hint': '{min, number} to {max, number}. Default {byDefault, number}.',
  'campaignForm.firstMessage': 'First message',
  'campaignForm.firstMessage.hint': 'What the agent says first when the call is answered. Phone calls only.',
  'campaignForm.template': 'Template',
  'campaignForm.template.hint': 'Name of the approved WhatsApp template to send.',
  'campaignForm.templateAlt': 'Alternate template',
  'campaignForm.templateAlt.hint': 'Name of a second template, used as the alternative. WhatsApp only.',
  'campaignForm.weeklySchedule': 'Weekly schedule',
  'campaignForm.weeklySchedule.hint':
    "Tick the days it runs and give each a start and stop time (24-hour, in the campaign's timezone). No day ticked: it runs any time.",
  'campaignForm.days': 'Days it runs',
  'campaignForm.cycleDays': 'Days the cycles run',
  'campaignForm.days.hint': 'Each ticked day needs a start and a stop time below.',
  'campaignForm.dayStart': '{day} start',
  'campaignForm.dayStop': '{day} stop',
  'campaignForm.cycles': 'Cycles',
  'campaignForm.repeat': 'Repeat',
  'campaignForm.repeat.option': 'Run the campaign again in rounds (cycles)',
  'campaignForm.repeat.hint': 'Cycles can only be turned on now, when the campaign is created.',
  'campaignForm.mode': 'Mode',
  'campaignForm.mode.hint': 'Fixed once the campaign exists.',
  'campaignForm.mode.cooldown': 'Cooldown: next round after a pause',
  'campaignForm.mode.scheduled': 'Scheduled: rounds on a weekly schedule',
  'campaignForm.maxIterations': 'Rounds at most',
  'campaignForm.maxIterations.hint': 'How many rounds in total: {min} to {max}.',
  'campaignForm.cooldownMinutes': 'Minutes between rounds',
  'campaignForm.cooldownMinutes.hint': 'Wait after a round before the next one: {min} to {max, number} (one day).',
  'campaignForm.filterStatuses': 'Skip contacts whose status is',
  'campaignForm.filterStatuses.placeholder': 'Statuses to skip',
  'campaignForm.filterStatuses.hint': 'Contacts in these statuses are left out of the next round.',
  'campaignForm.filterTags': 'Skip contacts tagged with (tag ids)',
  'campaignForm.filterTags.placeholder': 'tag ids separated by commas',
  'campaignForm.filterTags.hint':
    'Thread tag ids, separated by commas or spaces. The service does not show them back once saved.',
  'campaignForm.cycleSchedule': '*Cycle schedule:* when the rounds run. Only used in scheduled mode.',
  'campaignForm.cyclesStart': 'Cycles start on',
  'campaignForm.cyclesEnd': 'Cycles end on',
  'campaignForm.cyclesOffFixed':
    'Cycles are off for this campaign. They can only be turned on when a campaign is created.',
  'campaignForm.cyclesOnFixed': 'Cycles are on, in *{mode}* mode (fixed at creation).',
  'campaignForm.fixedCyclesOn': 'On ({mode})',
  'campaignForm.fixedNote': 'These were fixed when the campaign was created and cannot be changed.',
  'campaignForm.loading': '⏳ {what}',
  'campaignForm.loading.agents': 'Loading the agents seen in existing campaigns…',
  'campaignForm.loading.campaign': 'Loading campaign #{id}…',
  'campaignForm.finishedReadOnly':
    '🏁 *{name}* (#{id}) is finished. Finished campaigns are read-only, so there is nothing to edit.',
  'campaignForm.stateAndChannel': '{state} · {channel}',
  'campaignForm.fieldNote': '• {note}',
  'campaignForm.backToForm': 'Back to the form',
  'campaignForm.backToForm.note': 'Close this to go back to the form: everything you typed is still there.',
  'campaignForm.working.create': '⏳ Creating the campaign: the service is taking a moment.',
  'campaignForm.working.save': '⏳ Saving the changes: the service is taking a moment.',
  'campaignForm.working.note': 'This view updates itself when it is done.',
  'campaignForm.noChanges': 'Nothing changed, so campaign #{id} was left as it was.',
  'campaignForm.outOfDate': 'This form is out of date. Close it and open it again with `/campaign create`.',
  'campaignForm.serviceRefusedFields': 'The service refused some fields:',
  'campaignForm.doneCreated': '✅ Campaign *{name}* (#{id}) was created.',
  'campaignForm.doneSaved': '✅ Campaign *{name}* (#{id}) was saved.',
  'campaignForm.postFailedNote': "(I couldn't post this in {channel}: invite me there to see results in the channel.)",
  'campaignForm.status': 'Status',
  'campaignForm.schedule': 'Schedule',
  'campaignForm.created': '✅ {who} created campaign *{name}* (#{id}).',
  'campaignForm.created.fallback': 'Campaign {name} (#{id}) created',
  'campaignForm.watchConfirm.title': 'Watch in this channel?',
  'campaignForm.watchConfirm.text':
    'Progress of *{name}* (#{id}) will be posted in this channel until it finishes or someone unwatches it.',
  'campaignForm.watchConfirm.confirm': 'Watch here',
  'campaignForm.next': 'Next: upload contacts, then activate. Activating starts contacting people.',
  'campaignForm.nothing': 'nothing',
  'campaignForm.updated': '✏️ {who} updated campaign *{name}* (#{id}): {fields}',
  'campaignForm.updated.fallback': 'Campaign {name} (#{id}) updated',

  // The upload modal and its views
  'uploadModal.title': 'Upload contacts',
  'uploadModal.submit': 'Upload',
  'uploadModal.intro': 'Add contacts to *{name}* (#{id}), now {state}.',
  'uploadModal.file': 'Contacts file',
  'uploadModal.fileHint':
    'CSV, TSV, TXT or Excel (.xlsx, first sheet), up to {maxSize}. A header row, then one contact per row. One column must hold the phone number (phone, teléfono, celular, móvil, whatsapp…); name, context and f_id are optional, every other column is kept as extra data.',
  'uploadModal.duplicates': 'Numbers already in the campaign',
  'uploadModal.policy.skip': 'Skip them',
  'uploadModal.policy.skipDescription': 'Keep the contact already in the campaign as it is.',
  'uploadModal.policy.update': 'Update them',
  'uploadModal.policy.updateDescription': "Overwrite name, context, extra data and f_id with the file's.",
  'uploadModal.country': 'Country of numbers without a country code',
  'uploadModal.countryHint': 'Numbers written with + and a country code keep their own country.',
  'uploadModal.rejectedNote':
    'Rows with a missing or invalid number, or a number repeated in the file, are not sent; a CSV listing them comes to you in a direct message.',
  'uploadModal.loading': '⏳ Loading campaign #{id}…',
  'uploadModal.problem': '⚠️ {text}',
  'uploadModal.problemText': '{sentence}',
  'uploadModal.checking': '⏳ Checking {named, select, yes {*{name}*} other {the file}} and the campaign…',
  'uploadModal.checkingNote': 'This view updates itself in a moment.',
  'uploadModal.started':
    '✅ Uploading *{name}*. Follow its progress in the message in {inDm, select, yes {your DM with the app} other {{channel}}}.',
  'uploadModal.staleForm': 'This form is out of date. Close it and start again with `/campaign upload &lt;id&gt;`.',
  'uploadModal.staleButton': 'This button is out of date. Use `/campaign upload &lt;id&gt;` instead.',
  'uploadModal.finished':
    'Campaign "{name}" (#{id}) is finished, and contacts can\'t be added to a finished campaign. Create a new campaign for these contacts.',
  'uploadModal.chooseFile': 'Choose a CSV, TSV, TXT or XLSX file to upload.',
  'uploadModal.oneFile': 'Choose one file at a time.',
  'uploadModal.whichFile': 'Slack did not say which file was chosen; choose it again.',
  'uploadModal.unexpected': "Something unexpected went wrong; the details are in the app's logs.",
  'uploadModal.crashed': "Something unexpected went wrong; the details are in the app's logs. Nothing was sent.",
  'uploadModal.alreadyRunning':
    'This file is already being uploaded into this campaign: its progress message shows how far it got.',
  'uploadModal.alreadyDone':
    'This file was already uploaded into this campaign (its summary is in the progress message). To upload it again, choose the file again.',
  'uploadModal.beingChecked': 'This file is already being checked for this campaign; wait a moment.',

  'campaignForm.error.numberMissing':
    'Enter {field, select, retries {the retries} messageLimit {the message limit} rounds {the number of rounds} other {the minutes between rounds}}: a whole number from {min} to {max}.',
  'campaignForm.error.notANumber':
    '"{raw}" is not a whole number: enter {field, select, retries {the retries} messageLimit {the message limit} rounds {the number of rounds} other {the minutes between rounds}} from {min} to {max}.',
  'campaignForm.error.outOfRange':
    '{field, select, retries {The retries} messageLimit {The message limit} rounds {The number of rounds} other {The minutes between rounds}} must be from {min} to {max, number} (you entered {n}).',
  'campaignForm.error.notATime': '"{raw}" is not a time: pick one, e.g. 09:00.',
  'campaignForm.error.dayNoStart': '{day} is ticked: give it a start time, or untick {day}.',
  'campaignForm.error.dayNoStop': '{day} is ticked: give it a stop time, or untick {day}.',
  'campaignForm.error.stopBeforeStart':
    '{day} stops at {stop} but starts at {start}: the stop time must be later than the start time.',
  'campaignForm.error.notADate': '"{raw}" is not a date: pick one from the calendar.',
  'campaignForm.error.tagTooLong': '"{raw}…" is too long to be a tag id: separate tag ids with commas.',
  'campaignForm.error.notAContactStatus':
    '{count, plural, one {{raw} is not a phone contact status} other {{raw} are not phone contact statuses}}: pick from {statuses}.',
  'campaignForm.error.endBeforeStart':
    'The cycles end on {end}, before they start on {start}: pick an end date on or after the start.',
  'campaignForm.error.nameMissing': 'Give the campaign a name.',
  'campaignForm.error.nameTooLong': 'The name is {length} characters long: shorten it to {max} at most.',
  'campaignForm.error.timezoneMissing': 'Choose a timezone.',
  'campaignForm.error.unknownTimezone': '"{raw}" is not a timezone this app knows: pick one from the list.',
  'campaignForm.error.pickedAndTyped':
    'You picked {what, select, agent {agent} other {integration}} {picked} in the list and typed {typed} here: keep only one.',
  'campaignForm.error.channelMissing': 'Choose the channel: phone call or WhatsApp.',
  'campaignForm.error.agentMissing': 'Choose the agent, or type its id.',
  'campaignForm.error.notAnAgentId':
    '"{raw}" is not an agent id: agent ids are UUIDs like 7c9e6679-7425-40de-944b-e07fc1f90ae7.',
  'campaignForm.error.integrationMissing': 'Choose the integration, or type its id.',
  'campaignForm.error.otherAgentsIntegration':
    "Integration {integration} belongs to agent {agent}, not to the chosen agent: pick one of the chosen agent's integrations.",
  'campaignForm.error.integrationChannel':
    'Integration {integration} is a {type, select, whatsapp {WhatsApp} other {phone}} integration: pick a {channel, select, whatsapp {WhatsApp} other {phone}} one, or change the channel.',

  // Upload progress, summary, the failed-rows CSV
  'uploadProgress.percent': '{p}%',
  'uploadProgress.policy.skip': 'numbers already in the campaign are skipped',
  'uploadProgress.policy.update': 'numbers already in the campaign are updated',
  'uploadProgress.what': '*{file}* into *{campaign}* (#{id})',
  'uploadProgress.field.rowsRead': '*Rows read*\n{n, number}',
  'uploadProgress.field.sent': '*Sent*\n{n, number}',
  'uploadProgress.field.created': '*Created*\n{n, number}',
  'uploadProgress.field.updated': '*Updated*\n{n, number}',
  'uploadProgress.field.skipped': '*Skipped (already in the campaign)*\n{n, number}',
  'uploadProgress.field.failed': '*Failed*\n{n, number}',
  'uploadProgress.resumed':
    '{row, plural, =0 {↩️ The app restarted during this upload; it started again from the first row (nothing had been sent yet).} other {↩️ The app restarted during this upload; it resumed after row # (the rows before were already sent).}}',
  'uploadProgress.waitingCampaign':
    '⏳ Waiting: the upload of *{file}* into this campaign has to finish first (one upload per campaign at a time). This one starts by itself.',
  'uploadProgress.waitingBusy':
    '⏳ Waiting for its turn: {running, plural, one {# upload is} other {# uploads are}} running{ahead, plural, =0 {} one { and # upload is ahead of this one} other { and # uploads are ahead of this one}}. This one starts by itself.',
  'uploadProgress.head': '📤 {who} is uploading {what}',
  'uploadProgress.reading': '⏳ Reading the file…',
  'uploadProgress.bar': '`{bar}` {percent}',
  'uploadProgress.note': '⏸ {note}',
  'uploadProgress.footer': 'Duplicates: {policy}. This message updates itself until the upload is done.',
  'uploadProgress.fallback': '📤 Uploading {what}{hasPercent, select, yes { ({percent})} other {}}',
  'uploadProgress.summaryTitle':
    '{stopped, select, yes {⚠️ Upload stopped: {what} (by {who})} other {✅ Upload finished: {what} (by {who})}}',
  'uploadProgress.result':
    '`{bar}` {stopped, select, yes {stopped} other {100%}}\n{created, number} added, {updated, number} updated, {skipped, number} already in the campaign, {failed, number} not added.',
  'uploadProgress.whyStopped': '*Why it stopped:* {reason}',
  'uploadProgress.notAdded': '*Not added:* {groups}',
  'uploadProgress.group.invalid': '{count, plural, one {# number not valid} other {# numbers not valid}}',
  'uploadProgress.group.empty': '{count, plural, one {# row without a number} other {# rows without a number}}',
  'uploadProgress.group.repeated': '{count, number} repeated in the file',
  'uploadProgress.group.broken':
    '{count, plural, one {# row with more values than columns} other {# rows with more values than columns}}',
  'uploadProgress.group.tooLong':
    '{count, plural, one {# row with a value too long} other {# rows with a value too long}}',
  'uploadProgress.group.service': '{count, number} refused by the outreach service',
  'uploadProgress.reportInThread': '📎 Every row that was not added is listed in the CSV in this thread.',
  'uploadProgress.reportInDm':
    '📎 The rows that were not added (with their phone numbers) were sent to {who} in a direct message.',
  'uploadProgress.reportFailed': 'The list of rows not added could not be sent to {who}.',
  'uploadProgress.duplicates': 'Duplicates: {policy}.',
  'uploadProgress.took': 'Took {duration}.',
  'uploadProgress.summaryFallback':
    '{stopped, select, yes {⚠️ Upload stopped: {what}. {reason}} other {✅ Upload finished: {what}: {created, number} added, {failed, number} not added.}}',
  'uploadProgress.reportComment':
    '{rows, plural, one {# row} other {# rows}} of *{file}*{into, select, yes { into *{campaign}*{hasId, select, yes { (#{id})} other {}}} other {}} {rows, plural, one {was} other {were}} not added: row number, the phone value as written, and why. Fix them and upload just those rows again.{capped, select, yes { The CSV lists the first {listed, number} of them; the other {rest, number} are not listed (fix the rows listed, then upload the file again to see the next ones).} other {}}',
  'uploadProgress.stoppedDm': '⚠️ Your upload {what} was stopped. {reason}',
  'uploadProgress.reportFileName': 'failed-rows-{name}.csv',
  'uploadProgress.csvHeader': 'row,value,reason',

  // An upload's run: retries, why it stopped, the service's refusals in the failed-rows CSV
  'uploadRun.retrying':
    'The outreach service is not taking contacts right now ({problem}); trying again in {seconds} s. Nothing is lost.',
  'uploadRun.kept':
    '{sent, plural, =0 {Nothing was added.} one {The contact the service confirmed before is in the campaign.} other {The # contacts the service confirmed before are in the campaign.}}',
  'uploadRun.withKept': '{sentence} {kept}',
  'uploadRun.stalled':
    'The app stopped {stops, number} times while this upload was running, each time before another batch of contacts was added{lastRow, plural, =0 {} other { (the last one ended at row #)}}, so it is not tried again: something in the file may be what stops the app. Check the file, or split it, and upload it again; contacts already added are recognised and not added twice. {kept}',
  'uploadRun.service':
    '{sentence} {kept}{again, select, yes { Upload the file again later to add the rest; contacts already added are recognised and not added twice.} other {}}',
  'uploadRun.unexpected': "Something unexpected went wrong; the details are in the app's logs. {kept}",
  'uploadRun.truncated':
    'The file has more rows than the {maxRows, number} one upload reads: the rows up to row {lastRow, number} were read, and row {nextRow, number} and the rows after it were not. Put those rows in another file (with the header row) and upload it.',
  'uploadRun.service.invalidPhone': 'the outreach service refused the number as invalid',
  'uploadRun.service.missingContact': 'the outreach service received no number for this row',
  'uploadRun.service.serverError': 'the outreach service failed to add it (internal error); upload this row again',
  'uploadRun.service.noReason': 'the outreach service did not add it (no reason given)',
  'uploadRun.service.other': 'the outreach service did not add it ({error})',
  // Why a file could not be read (FileFormatError / SlackFileError problems: src/slack/upload/file-problem-text.ts)
  'fileProblem.binary':
    '{named, select, yes {"{file}"} other {The file}} is not a CSV or Excel file: it contains binary data. Upload a .csv, .tsv, .txt or .xlsx file. Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.',
  'fileProblem.emptyBytes':
    '{named, select, yes {"{file}"} other {The file}} is empty (0 bytes). Upload a file with a header row and contacts.',
  'fileProblem.openDocument':
    '{named, select, yes {"{file}"} other {The file}} is an OpenDocument file (LibreOffice / .ods), which can\'t be read. Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.',
  'fileProblem.emptyZip':
    '{named, select, yes {"{file}"} other {The file}} is an empty ZIP archive, not an Excel workbook.',
  'fileProblem.oldExcel':
    '{named, select, yes {"{file}"} other {The file}} is an old-style Excel 97-2003 workbook (.xls), which can\'t be read. Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.',
  'fileProblem.pdf':
    '{named, select, yes {"{file}"} other {The file}} is a PDF, not a spreadsheet. Upload a .csv or .xlsx file.',
  'fileProblem.webPage':
    '{named, select, yes {"{file}"} other {The file}} is a web page (an HTML table), not a CSV or Excel file. Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.',
  'fileProblem.xmlFile':
    '{named, select, yes {"{file}"} other {The file}} is an XML file (perhaps "XML Spreadsheet 2003"), not a CSV or Excel file. Open it in Excel or Google Sheets and save it as .xlsx or "CSV UTF-8", then upload that file.',
  'fileProblem.noWorksheet':
    '{named, select, yes {"{file}"} other {The file}} is a ZIP archive without any Excel worksheet. Upload a .xlsx workbook or a .csv file.',
  'fileProblem.tooComplex':
    '{named, select, yes {"{file}"} other {The file}} needs more memory to read than an upload may use: it is damaged, or built to be that way. Open it in Excel or Google Sheets, export the sheet as "CSV UTF-8" and upload that file.',
  'fileProblem.passwordProtected':
    '{named, select, yes {"{file}"} other {The file}} is password protected. Remove the password in Excel (File → Info → Protect Workbook), save it, and upload it again.',
  'fileProblem.noRows':
    '{named, select, yes {"{file}"} other {The file}} has no rows: it is empty or holds only blank lines. Upload a file with a header row and contacts.',
  'fileProblem.noRowsInSheet':
    'The worksheet "{sheet}" of {named, select, yes {"{file}"} other {the file}} has no rows: it is empty or holds only blank lines. Upload a file with a header row and contacts.',
  'fileProblem.workbookTooLarge':
    '{named, select, yes {"{file}"} other {The file}} is larger than {mb, number} MB, the most a workbook may be here. Export the sheet as "CSV UTF-8" and upload that file.',
  'fileProblem.tooManyColumns':
    '{named, select, yes {"{file}"} other {The file}} has {width, number} columns in its header row; at most {max, number} can be read. Keep the columns you need (the phone, name, notes…) and upload it again; if the first row is not the header, remove the rows above it.',
  'fileProblem.noContacts':
    '{named, select, yes {"{file}"} other {The file}} has a header row but no contacts: there are no rows under {headers}. Add one contact per row and upload it again.',
  'fileProblem.quoteNotClosed':
    '{named, select, yes {"{file}"} other {The file}} is not valid CSV: row {row} opens a quoted value with " that is never closed, so the rest of the file could not be read. Close the quote, or remove it if it is part of a value.',
  'fileProblem.recordTooLong':
    '{named, select, yes {"{file}"} other {The file}} is not valid CSV: row {row} is longer than {max} characters: most likely a " opens a quoted value that is never closed. Close the quote, or remove it if it is part of a value.',
  'fileProblem.textAfterQuote':
    '{named, select, yes {"{file}"} other {The file}} is not valid CSV: row {row} has text right after the closing " of a quoted value. Put the whole value in quotes and double the quotes inside it ("like ""this""").',
  'fileProblem.csvUnreadable':
    '{named, select, yes {"{file}"} other {The file}} is not valid CSV: row {row} could not be read ({detail}).',
  'fileProblem.zipManyParts':
    '{named, select, yes {"{file}"} other {The file}} is a ZIP archive of {parts, number} parts, not an Excel workbook. Open it in Excel and export the sheet as "CSV UTF-8", then upload that file.',
  'fileProblem.unpacksTooLarge':
    '{named, select, yes {"{file}"} other {The file}} unpacks to more than {max}, the most a workbook may hold here ({declared, select, yes {its parts declare at least {total}; {part} alone {partSize}} other {{part} goes past it while it is unpacked}}). It is damaged, or not a contact list. Open it in Excel and export the sheet as "CSV UTF-8", then upload that file.',
  'fileProblem.lyingPart':
    '{named, select, yes {"{file}"} other {The file}} can\'t be read: its part {part} unpacks to more than its own header says, which only a damaged file, or one made to exhaust the reader, does. Open it in Excel and export the sheet as "CSV UTF-8", then upload that file.',
  'fileProblem.unreadableWorkbook':
    '{named, select, yes {"{file}"} other {The file}} looks like an Excel workbook but could not be read ({damage, select, cutShort {it is cut short or damaged: the end of its ZIP archive is missing} damagedPart {a part of it is damaged: {detail}} other {{detail}}}). Open it in Excel and save it again as .xlsx, or export the sheet as "CSV UTF-8".',
  'fileProblem.noPhoneColumn':
    '{named, select, yes {"{file}": } other {}}No phone column found. Columns in the file: {hasColumns, select, yes {{listed}{more, plural, =0 {} other {, and # more}}} other {(none)}}. Name the column with the phone numbers "Teléfono", "Celular", "WhatsApp" or "Phone" (the first row must be the header row).',
  'slackFile.tooLarge':
    '"{file}"{hasSize, select, yes { is {size};} other { is larger than allowed;}} files of up to {max} can be uploaded. Split it into smaller files (or remove columns you do not need) and upload each one.',
  'slackFile.badUrl':
    'Slack gave a download address the app will not use ({why, select, none {none was given} notUrl {not a URL} credentials {it carries credentials} scheme {{detail} URL} apiMethod {it is a Slack API method, not a file} other {http to {detail}, not https}}); nothing was read.',
  'slackFile.outsideSlack':
    "Slack says this file's bytes are outside Slack (at {plainHttp, select, yes {http to {host}, not https} other {{host}}}), and the app sends its Slack token only to Slack; nothing was read. Upload the file itself (choose it from your computer) instead of a link to it or a file kept elsewhere, then submit again.",
  'slackFile.externalLink':
    '"{file}" is a link to a file kept outside Slack (in {known, select, yes {{where}} other {another service}}), not a file uploaded to Slack; the app does not open it. Upload the file itself (choose it from your computer) instead of a link to it or a file kept elsewhere, then submit again.',
  'slackFile.badFileId': 'The file id from Slack is not valid.',
  'slackFile.deletedOrHidden':
    'Slack no longer has this file (it was deleted, or the app cannot see it). Upload it again.',
  'slackFile.deleted': 'Slack no longer has this file (it was deleted). Upload it again.',
  'slackFile.unreachable': 'Slack could not be reached to read the file; try again shortly.',
  'slackFile.otherFile': 'Slack described another file than the one chosen.',
  'slackFile.refusedInfo': 'Slack refused to describe the file ({code}).',
  'slackFile.unavailable':
    'Slack did not send the file ({why, select, network {network error} http {HTTP {status}} noBody {the answer had no body} other {the download was cut off}}); try again shortly.',
  'slackFile.redirectedAway':
    'Slack sent the download on to another host ({host}), where the app does not send its Slack token; nothing was read. Upload the file itself (choose it from your computer) instead of a link to it or a file kept elsewhere, then submit again.',
  'slackFile.notAuthorized':
    'Slack did not hand the file over to the app ({why, select, signIn {it answered with a redirect to sign in} http {HTTP {status}} other {it sent a web page instead of the file}}). The app needs the files:read permission; ask an admin to reinstall it with that scope.',
  // Why a row was not added (the failed-rows CSV: src/slack/upload/row-reason-text.ts)
  'rowReason.emptyNumber': 'empty number',
  'rowReason.noDigits': 'no digits: not a phone number',
  'rowReason.severalNumbers': 'holds more than one number: put one number per row',
  'rowReason.scientific':
    'written in scientific notation, so its last digits were lost: format the column as Text (or as a number without decimals) in the spreadsheet and export the file again',
  'rowReason.letters': 'contains letters: write the number with digits only',
  'rowReason.unknownCountryCode': 'unknown country code',
  'rowReason.shortUnparsed': 'too short',
  'rowReason.longUnparsed': 'too long',
  'rowReason.notPhone': 'not a phone number',
  'rowReason.extension': 'has an extension ({ext}): calls cannot dial extensions; remove it to call the main number',
  'rowReason.tooShort':
    'too short: {digits} digits{hasOld, select, yes { (without the old {oldPrefix} prefix)} other {}}; a number in {foreign, select, yes {{country} (+{callingCode})} other {{country}}} has {oneLength, select, yes {{min}} other {{min} to {max}}}',
  'rowReason.tooLong':
    'too long: {digits} digits{hasOld, select, yes { (without the old {oldPrefix} prefix)} other {}}; a number in {foreign, select, yes {{country} (+{callingCode})} other {{country}}} has {oneLength, select, yes {{min}} other {{min} to {max}}}',
  'rowReason.invalidForCountry':
    'not a valid number for {foreign, select, yes {{country} (+{callingCode})} other {{country}}}{hasOld, select, yes { (even without the old {oldPrefix} prefix)} other {}}',
  'rowReason.cellTooLong':
    'the value in column "{column}" has {chars, number} characters; a cell may have at most {max, number}: shorten it',
  'rowReason.rowTooLong':
    'the row has {chars, number} characters in all; a row may have at most {max, number}: shorten its longest values',
  'rowReason.beyondHeader':
    'has values beyond the {columns} columns of the header ({values}): a value probably contains the delimiter without quotes, or a column has no header',
  'rowReason.phoneTooLong': 'too long to be a phone number ({chars, number} characters)',
  'rowReason.duplicate': 'duplicate of row {row} (same number {number})',
  // Watch settings: filters and formats (issue 17: src/watch/filter.ts, src/render/watch-settings.ts)
  'compactCall.line':
    '{status} · *{who}*{phone, select, none {} other { · {phone}}}{answeredBy, select, none {} other { · {answeredBy}}}{duration, select, none {} other { · {duration}}}',
  'compactCall.loading': 'Reading the call…',
  'compactCall.modalTitle': 'Call',
  'watchFormat.detailed': 'detailed',
  'watchFormat.compact': 'compact',
  'watchFilter.everything': 'every call',
  'watchFilter.outcomes': 'only {list}',
  'watchFilter.answeredBy': 'answered by {list}',
  'watchFilter.scoreBelow': 'policy score below {score}',
  'watchFilter.withData': 'with extracted data',
  'watchFilter.dataKey': 'with the data key “{key}”',
  'watchFilter.tags': 'tagged {list}',
  'watchFilter.conversationsOnly': 'conversations only',
  'watchSettings.summary': '{format} · {filter}',
  'watchSettings.button': 'Watch settings',
  'watchSettings.title': 'Watch settings',
  'watchSettings.save': 'Save',
  'watchSettings.intro':
    'What {channel} shows of {campaign}.{watching, select, no { It does not watch it yet: saving starts the watch.} other {}}',
  'watchSettings.format.label': 'Format',
  'watchSettings.format.detailed': 'Detailed: the full card of each call',
  'watchSettings.format.compact': 'Compact: one line per call, with a Details button',
  'watchSettings.outcomes.label': 'Only calls with these outcomes',
  'watchSettings.answeredBy.label': 'Only calls answered by',
  'watchSettings.noneTicked': 'None ticked: all of them.',
  'watchSettings.score.label': 'Only calls with a policy score below',
  'watchSettings.score.hint': 'From 0 to 100. Empty: any score.',
  'watchSettings.data.label': 'Extracted data',
  'watchSettings.data.with': 'Only calls with extracted data',
  'watchSettings.dataKey.label': 'Only calls whose extracted data has this key',
  'watchSettings.tags.label': 'Only calls with one of these tags',
  'watchSettings.tags.hint': 'Separated by commas, e.g. vip, renewal.',
  'watchSettings.conversations.label': 'Conversations',
  'watchSettings.conversations.only': 'Only calls with a conversation (one line each, no call card)',
  'watchSettings.reminder.label': 'Remind after (minutes)',
  'watchSettings.reminder.hint':
    'When a customer waits this long for a person’s reply in a call’s thread, one reminder is posted there (1 to 1440).',
  'watchSettings.waitingNote':
    'A conversation whose customer waits for a person’s reply is always shown here, whatever the filter. Replies in threads are never sent to the channel.',
  'watchSettings.error.score': 'Write a number from 0 to 100, or leave it empty.',
  'watchSettings.error.reminder': 'Write a whole number of minutes from 1 to 1440.',
  'watchSettings.error.tags': 'At most {max} tags of up to {chars} characters each, separated by commas.',
  'watchSettings.stale': '⚠️ This form is out of date. Close it and open the watch settings again.',
  'watchSettings.refused': '⚠️ {text}',
  'watchSettings.saved': '✅ {channel} shows {campaign} as: {summary}.',
  'grammar.watchOption':
    '`{raw}` is not a watch option. After the campaign id (and the #channel) you can type `compact` or `detailed`, `only:` with outcomes ({outcomes}) separated by commas, `human`, or `settings` to open the form.',
  'grammar.notAWatchOutcome':
    '`{raw}` is not a call outcome. Use {outcomes}, separated by commas: `only:ended,no-answer`.',
  // Watches that call people in (issue 17: assignee, reminders, owner DMs, Home's waiting list: src/render/attention.ts)
  'attention.mention': '🔔 {assignee}: the customer wrote in this conversation.',
  'attention.reminder':
    '⏰ {assignee}: {named, select, yes {{name}} other {the customer}} has been waiting for a reply here for {minutes, plural, one {# minute} other {# minutes}}. Reply in this thread to answer (or start with `note:` to leave an internal note).',
  'attention.notice':
    '{event, select, finished {🏁 Campaign {campaign} has finished.} paused {⏸️ Campaign {campaign} was paused by the Outreach service (not from Slack).} other {💳 Campaign {campaign} cannot run: the organization’s plan limit was reached.}} You watch it in {channels}. {event, select, finished {Its messages stay there; `/campaign unwatch {id} #channel` stops the watch.} paused {`/campaign resume {id}` starts it again when it should run.} other {Ask an admin to raise the plan or pause another campaign, then `/campaign resume {id}`.}}',
  'attention.home.header': '⏳ Waiting for a reply',
  'attention.home.line': '• {who} in {channel}, since {since}{reminded, select, yes { (reminded)} other {}}',
  'attention.home.customer': 'A customer',
  'attention.home.more': '…and {count, plural, one {# more conversation} other {# more conversations}} waiting.',
  // Campaign reports (issue 16: src/render/report.ts, src/slack/reports/, src/slack/grammar.ts)
  'usage.report.syntax': 'report &lt;id&gt; [daily HH:MM | weekly &lt;day&gt; HH:MM | off] [#channel]',
  'usage.report.meaning':
    'post a report with a chart in this channel now (the last 7 days against the 7 before), or every day or week at a time of the campaign’s timezone',
  'usage.reports.syntax': 'reports',
  'usage.reports.meaning': 'the scheduled reports and when each posts next',
  'grammar.reportForm':
    'Write `{sub} &lt;id&gt;` (now), `{sub} &lt;id&gt; daily HH:MM [#channel]`, `{sub} &lt;id&gt; weekly &lt;day&gt; HH:MM [#channel]` or `{sub} &lt;id&gt; off [#channel]`.',
  'grammar.notATime': '“{raw}” is not a time: write it as HH:MM on a 24-hour clock, e.g. 09:00 or 17:30.',
  'grammar.notADay': '“{raw}” is not a day of the week: write monday, tuesday, … sunday (or lunes … domingo).',
  'report.header': '📊 Report: {name} (#{id})',
  'report.context': '{channel} · {state} · hours in {timeZone} · {date}',
  'report.funnelTitle': '{channel, select, whatsapp {Message funnel} other {Contacts}}',
  'report.step':
    '{step, select, total {Total} called {Called} answered {Answered} sent {Sent} delivered {Delivered} read {Read} other {Converted}}',
  'report.others': 'Rejected {rejected} · Failed {failed} · Pending {pending}',
  'report.conversion':
    'Conversion rate: {rate} of the {channel, select, whatsapp {contacts messaged} other {contacts called}}',
  'report.noConversion': 'Conversion rate: — (no contact {channel, select, whatsapp {messaged} other {called}} yet)',
  'report.outcomesTitle': 'Calls by outcome ({total})',
  'report.outcome':
    '{outcome, select, human {Answered} voicemail {Voicemail} busy {Busy} noAnswer {No answer} failed {Failed} other {In progress}}',
  'report.busiestHour': 'Busiest hour: {hour} ({count, plural, one {# call} other {# calls}})',
  'report.averageCall': 'Average call: {duration}',
  'report.hoursTitle': 'Calls by hour of the day ({timeZone})',
  'report.hourAxis': 'hour',
  'report.comparisonTitle':
    'Last {days, plural, one {24 hours} other {# days}} against the {days, plural, one {24 hours} other {# days}} before',
  'report.compare':
    '{what, select, calls {Calls} answered {Answered by a person} converted {Converted} other {Conversion rate}}: {now} ({dir, select, up {▲ +{delta}} down {▼ −{delta}} other {no change}}; before: {before})',
  'report.noComparison': 'WhatsApp messages carry no dates, so there is no comparison with the previous period.',
  'report.gathered':
    'Gathered in {seconds} s with {requests, plural, one {# request} other {# requests}} to the service ({contacts, plural, one {# contact} other {# contacts}}, {calls, plural, one {# call} other {# calls}}).',
  'report.lastOne':
    'This was the last scheduled report: the campaign is {state}. Its report schedule in this channel has stopped.',
  'report.chartSubtitle': '{date} · hours in {timeZone}',
  'report.fileTitle': 'Report of campaign #{id}',
  'report.gathering':
    "⏳ {state, select, joined {The report of campaign #{id} is being gathered already (someone asked for it a moment ago): you get the same one, with no reading of its own.} queued {The report of campaign #{id} waits its turn: {ahead, plural, one {# report is} other {# reports are}} ahead of it (I gather at most {max} at once, so the service stays quick for everyone).} other {Gathering the report of campaign #{id}: every contact and call is read behind other work, so a large campaign takes a minute or more.}} {where, select, dm {It will come to you only, in your direct messages with me{why, select, readOnly {: only people who may change campaigns post reports in channels} elsewhere {, as I'm not in this conversation} other {}}.} other {It will be posted in this conversation.}}",
  'report.every':
    '{frequency, select, daily {every day} other {every {day, select, 0 {Sunday} 1 {Monday} 2 {Tuesday} 3 {Wednesday} 4 {Thursday} 5 {Friday} other {Saturday}}}} at {time} ({timeZone})',
  'report.scheduled': '🗓 {who} scheduled the report of campaign #{id} in {channel}: {every}. Next: {next}.',
  'report.unscheduled': '{who} turned off the scheduled report of campaign #{id} in {channel}.',
  'report.noSchedule': 'Campaign #{id} has no scheduled report in {channel}: nothing to turn off.',
  'report.button': '📊 Report',
  'reports.title': 'Scheduled reports',
  'reports.none': 'No report is scheduled. Schedule one with `/campaign report &lt;id&gt; daily 09:00`.',
  'reports.line': '*#{id}* in {channel}: {every}. Next: {next}.',
  // Who may post reports where (issue 23: src/slack/reports/channels.ts, src/reports/gatherings.ts)
  'report.overBudget':
    '⏳ I stopped gathering the report of campaign #{id} after {requests, plural, one {# request} other {# requests}} to the service. A report costs one of your commands for every {every} requests it reads, and your share is used up for now (so is that of anyone else who asked for this report). Nothing was posted. Try again in {wait, select, minutes {{minutes, plural, one {# minute} other {# minutes}}} other {{seconds, plural, one {# second} other {# seconds}}}}.',
  'report.confirm.text':
    "🔐 {sharing, select, unknown {I can't tell whether {channel} is shared with people of another organization (Slack would not say).} other {{channel} is a Slack Connect channel: people of another organization are members.}} {what, select, schedule {If the report of {campaign} is scheduled there, they will read it every time} other {If I post the report of {campaign} there, they will read it}}: its contacts, calls and conversion figures. Nothing has been posted yet.",
  'report.confirm.button': '{what, select, schedule {Schedule it there anyway} other {Post it there anyway}}',
  'report.confirm.alternative':
    '{what, select, schedule {Or schedule it in a channel of your organization only: `/campaign report {id} daily 09:00 #channel`.} other {Or ask for it in a channel of your organization only, or in your direct messages with me: `/campaign report {id}`.}}',
  'report.personNotInChannel':
    "You're not in {channel}, so I won't schedule reports there for you. Schedule them from a channel you are in, or join {channel} first.",
  'report.typedChannel':
    "I can't use `{raw}`: it is not a channel both you and I are in. Type `#` and pick the channel from Slack's list, so Slack links it.",
  'report.skipped':
    "📊 I did not post the scheduled report of campaign #{id} in {channel} ({every}). {reason} I'll try again at its next time. To stop it: `/campaign report {id} off` in {channel}.",
  'report.skippedShared':
    '{channel} is shared with people of another organization (or Slack would not say whether it is), and nobody confirmed that its reports may go there.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;

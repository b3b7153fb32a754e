/** Snapshots of every message builder, each also checked against Block Kit's limits (in every language it speaks). */
import { LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/translator.js';
import { campaignDetailMessage } from '../../src/render/campaign-detail.js';
import { campaignListMessage } from '../../src/render/campaign-list.js';
import { errorMessage, lifecycleResultMessage, successMessage } from '../../src/render/feedback.js';
import type { SlackMessage } from '../../src/render/types.js';
import { assertWithinMessageLimits } from '../support/message-checks.js';
import { campaignDetail, listItem } from '../support/blocks-fixtures.js';
import { SPANISH_ALIASES, usageMessage } from '../../src/slack/grammar.js';

function checked(m: SlackMessage): SlackMessage {
  assertWithinMessageLimits(m);
  return m;
}

describe.each(LOCALES)('campaignListMessage (%s)', (locale) => {
  const t = translator(locale);
  it('a page with a next cursor and a filter', () => {
    const m = campaignListMessage(
      {
        campaigns: [0, 1, 2, 3, 4, 5].map((i) => listItem(i)),
        totalCount: 1234,
        nextCursor: 'cursor-abc',
        filterText: 'phone call',
        requestFilter: { integrationType: 'phone_call', pageSize: 6 },
      },
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
  it('an archived campaign with cycles and no agent name', () => {
    const m = campaignListMessage(
      {
        campaigns: [
          listItem(1, {
            archived: true,
            agent: { id: 'agent-uuid', name: null },
            cycle_enabled: true,
            cycle_max_iterations: 3,
            cycle_cooldown_minutes: 60,
            cycle_current_iteration: 2,
            scheduling: null,
            timezone: null,
          }),
        ],
        totalCount: 1,
      },
      t,
    );
    expect(checked(m)).toMatchSnapshot();
  });
  it('empty, with and without a filter', () => {
    expect(checked(campaignListMessage({ campaigns: [], totalCount: 0 }, t))).toMatchSnapshot();
    expect(checked(campaignListMessage({ campaigns: [], totalCount: 0, filterText: 'finished' }, t))).toMatchSnapshot();
  });
});

describe('campaignDetailMessage', () => {
  it('a phone campaign with analytics (fractions) and cycles', () => {
    expect(checked(campaignDetailMessage(campaignDetail()))).toMatchSnapshot();
  });
  it('a WhatsApp campaign with analytics in percents, no calls button', () => {
    const m = campaignDetailMessage(
      campaignDetail({
        id: 13,
        status: 'inactive',
        integration: { id: 'int-wa-1', type: 'whatsapp' },
        analytics: { sent: 10000, delivered: 9500, read: 7000, convertedRate: 12.5, deliveredRate: 95 },
        cycles: null,
        first_message: null,
        template: 'renewal_v2',
        template_alt: 'renewal_v2_short',
      }),
    );
    expect(checked(m)).toMatchSnapshot();
    expect(JSON.stringify(m.blocks)).not.toContain('campaign_calls');
  });
  it('a minimal finished archived campaign without integration', () => {
    const m = campaignDetailMessage(
      campaignDetail({
        status: 'finished',
        archived: true,
        integration: null,
        agent: { id: 'agent-uuid' },
        analytics: null,
        scheduling: null,
        cycles: null,
        description: null,
        first_message: null,
        timezone: null,
        retries: null,
        message_limit: null,
      }),
    );
    expect(checked(m)).toMatchSnapshot();
  });
});

describe('feedback', () => {
  it('an invalid transition offers the moves that are possible', () => {
    const m = errorMessage({
      sentence: 'Campaign #12 can’t be activated: it is paused. Resume it instead.',
      campaignId: 12,
      campaignName: 'Spring renewals',
      currentStatus: 'inactive',
      validTargets: ['active', 'resume', 'archived', 'something-new'],
    });
    expect(checked(m)).toMatchSnapshot();
    const ids = m.blocks.flatMap((b) => (b.type === 'actions' ? b.elements.map((e) => e.action_id) : []));
    expect(ids).toEqual(['campaign_action:resume', 'campaign_action:archive']);
  });
  it('a plain error and a success', () => {
    expect(checked(errorMessage({ sentence: 'The service is unreachable. Try again in a minute.' }))).toMatchSnapshot();
    expect(checked(successMessage('Added *1,200 contacts* to campaign #12.'))).toMatchSnapshot();
  });
  it('who did what, for each action', () => {
    for (const [action, status] of [
      ['pause', 'inactive'],
      ['resume', 'active'],
      ['activate', 'active'],
      ['archive', 'finished'],
    ] as const) {
      const m = lifecycleResultMessage({
        userId: 'U123ABC',
        action,
        campaign: { id: 12, name: 'Spring renewals', status, archived: action === 'archive' },
      });
      expect(checked(m)).toMatchSnapshot(action);
    }
    expect(
      lifecycleResultMessage({
        userId: 'U123',
        action: 'pause',
        campaign: { id: 12, name: 'Name', status: 'inactive' },
      }).text,
    ).toBe('<@U123> paused *Name* (#12). It is now ⏸ Inactive.');
  });
  it('usage, with and without a problem', () => {
    const m = usageMessage(translator('en'));
    expect(checked(m)).toMatchSnapshot();
    const problem = { key: 'grammar.unknownSubcommand', values: { raw: 'frobnicate' } } as const;
    expect(checked(usageMessage(translator('en'), problem))).toMatchSnapshot();
    expect(checked(usageMessage(translator('es'), problem))).toMatchSnapshot();
    const all = JSON.stringify(m.blocks);
    for (const cmd of [
      'help',
      'list [status] [phone_call|whatsapp] [archived]',
      'show &lt;id&gt;',
      'activate &lt;id&gt;',
      'pause &lt;id&gt;',
      'resume &lt;id&gt;',
      'archive &lt;id&gt;',
      'contacts &lt;id&gt; [status]',
      'calls &lt;id&gt; [status]',
      'create',
      'edit &lt;id&gt;',
      'upload &lt;id&gt;',
      'watch &lt;id&gt; [#channel] [compact|detailed] [only:&lt;outcome&gt;,…] [human] [settings]',
      'unwatch &lt;id&gt; [#channel]',
      'watching',
      'try &lt;agent_id&gt;',
      'lang [en|es|auto]',
    ]) {
      expect(all).toContain(`/campaign ${cmd}\``);
    }
  });
  it('the Spanish usage names every subcommand by its Spanish alias', () => {
    const all = JSON.stringify(usageMessage(translator('es')).blocks);
    for (const alias of Object.keys(SPANISH_ALIASES)) expect(all).toMatch(new RegExp(`/campaign ${alias}[ \`]`));
    expect(all).toContain('Uso:');
  });
});

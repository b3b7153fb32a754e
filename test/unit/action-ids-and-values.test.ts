/** Action ids and button values (src/render/ids.ts); which lifecycle actions a campaign has (src/outreach/rules.ts). */
import {
  ACTION_IDS,
  actionId,
  actionIdPattern,
  actionOfActionId,
  decodeCallsPage,
  decodeCampaignAction,
  decodeCampaignId,
  decodeCampaignListNext,
  decodeContactRef,
  decodeContactsPage,
  encodeCallsPage,
  encodeCampaignAction,
  encodeCampaignId,
  encodeCampaignListNext,
  encodeContactRef,
  encodeContactsPage,
} from '../../src/render/ids.js';
import { actionForTarget, validActions } from '../../src/outreach/rules.js';

describe('action ids', () => {
  it('the pattern matches the bare id and suffixed ids only', () => {
    const p = actionIdPattern(ACTION_IDS.campaignAction);
    expect(p.test('campaign_action')).toBe(true);
    expect(p.test(actionId(ACTION_IDS.campaignAction, 'pause'))).toBe(true);
    expect(p.test('campaign_actions')).toBe(false);
    expect(p.test('x_campaign_action')).toBe(false);
    expect(actionIdPattern(ACTION_IDS.contactsPage).test('contacts_page:next')).toBe(true);
    expect(actionOfActionId('campaign_action:resume')).toBe('resume');
    expect(actionOfActionId('campaign_action:explode')).toBeNull();
  });
});

describe('button value codecs', () => {
  it('round-trip', () => {
    expect(decodeCampaignId(encodeCampaignId(12))).toBe(12);
    expect(decodeCampaignAction(encodeCampaignAction({ id: 12, action: 'pause' }))).toEqual({
      id: 12,
      action: 'pause',
    });
    expect(encodeCampaignAction({ id: 12, action: 'pause' })).toBe('{"id":12,"action":"pause"}');
    expect(decodeContactRef(encodeContactRef({ campaignId: 1, contactId: 2 }))).toEqual({
      campaignId: 1,
      contactId: 2,
    });
    expect(decodeContactsPage(encodeContactsPage({ campaignId: 1, page: 3, status: 'queue' }))).toEqual({
      campaignId: 1,
      page: 3,
      status: 'queue',
    });
    expect(encodeContactsPage({ campaignId: 1, page: 0 })).toBe('{"campaignId":1,"page":0}');
    expect(decodeCallsPage(encodeCallsPage({ campaignId: 1, page: 2, status: 'no-answer' }))).toEqual({
      campaignId: 1,
      page: 2,
      status: 'no-answer',
    });
  });
  it('the next-page value carries cursor and filters, dates included', () => {
    const filter = {
      status: 'active' as const,
      integrationType: 'whatsapp' as const,
      includeArchived: true,
      pageSize: 20,
      agentId: undefined,
      createdAfter: new Date('2026-01-01T00:00:00Z'),
    };
    const v = encodeCampaignListNext({ cursor: 'abc==', filter });
    expect(JSON.parse(v)).toEqual({
      cursor: 'abc==',
      filter: {
        status: 'active',
        integrationType: 'whatsapp',
        includeArchived: true,
        pageSize: 20,
        createdAfter: '2026-01-01T00:00:00.000Z',
      },
    });
    const back = decodeCampaignListNext(v);
    expect(back?.cursor).toBe('abc==');
    expect(back?.filter.createdAfter).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(back?.filter).not.toHaveProperty('agentId');
    expect(back?.filter.status).toBe('active');
  });
  it('malformed values decode to null', () => {
    expect(decodeCampaignId('12abc')).toBeNull();
    expect(decodeCampaignId(undefined)).toBeNull();
    expect(decodeCampaignAction('{"id":12,"action":"explode"}')).toBeNull();
    expect(decodeCampaignAction('not json')).toBeNull();
    expect(decodeContactRef('{"campaignId":"1","contactId":2}')).toBeNull();
    expect(decodeContactsPage('{"campaignId":1,"page":-1}')).toBeNull();
    expect(decodeContactsPage('{"campaignId":1,"page":0,"status":"bogus"}')).toBeNull();
    expect(decodeCallsPage('{"campaignId":1,"page":25001}')).toBeNull();
    expect(decodeCampaignListNext('{"cursor":""}')).toBeNull();
    expect(decodeCampaignListNext('{"cursor":"x","filter":{"status":"bogus"}}')).toBeNull();
    expect(decodeCampaignListNext('{"cursor":"x"}')).toEqual({ cursor: 'x', filter: {} });
  });
});

describe('validActions follows the spec transition table', () => {
  it.each([
    ['pending', false, ['activate', 'archive']],
    ['ready', false, ['activate', 'archive']],
    ['active', false, ['pause', 'archive']],
    ['inactive', false, ['resume', 'archive']],
    ['cooldown', false, ['activate', 'pause', 'archive']],
    ['finished', false, ['archive']],
    ['finished', true, []],
    ['active', true, ['pause']],
  ] as const)('%s (archived %s) → %j', (status, archived, expected) => {
    expect(validActions(status, archived)).toEqual(expected);
  });

  it('maps valid_targets given as actions or statuses', () => {
    expect(actionForTarget('resume', 'inactive')).toBe('resume');
    expect(actionForTarget('active', 'inactive')).toBe('resume');
    expect(actionForTarget('active', 'pending')).toBe('activate');
    expect(actionForTarget('inactive', 'active')).toBe('pause');
    expect(actionForTarget('archived')).toBe('archive');
    expect(actionForTarget('finished')).toBeNull();
  });
});

/** Service data for the block builder tests, parsed through the real schemas so shapes stay honest. */
import {
  CampaignCallItem,
  CampaignContact,
  CampaignDetail,
  CampaignListItem,
  type CampaignStatus,
} from '../../src/outreach/schemas.js';

export const WEEKDAYS_9_TO_6 = {
  mon: { startTime: '09:00', stopTime: '18:00', active: true },
  tue: { startTime: '09:00', stopTime: '18:00', active: true },
  wed: { startTime: '09:00:00', stopTime: '18:00:00', active: true },
  thu: { startTime: '09:00', stopTime: '18:00', active: true },
  fri: { startTime: '09:00', stopTime: '18:00', active: true },
  sat: { startTime: '10:00', stopTime: '14:00', active: true },
  sun: { startTime: '10:00', stopTime: '14:00', active: false },
};

const STATUSES: CampaignStatus[] = ['pending', 'ready', 'active', 'inactive', 'cooldown', 'finished'];

export function listItem(i: number, over: Record<string, unknown> = {}): CampaignListItem {
  return CampaignListItem.parse({
    id: 100 + i,
    name: `Campaign ${i}`,
    description: `Description ${i}`,
    status: STATUSES[i % STATUSES.length],
    created_at: '2026-03-05T14:07:00Z',
    agent: { id: '6f1c2b9e-8d4a-4c7b-9f3e-2a1d0c9b8a70', name: `Agent ${i}` },
    scheduling: WEEKDAYS_9_TO_6,
    timezone: 'America/Mexico_City',
    retries: 1,
    archived: false,
    ...over,
  });
}

export function campaignDetail(over: Record<string, unknown> = {}): CampaignDetail {
  return CampaignDetail.parse({
    id: 12,
    name: 'Spring renewals',
    status: 'active',
    integration: { id: 'int-phone-1', type: 'phone_call' },
    agent: { id: '6f1c2b9e-8d4a-4c7b-9f3e-2a1d0c9b8a70', name: 'Renewals agent' },
    created_at: '2026-03-05T14:07:00Z',
    scheduling: WEEKDAYS_9_TO_6,
    cycles: {
      enabled: true,
      mode: 'cooldown',
      max_iterations: 3,
      cooldown_minutes: 90,
      filter_statuses: ['converted'],
    },
    analytics: { calls: 1234, contactsAnswered: 456, contactsConvertedRate: 0.125, contactsVoicemail: 78 },
    description: 'Call customers whose plan renews in April.',
    timezone: 'America/Mexico_City',
    retries: 2,
    message_limit: 250,
    first_message: 'Hi, this is Ana from Acme.',
    archived: false,
    ...over,
  });
}

export function contact(i: number, over: Record<string, unknown> = {}): CampaignContact {
  return CampaignContact.parse({
    id: 1000 + i,
    f_id: `crm-${i}`,
    name: `Contact ${i}`,
    contact: '+14155550123',
    status: i % 3 === 0 ? 'queue' : i % 3 === 1 ? 'answered' : 'failed',
    context: 'Renews in April',
    retries: 1,
    has_follow_up: false,
    call_count: i % 4,
    billed_duration: 65,
    last_call_at: '2026-03-06 15:30:00',
    extracted_data: { interested: 'yes', best_time: 'mornings' },
    tags: ['vip'],
    ...over,
  });
}

export function call(i: number, over: Record<string, unknown> = {}): CampaignCallItem {
  return CampaignCallItem.parse({
    id: `call-${i}`,
    thread_id: `thread-${i}`,
    type: 'outbound',
    status: 'ended',
    answered_by: 'human',
    created_at: '2026-03-06T15:29:50Z',
    started_at: '2026-03-06T15:30:00Z',
    ended_at: '2026-03-06T15:31:05Z',
    ended_by: 'agent',
    ended_reason: 'goal reached',
    duration: 65,
    billed_duration: 120,
    contact: { id: 1000 + i, f_id: `crm-${i}`, name: `Contact ${i}`, phone_number: '+14155550123', status: 'answered' },
    extracted_data: {},
    tags: [],
    recording_url: `/api/v1.0/call/call-${i}/recording`,
    ...over,
  });
}

export const HOSTILE = '<!channel> & <@U1> <#C1> <https://evil.example|click>';

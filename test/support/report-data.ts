/**
 * Campaigns with known contacts and calls in the simulator, for report tests and the report bench: a phone campaign
 * whose calls are spread over the last `spreadHours` hours with every outcome, some contacts never called; a
 * WhatsApp campaign with contacts at every step of the message funnel. And what the app answered a report's command.
 */
import type { SimControl } from '../../src/sim/control.js';
import type { FakeSlack } from '../../src/emulator/fake-slack.js';

const OUTCOMES = [
  { status: 'ended', answered_by: 'human', contactStatus: 'converted' },
  { status: 'ended', answered_by: 'human', contactStatus: 'answered' },
  { status: 'ended', answered_by: 'machine', contactStatus: 'voicemail' },
  { status: 'busy', contactStatus: 'failed' },
  { status: 'no-answer', contactStatus: 'retrying' },
  { status: 'failed', contactStatus: 'failed' },
  { status: 'ended', answered_by: 'human', contactStatus: 'answered' },
] as const;

export interface PhoneSeed {
  name?: string;
  timezone?: string;
  /** Contacts with one call each. */
  called: number;
  /** Contacts never called. */
  queued: number;
  /** Calls are placed from now back to this many hours ago. */
  spreadHours: number;
  /** ms; default Date.now(). */
  now?: number;
}

const phoneNumber = (i: number) => `+5255${String(10_000_000 + i).slice(-8)}`;

export function seedPhoneCampaign(control: SimControl, seed: PhoneSeed): number {
  const agent = control.addAgent({ name: 'Sofía' });
  const integration = control.addIntegration({ agentId: agent.id, type: 'phone_call' });
  const total = seed.called + seed.queued;
  const contacts = Array.from({ length: total }, (_, i) => ({ contact: phoneNumber(i), name: `Cliente ${i}` }));
  const id = Number(
    control.seedCampaign({
      name: seed.name ?? 'Cobranza',
      agentId: agent.id,
      integrationId: integration.id,
      status: 'active',
      timezone: seed.timezone ?? 'America/Mexico_City',
      contacts,
    }).id,
  );
  const now = seed.now ?? Date.now();
  const ids = (control.getCampaignState(id)!.contacts as { id: number }[]).map((c) => c.id);
  for (let i = 0; i < seed.called; i++) {
    const o = OUTCOMES[i % OUTCOMES.length]!;
    const at = new Date(now - Math.floor((i * seed.spreadHours * 3_600_000) / Math.max(1, seed.called)) - 1000);
    control.createCall(id, {
      contactId: ids[i]!,
      created_at: at.toISOString(),
      started_at: at.toISOString(),
      status: o.status,
      ...('answered_by' in o ? { answered_by: o.answered_by } : {}),
      contactStatus: o.contactStatus,
    });
  }
  return id;
}

const WHATSAPP_STATUSES = ['sent', 'delivered', 'read', 'read', 'accepted', 'rejected', 'converted', 'failed', 'queue'];

export function seedWhatsAppCampaign(control: SimControl, contactsCount: number): number {
  const agent = control.addAgent({ name: 'Lucía' });
  const integration = control.addIntegration({ agentId: agent.id, type: 'whatsapp' });
  const contacts = Array.from({ length: contactsCount }, (_, i) => ({ contact: phoneNumber(50_000 + i) }));
  const id = Number(
    control.seedCampaign({
      name: 'Promo WhatsApp',
      agentId: agent.id,
      integrationId: integration.id,
      status: 'active',
      timezone: 'America/Bogota',
      template: 'promo',
      contacts,
    }).id,
  );
  const ids = (control.getCampaignState(id)!.contacts as { id: number }[]).map((c) => c.id);
  ids.forEach((contactId, i) =>
    control.setContactStatus(id, contactId, WHATSAPP_STATUSES[i % WHATSAPP_STATUSES.length]!),
  );
  return id;
}

/** Width and height of a PNG (its IHDR chunk), after checking its signature. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error('not a PNG: wrong signature');
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') throw new Error('not a PNG: no IHDR first');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The answers through a command's or button's response_url (each body as JSON text), once `n` of them came. */
export async function answersTo(fake: FakeSlack, responseUrl: string, n: number): Promise<string[]> {
  const uses = await fake.waitFor(() => {
    const u = fake.responseUrlUses().filter((x) => x.url === responseUrl);
    return u.length >= n ? u : undefined;
  }, 20_000);
  return uses.map((u) => JSON.stringify(u.body));
}

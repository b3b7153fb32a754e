/**
 * The app of the scheduled-report tests (test/integration/report-schedules*.test.ts): on a clock the test moves,
 * from Monday 2 March 2026, 08:58 in Mexico City (UTC-6 all year: two minutes before a daily 09:00), the scheduler
 * ticking every 40 ms of real time; ADMIN, an admin in Mexico City who reads English; one phone campaign whose calls
 * are spread over the last hours (report-data.ts). node-cron is not mocked: it decides which minutes are a schedule's.
 * And what those tests read: the reports posted in a channel, the answer to a command.
 */
import type { FakeSlack, FakeUploadedFile } from '../../src/emulator/fake-slack.js';
import { answersTo, seedPhoneCampaign, type PhoneSeed } from './report-data.js';
import { startReplicaPair, startTestApp, type ReplicaPair, type TestApp, type TestAppOptions } from './test-app.js';
import { TestClock } from './test-clock.js';

export const ADMIN = 'U0ADMIN';
export const READER = 'U0READER';
/** Where the tests type their commands. */
export const OPS = 'C0OPS';

/** A clock at Monday 2 March 2026, 08:58 in Mexico City, moved only by the test. */
export function scheduleClock(): TestClock {
  return new TestClock(Date.parse('2026-03-02T14:58:00Z'));
}

/** startTestApp's options of a schedule test on `clock` (ADMIN as admin, the scheduler's tick), over `opts`. */
function onClock(clock: TestClock, opts: Omit<TestAppOptions, 'shared'>): Omit<TestAppOptions, 'shared'> {
  return {
    ...opts,
    env: { ADMIN_USER_IDS: ADMIN, ...opts.env },
    start: { clock, reports: { tickMs: 40 }, ...opts.start },
  };
}

/** ADMIN in the fake Slack and the campaign in the simulator; the campaign's id. */
function seedWorld(t: TestApp, seed: PhoneSeed): number {
  t.fake.addUser({ id: ADMIN, locale: 'en-US', tz: 'America/Mexico_City' });
  return seedPhoneCampaign(t.sim.control, seed);
}

/** The app on `clock`, with ADMIN and the campaign `seed` describes (`campaignId`). */
export async function startScheduleApp(
  clock: TestClock,
  seed: PhoneSeed,
  opts: Omit<TestAppOptions, 'shared'> = {},
): Promise<{ t: TestApp; campaignId: number }> {
  const t = await startTestApp(onClock(clock, opts));
  return { t, campaignId: seedWorld(t, seed) };
}

/** Two replicas of the app (test-app.ts `startReplicaPair`) on one `clock`, with ADMIN and the campaign. */
export async function startSchedulePair(
  clock: TestClock,
  seed: PhoneSeed,
  opts: Omit<TestAppOptions, 'shared'> = {},
): Promise<{ pair: ReplicaPair; campaignId: number }> {
  const pair = await startReplicaPair(onClock(clock, opts));
  return { pair, campaignId: seedWorld(pair.a, seed) };
}

/** The reports posted in `channel` (files shared there with a message). */
export function reportsIn(fake: FakeSlack, channel: string): FakeUploadedFile[] {
  return fake.uploadedFiles().filter((f) => f.channel === channel && f.messageTs);
}

/** The answers through a command's or button's `responseUrl` (each body as JSON text, one a line), once `n` came. */
export async function answered(t: TestApp, responseUrl: string, n = 1): Promise<string> {
  return (await answersTo(t.fake, responseUrl, n)).join('\n');
}

/** `/campaign <text>` as `userId` in `channelId`, acknowledged; its answer (JSON text) once it came. */
export async function commandAnswer(t: TestApp, text: string, userId = ADMIN, channelId = OPS): Promise<string> {
  const ack = await t.driver.command(text, { userId, channelId });
  expect(ack.status).toBe(200);
  return answered(t, ack.responseUrl);
}

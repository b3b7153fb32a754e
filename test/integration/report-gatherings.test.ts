/**
 * How reports share the service, through the real app against the simulator: two asks for one campaign at once share
 * one gathering (counted in the simulator's request log); beyond `maxGathering` at once the others wait their turn
 * and the person is told; a report costs its asker one action per `requestsPerAction` requests as it reads, and stops
 * when they have none left, saying so in their language. The simulator holds chosen requests (`control.hold`) so
 * that "while one is being gathered" is a state the test sets, not a race.
 */
import { answersTo, seedPhoneCampaign } from '../support/report-data.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const ADMIN = 'U0ADMIN';
const OTHER_ADMIN = 'U0ADMIN2';
const READER = 'U0READER';
const OPS = 'C0OPS';
const SALES = 'C0SALES';

const filesIn = (t: TestApp, channel: string) =>
  t.fake.uploadedFiles().filter((f) => f.channel === channel && f.messageTs);

/** The simulator's logged requests (in the order they were answered) about one campaign. */
const about = (t: TestApp, id: number) =>
  t.sim.control.requests().filter((r) => new RegExp(`/campaigns/${id}(/|$)`).test(r.path));

describe('gatherings', () => {
  let t: TestApp;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: { ADMIN_USER_IDS: `${ADMIN},${OTHER_ADMIN}` },
      start: { reports: { maxGathering: 2 } },
    });
    for (const id of [ADMIN, OTHER_ADMIN, READER]) t.fake.addUser({ id, locale: 'en-US' });
    for (const id of [OPS, SALES]) t.fake.addChannel({ id });
    for (let i = 0; i < 4; i++) ids.push(seedPhoneCampaign(t.sim.control, { called: 20, queued: 5, spreadHours: 48 }));
  });
  afterAll(async () => t.close());

  it('two asks for one campaign at once share one gathering: one set of requests, a report in each place', async () => {
    const id = ids[0]!;
    const hold = t.sim.control.hold(new RegExp(`/campaigns/${id}/contacts$`));
    t.sim.control.clearRequests();
    const first = await t.driver.command(`report ${id}`, { userId: ADMIN, channelId: OPS });
    await t.fake.waitFor(() => hold.held() === 1, 10_000);
    const second = await t.driver.command(`report ${id}`, { userId: OTHER_ADMIN, channelId: SALES });
    const reader = await t.driver.command(`report ${id}`, { userId: READER, channelId: SALES });
    expect((await answersTo(t.fake, first.responseUrl, 1))[0]).toContain(`Gathering the report of campaign #${id}`);
    expect((await answersTo(t.fake, second.responseUrl, 1))[0]).toContain(
      `The report of campaign #${id} is being gathered already`,
    );
    expect((await answersTo(t.fake, reader.responseUrl, 1))[0]).toContain('in your direct messages with me');
    hold.release();
    await t.fake.waitFor(() => filesIn(t, OPS).length === 1 && filesIn(t, SALES).length === 1, 20_000);
    const dm = await t.fake.waitFor(() => t.fake.dmChannel(READER), 10_000);
    await t.fake.waitFor(() => filesIn(t, dm).length === 1, 20_000);
    // One gathering's requests (the campaign, one page of contacts, one of calls), not three.
    expect(
      about(t, id)
        .map((r) => r.route)
        .sort(),
    ).toEqual(['getCampaign', 'listCampaignCalls', 'listContacts']);
  }, 40_000);

  it('beyond two at once, a report waits its turn (and is told so) until one of them is done', async () => {
    const [, a, b, c] = ids as [number, number, number, number];
    const hold = t.sim.control.hold(new RegExp(`/campaigns/(${a}|${b})/contacts$`));
    t.sim.control.clearRequests();
    await t.driver.command(`report ${a}`, { userId: ADMIN, channelId: OPS });
    await t.driver.command(`report ${b}`, { userId: ADMIN, channelId: OPS });
    await t.fake.waitFor(() => hold.held() === 2, 10_000);
    const third = await t.driver.command(`report ${c}`, { userId: OTHER_ADMIN, channelId: SALES });
    const [said] = await answersTo(t.fake, third.responseUrl, 1);
    expect(said).toContain(`The report of campaign #${c} waits its turn: 2 reports are ahead of it`);
    expect(said).toContain('I gather at most 2 at once');
    expect(about(t, c)).toEqual([]);
    const before = { ops: filesIn(t, OPS).length, sales: filesIn(t, SALES).length };
    hold.release();
    await t.fake.waitFor(
      () => filesIn(t, OPS).length === before.ops + 2 && filesIn(t, SALES).length === before.sales + 1,
      20_000,
    );
    // The third read nothing before one of the first two had read its last page.
    const log = t.sim.control.requests();
    const at = (id: number) => log.flatMap((r, i) => (new RegExp(`/campaigns/${id}(/|$)`).test(r.path) ? [i] : []));
    expect(Math.min(...at(c))).toBeGreaterThan(Math.min(Math.max(...at(a)), Math.max(...at(b))));
    expect(at(c)).toHaveLength(3);
  }, 40_000);
});

describe('a report costs its asker', () => {
  let t: TestApp;
  let id: number;
  const SPANISH = 'U0LUCIA';

  beforeAll(async () => {
    t = await startTestApp({
      env: { ADMIN_USER_IDS: SPANISH, PERSON_ACTIONS_BURST: '3', PERSON_ACTIONS_PER_MINUTE: '1' },
      // The budget refills on the app's clock: frozen, nothing comes back while the test runs.
      start: { clock: new TestClock(Date.now()), reports: { requestsPerAction: 2 } },
    });
    t.fake.addUser({ id: SPANISH, locale: 'es-MX' });
    t.fake.addChannel({ id: OPS });
    // 250 contacts and 250 calls: the campaign, then 3 pages of each = 7 requests.
    id = seedPhoneCampaign(t.sim.control, { called: 250, queued: 0, spreadHours: 48 });
  });
  afterAll(async () => t.close());

  it('one action per 2 requests as it reads: over the budget it stops, and says so in the person’s language', async () => {
    t.sim.control.clearRequests();
    // 3 actions: the command takes one; requests 3 and 5 one each; the 7th finds none left.
    const { responseUrl } = await t.driver.command(`reporte ${id}`, { userId: SPANISH, channelId: OPS });
    const said = await answersTo(t.fake, responseUrl, 2);
    expect(said[0]).toContain(`Reuniendo el reporte de la campaña #${id}`);
    expect(said[1]).toContain(`Dejé de reunir el reporte de la campaña #${id} después de 6 consultas al servicio`);
    expect(said[1]).toContain('Un reporte cuesta uno de tus comandos por cada 2 consultas');
    expect(said[1]).toContain('Vuelve a intentarlo en 1 minuto');
    expect(said[1]).toContain('No se publicó nada');
    expect(about(t, id)).toHaveLength(6);
    expect(filesIn(t, OPS)).toEqual([]);
  }, 30_000);
});

/**
 * Who may reply to customers (createPermissions().canReply): RESPONDER_USER_IDS and members of RESPONDER_USERGROUP_ID
 * (read through usergroups.users.list on the fake Slack, like the admins' group); with neither set, the admins; with
 * no admins either (sandbox, or ALLOW_EVERYONE_TO_CHANGE=true), everyone. A group Slack cannot list lets nobody in.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { LogLevel, WebClient } from '@slack/web-api';
import { createPermissions } from '../../src/slack/permissions.js';
import { startFakeSlack, type FakeSlack } from '../../src/emulator/fake-slack.js';

let fake: FakeSlack;
let client: WebClient;
beforeAll(async () => {
  fake = await startFakeSlack({ usergroups: { S0RESPOND: ['U0GROUPED'], S0ADMINS: ['U0ADMINGRP'] } });
  client = new WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
});
afterAll(async () => fake.close());

it('responders are the listed people and the group members, not the admins', async () => {
  const p = createPermissions({
    adminUserIds: ['U0ADMIN'],
    responderUserIds: ['U0LISTED'],
    responderUsergroupId: 'S0RESPOND',
  });
  expect(await p.canReply('U0LISTED', client)).toBe(true);
  expect(await p.canReply('U0GROUPED', client)).toBe(true);
  expect(await p.canReply('U0ADMIN', client)).toBe(false);
  expect(await p.canReply('U0OTHER', client)).toBe(false);
  expect(await p.canChange('U0ADMIN', client)).toBe(true);
  expect(p.whoCanReply()).toBe(
    'Only <@U0LISTED> and members of <!subteam^S0RESPOND> can reply to customers. ' +
      'Ask one of them, or ask an admin to add you to RESPONDER_USER_IDS.',
  );
});

it('without responders the admins reply (group included); without admins everyone does', async () => {
  const admins = createPermissions({ adminUserIds: ['U0ADMIN'], adminUsergroupId: 'S0ADMINS' });
  expect(await admins.canReply('U0ADMIN', client)).toBe(true);
  expect(await admins.canReply('U0ADMINGRP', client)).toBe(true);
  expect(await admins.canReply('U0OTHER', client)).toBe(false);
  expect(admins.whoCanReply()).toMatch(/^Only <@U0ADMIN> and members of <!subteam\^S0ADMINS> can reply to customers/);
  const open = createPermissions({ adminUserIds: [] });
  expect(await open.canReply('U0ANYONE', client)).toBe(true);
});

it('a responder group Slack cannot list lets nobody in but the listed people', async () => {
  const p = createPermissions({ adminUserIds: [], responderUserIds: ['U0LISTED'], responderUsergroupId: 'S0RESPOND' });
  fake.failNext('usergroups.users.list', 'missing_scope');
  expect(await p.canReply('U0GROUPED', client)).toBe(false);
  expect(await p.canReply('U0LISTED', client)).toBe(true);
});

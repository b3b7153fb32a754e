/**
 * manifest.yml against Slack's published manifest JSON schema (vendored in vendor/slack-manifest-schema/, draft-07),
 * plus what this app itself needs from it.
 */
import { SUBCOMMANDS } from '../../src/slack/grammar.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type AnySchemaObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { parse } from 'yaml';

// ajv-formats is CommonJS with a default export; under NodeNext the default import is the module object.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

/** The project root; the schema is vendored inside the repository so a clone alone can run the tests. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const schemaPath = fileURLToPath(
  new URL('vendor/slack-manifest-schema/manifest.schema.1.0.0.json', new URL('../..', import.meta.url)),
);

interface Manifest {
  display_information: { name: string; description?: string; long_description?: string };
  features: {
    app_home: { home_tab_enabled?: boolean; messages_tab_enabled?: boolean; messages_tab_read_only_enabled?: boolean };
    bot_user: { display_name: string };
    slash_commands: Array<{
      command: string;
      url?: string;
      description: string;
      usage_hint?: string;
      should_escape?: boolean;
    }>;
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url?: string };
    org_deploy_enabled: boolean;
    socket_mode_enabled: boolean;
    token_rotation_enabled: boolean;
  };
}

const text = readFileSync(`${root}manifest.yml`, 'utf-8');
const manifest = parse(text) as Manifest;

/** A validator for Slack's schema, with its two non-standard keywords: `regex` (a pattern) and `_note` (a remark). */
function slackManifestValidator() {
  const schema = JSON.parse(readFileSync(schemaPath, 'utf-8')) as AnySchemaObject;
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#'); // the draft plain `Ajv` implements
  // strictTypes off: the schema's own OAuth-provider section puts minItems on non-array items, which ajv would log.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: '_note' });
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    validate: (pattern: string, data: string) => new RegExp(pattern).test(data),
  });
  return ajv.compile(schema);
}

/** The scope each subscribed bot event needs (docs/slack-platform-notes.md §5). */
const EVENT_SCOPES: Record<string, string | null> = {
  app_home_opened: null,
  'message.channels': 'channels:history',
  'message.groups': 'groups:history',
  'message.im': 'im:history',
  'message.mpim': 'mpim:history',
  app_mention: 'app_mentions:read',
  // channels:read for public channels, groups:read for private ones (both asked for).
  member_joined_channel: 'channels:read',
  channel_unarchive: 'channels:read',
  group_unarchive: 'groups:read',
};

/** Scopes the app's features call for. */
const NEEDED_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:join',
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'im:history',
  'im:write',
  'files:read',
  'files:write',
  'reactions:write',
  'users:read',
  'users:read.email',
  'usergroups:read',
];

describe('manifest.yml', () => {
  let validate: ReturnType<typeof slackManifestValidator>;
  beforeAll(() => {
    validate = slackManifestValidator();
  });

  it("is valid against Slack's manifest schema", () => {
    const ok = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check can fail: a broken manifest is rejected', () => {
    const broken = structuredClone(manifest) as unknown as Record<string, Record<string, unknown>>;
    broken.display_information!.background_color = 'blue';
    (broken.features!.slash_commands as Array<Record<string, unknown>>)[0]!.command = 'campaign';
    delete (broken.settings!.interactivity as Record<string, unknown>).is_enabled;
    expect(validate(broken)).toBe(false);
    const failed = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(failed).toEqual(
      expect.arrayContaining([
        '/display_information/background_color regex',
        '/features/slash_commands/0/command pattern',
        '/settings/interactivity required',
      ]),
    );
  });

  it('has /campaign with every subcommand in its usage hint, escaped so channels arrive as ids', () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/campaign']);
    const cmd = manifest.features.slash_commands[0]!;
    const hint = (cmd.usage_hint ?? '').split('|').map((s) => s.trim());
    expect(hint).toEqual([...SUBCOMMANDS]);
    expect(cmd.should_escape).toBe(true);
  });

  it('asks for every scope the features need, and the scope of every event it subscribes to', () => {
    const scopes = manifest.oauth_config.scopes.bot;
    expect(scopes).toEqual(expect.arrayContaining(NEEDED_SCOPES));
    expect(new Set(scopes).size).toBe(scopes.length);
    const events = manifest.settings.event_subscriptions.bot_events;
    expect(events).toEqual(
      expect.arrayContaining([
        'app_home_opened',
        'message.channels',
        'message.groups',
        'message.im',
        'member_joined_channel',
        'channel_unarchive',
        'group_unarchive',
      ]),
    );
    for (const event of events) {
      expect(Object.keys(EVENT_SCOPES)).toContain(event);
      const scope = EVENT_SCOPES[event];
      if (scope) expect(scopes).toContain(scope);
    }
  });

  it('is set up for HTTP mode, with the placeholder host explained, a Home tab and a writable Messages tab', () => {
    const urls = [
      manifest.features.slash_commands[0]!.url,
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
    ];
    expect(urls).toEqual(Array(3).fill('https://YOUR-HOST/slack/events'));
    expect(text.split('\n')[0]).toMatch(/^#/);
    expect(text.slice(0, text.indexOf('_metadata'))).toContain('replace every');
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings).toMatchObject({
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    });
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    expect(manifest.display_information.name).toBe('Outreach');
    expect((manifest.display_information.long_description ?? '').length).toBeGreaterThanOrEqual(175);
  });
});

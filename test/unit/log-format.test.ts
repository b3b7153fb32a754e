/**
 * LOG_FORMAT through `npm start`'s entry point: pretty lines when asked (also into a pipe), JSON lines by default
 * when stdout is not a terminal; secrets hidden in both.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';

const BOT = 'xoxb-1111-2222-logformatSECRET';
const SIGNING = 'signing-secret-logformat-SECRET';

/** Starts the entry point and returns its output once it logged the `starting` line; then kills it. */
async function firstLines(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_OPTIONS: '',
      SLACK_BOT_TOKEN: BOT,
      SLACK_SIGNING_SECRET: SIGNING,
      // Nothing listens there: the app gets as far as logging its configuration.
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: String(port),
      STATE_FILE: join(mkdtempSync(join(tmpdir(), 'log-format-')), 'state.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no starting line in: ${out}`)), 50_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        if (/starting/.test(out) && out.endsWith('\n')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', () => reject(new Error(`exited before the starting line: ${out}`)));
    });
  } finally {
    child.kill('SIGKILL');
  }
  return out;
}

it('writes pretty lines with LOG_FORMAT=pretty, secrets hidden', async () => {
  const out = await firstLines({ LOG_FORMAT: 'pretty' });
  const line = out.split('\n').find((l) => l.includes('starting'))!;
  expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: starting \{"config":\{.*"logFormat":"pretty".*\}\}$/);
  expect(() => JSON.parse(line) as unknown).toThrow();
  expect(out).not.toContain('SECRET');
}, 60_000);

it('writes JSON lines into a pipe by default, secrets hidden', async () => {
  const out = await firstLines({});
  const line = out.split('\n').find((l) => l.includes('starting'))!;
  expect(JSON.parse(line)).toMatchObject({
    level: 30,
    msg: 'starting',
    config: { logFormat: 'auto (pretty in a terminal, json otherwise)' },
  });
  expect(out).not.toContain('SECRET');
}, 60_000);

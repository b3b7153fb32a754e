/**
 * `npm start`'s entry point as a child process with nothing set: the playground, which prints exactly one line
 * saying where to open it and answers GET / with its Content-Security-Policy; and the refusal, naming both ways out,
 * when the service's credentials are set without a Slack token (the playground never reaches real customers).
 */
import { CONTENT_SECURITY_POLICY } from '../../src/playground/server.js';
import { runEntry as run, type EntryProcess } from '../support/entry-process.js';

/** Resolves with the first line once the process printed one. */
function firstLine(p: EntryProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const out = p.output();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    };
    p.child.stdout!.on('data', check);
    p.child.stderr!.on('data', check);
    p.exit.then((code) => reject(new Error(`exited ${code}: ${p.output()}`))).catch(reject);
  });
}

it('with nothing set, starts the playground: one line naming the URL, and the page with its CSP', async () => {
  // PORT=0: any free port, and the line names the real one.
  const p = run({ PORT: '0' });
  try {
    const line = await firstLine(p);
    const url = /^Playground: open (http:\/\/127\.0\.0\.1:(\d+)\/)$/.exec(line);
    expect(url).not.toBeNull();
    expect(Number(url![2])).toBeGreaterThan(0);
    const page = await fetch(url![1]!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const state = await fetch(new URL('/playground/api/state?as=U0SAM', url![1]!));
    expect(((await state.json()) as { command: { name: string } }).command.name).toBe('/campaign');
    expect(p.output().trim().split('\n')).toEqual([line]);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  } finally {
    p.child.kill('SIGKILL');
  }
}, 60000);

it("refuses the service's credentials without a Slack token, in one line naming both ways out", async () => {
  const p = run({ OUTREACH_BASE_URL: 'http://127.0.0.1:9/api/v1.0', OUTREACH_API_KEY: 'sk_live_SECRET_never_shown' });
  expect(await p.exit).toBe(1);
  const lines = p.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^outreach-slack cannot start: SLACK_BOT_TOKEN is not set/);
  expect(lines[0]).toContain('to connect your Slack');
  expect(lines[0]).toContain('unset OUTREACH_BASE_URL and OUTREACH_API_KEY to try the playground');
  expect(p.output()).not.toContain('sk_live_SECRET_never_shown');
}, 30000);

it("npm run playground refuses the service's credentials: the playground never reaches real customers", async () => {
  const p = run({ OUTREACH_BASE_URL: 'http://127.0.0.1:9/api/v1.0', OUTREACH_API_KEY: 'sk_live_SECRET_never_shown' }, [
    '--playground',
  ]);
  expect(await p.exit).toBe(1);
  const lines = p.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('The playground never reaches real customers');
  expect(lines[0]).toContain('Unset them');
}, 30000);

/** `npm start`'s entry point (src/index.ts) as a child process with only the environment given, its output read. */
import { spawn, type ChildProcess } from 'node:child_process';

const ENTRY = ['--import', 'tsx', 'src/index.ts'];

export interface EntryProcess {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  exit: Promise<number | null>;
}

export function runEntry(env: Record<string, string>, args: string[] = []): EntryProcess {
  const child = spawn(process.execPath, [...ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

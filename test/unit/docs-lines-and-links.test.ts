/**
 * The README and docs/ read in a terminal and on GitHub alike: no line over 120 characters, and every link to another
 * file of the repository (and to a heading in it) leads somewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const MAX = 120;

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = text(file)
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => anchor(line.replace(/^#+ /, ''))));
}

describe('the README and docs/', () => {
  it.each(DOCS)('%s has no line over 120 characters', (file) => {
    const long = text(file)
      .split('\n')
      .map((line, i) => ({ line: i + 1, chars: [...line].length }))
      .filter((l) => l.chars > MAX);
    expect(long).toEqual([]);
  });

  it.each(DOCS)('%s links only to files and headings that exist', (file) => {
    const broken: string[] = [];
    for (const [, target] of text(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, hash] = target!.split('#');
      const to = path ? relative(ROOT, join(ROOT, dirname(file), path)) : file;
      if (!existsSync(join(ROOT, to))) broken.push(target!);
      else if (hash !== undefined && to.endsWith('.md') && !anchorsOf(to).has(hash)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});

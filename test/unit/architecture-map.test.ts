/**
 * docs/architecture.md is the map of the code: every file under src/ is named there by its path below src/ (in
 * backticks), and every such path it names still exists. And the files of src/, test/support/ and bench/support/ are
 * named in one case, kebab-case (`fair-share.ts`, not `fairShare.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
const MAP = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [relative(SRC, join(dir, entry.name))],
  );
}

/** Everything the map writes in backticks. */
const named = new Set([...MAP.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!));

describe('docs/architecture.md, the map of the code', () => {
  it('names every file of src/ by its path below src/', () => {
    const files = filesUnder(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => !named.has(file))).toEqual([]);
  });

  it('names no file of src/ that is gone', () => {
    const topLevel = new Set(readdirSync(SRC));
    // A path into one of src/'s folders, or a file at its top (`main.ts`); `poster.ts` alone is a name in a sentence.
    const paths = [...named].filter((text) => {
      if (!/^[\w./-]+\.(ts|md|html|css|json)$/.test(text)) return false;
      const [first, ...rest] = text.split('/');
      return rest.length > 0 ? topLevel.has(first!) : topLevel.has(text);
    });
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => !existsSync(join(SRC, path)))).toEqual([]);
  });

  it('names the files of src/, test/support/ and bench/support/ in kebab-case', () => {
    const under = (dir: string) => filesUnder(join(ROOT, dir)).map((f) => relative(ROOT, join(SRC, f)));
    const files = [...under('src'), ...under('test/support'), ...under('bench/support')];
    const code = files.filter((f) => /\.(ts|js|mjs)$/.test(f));
    expect(code.length).toBeGreaterThan(150);
    expect(code.filter((f) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)+$/.test(f.split('/').at(-1)!))).toEqual([]);
  });
});

/**
 * How to start one of the app's worker threads (the contacts reader, the chart renderer) from the file `callerUrl`
 * that owns it: the compiled `<name>.js` next to that file (dist/, `npm start`), or, when it runs as TypeScript
 * (jest, tsx), `<name>.ts` through tsx's loader, registered inside the worker. Imports nothing of the app.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The `Worker`'s script and whether it is code to evaluate (`eval` option) rather than a file. */
export function workerScript(callerUrl: string, name: string): { script: string | URL; evalCode: boolean } {
  if (!callerUrl.endsWith('.ts')) return { script: new URL(`./${name}.js`, callerUrl), evalCode: false };
  // tsx's `tsx/esm/api` export, import condition (its require build cannot register ESM hooks from a worker).
  const tsxRoot = dirname(createRequire(callerUrl).resolve('tsx/package.json'));
  const tsx = pathToFileURL(join(tsxRoot, 'dist', 'esm', 'api', 'index.mjs')).href;
  const target = new URL(`./${name}.ts`, callerUrl).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(target)}); });`,
    evalCode: true,
  };
}

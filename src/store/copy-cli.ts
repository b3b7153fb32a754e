/** Entry point of `npm run state:copy`: copies an embedded state into PostgreSQL (see runStateCopy in copy.ts). */
import { runStateCopy } from './copy.js';

process.exitCode = await runStateCopy(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

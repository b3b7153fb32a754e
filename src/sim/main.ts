/**
 * `npm run sim`: the simulator alone, in sandbox mode (demo data + live driver), on PORT (default 4010).
 * Environment: PORT, SIM_API_KEY (default sim-key), SIM_TICK_MS (driver interval, default 1500), SIM_SEED.
 */
import { DEFAULT_ORG, startSimulator } from './server.js';

const port = Number(process.env.PORT ?? 4010);
const apiKey = process.env.SIM_API_KEY || 'sim-key';
const sim = await startSimulator({
  port,
  orgs: { [apiKey]: DEFAULT_ORG },
  sandbox: {
    tickMs: process.env.SIM_TICK_MS ? Number(process.env.SIM_TICK_MS) : undefined,
    seed: process.env.SIM_SEED ? Number(process.env.SIM_SEED) : undefined,
  },
});

console.log(`Campaign Outreach Service simulator (sandbox) listening.
  OUTREACH_BASE_URL=${sim.baseUrl}
  OUTREACH_API_KEY=${sim.apiKey}
  control: ${sim.origin}/_sim/   (e.g. curl ${sim.origin}/_sim/requests)`);

// The process's own event loop is kept alive by the server; the driver's timer is unref'd.
const stop = () => {
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

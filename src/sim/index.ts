/** Public surface of the simulator. */
export { startSimulator } from './server.js';
export type { Simulator, SimulatorOptions } from './server.js';
export type { SeedCampaignInput } from './control.js';
export { SANDBOX_AGENTS, SANDBOX_INTEGRATIONS } from './sandbox.js';

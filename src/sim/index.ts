/** Public surface of the simulator. */
export { startSimulator, DEFAULT_API_KEY, DEFAULT_ORG, IDEMPOTENCY_WINDOW_MS } from './server.js';
export type { Simulator, SimulatorOptions } from './server.js';
export type { SimControl, RecordedRequest, SeedCampaignInput, ThreadPatch, CampaignState } from './control.js';
export type { CallPatch, CreateCallInput, NewMessage } from './conversations.js';
export type { FaultSpec } from './faults.js';
export type { AgentReplyFn, PlanLimits, AgentRec, IntegrationRec } from './model.js';
export type { SandboxOptions } from './sandbox.js';
export { SANDBOX_AGENTS, SANDBOX_INTEGRATIONS } from './sandbox.js';

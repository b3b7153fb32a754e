/** jest globalTeardown: stops the run's PostgreSQL (see postgres.ts). */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __outreachPg?: { stop(): Promise<void> } }).__outreachPg?.stop();
}

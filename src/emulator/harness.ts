// The emulator's shared clock and sequence, so a test can order the Web API's calls against the driver's acks and
// the Socket Mode acks; and the JSON object type all three speak.

export type Json = Record<string, unknown>;

let seq = 0;
/** Next value of the sequence shared by every emulator call and driver response of this process. */
export function nextHarnessSeq(): number {
  return ++seq;
}
/** The sequence's current value. */
export function harnessSeq(): number {
  return seq;
}
/** Epoch milliseconds with sub-millisecond resolution (monotonic within the process). */
export function harnessNow(): number {
  return performance.timeOrigin + performance.now();
}

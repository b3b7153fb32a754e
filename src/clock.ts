/** The time the app goes by. Tests hand the app one they move forward (StartOptions.clock); production uses the system's. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

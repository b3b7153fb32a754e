/** A clock a test sets (StartOptions.clock): the app's time moves only when the test moves it. */
import type { Clock } from '../../src/clock.js';

export class TestClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  /** Moves the time forward by `ms`. */
  advance(ms: number): void {
    this.ms += ms;
  }
  /** Sets the time to an ISO instant. */
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
}

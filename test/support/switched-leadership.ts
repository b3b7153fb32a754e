/**
 * A leader lease a test hands out and takes back (the Leadership of src/store/coordination.ts): each time it is won,
 * a new term with the next epoch, as the PostgreSQL lease draws one.
 */
import type { Leadership } from '../../src/store/coordination.js';

export class SwitchedLeadership implements Leadership {
  private leader = false;
  /** Terms handed out so far. */
  private terms = 0;
  private readonly listeners = new Set<(leader: boolean) => void>();

  set(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    if (leader) this.terms++;
    for (const l of [...this.listeners]) l(leader);
  }

  isLeader(): boolean {
    return this.leader;
  }

  epoch(): number | undefined {
    return this.leader ? this.terms : undefined;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): Promise<void> {
    this.set(false);
    return Promise.resolve();
  }
}

// Group commit for execution pushes: pushes in one event-loop turn share one transaction, and each is
// acknowledged after it commits, with its own total.
import type { SandboxStore } from './store.ts';

interface Waiter {
  resolve: (total: number) => void;
  reject: (error: unknown) => void;
}

export class ExecutionCounter {
  private readonly store: SandboxStore;
  private pending = new Map<number, Waiter[]>();

  constructor(store: SandboxStore) {
    this.store = store;
  }

  /** Resolves with this push's own total once it is committed. */
  push(serviceId: number): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setImmediate(() => this.flush());
      const waiting = this.pending.get(serviceId) ?? [];
      waiting.push({ resolve, reject });
      this.pending.set(serviceId, waiting);
    });
  }

  private flush(): void {
    const batches = this.pending;
    this.pending = new Map();
    for (const [serviceId, waiting] of batches) {
      try {
        const total = this.store.addExecutions(serviceId, waiting.length);
        const first = total - waiting.length + 1;
        waiting.forEach((w, i) => w.resolve(first + i));
      } catch (error) {
        for (const w of waiting) w.reject(error);
      }
    }
  }
}

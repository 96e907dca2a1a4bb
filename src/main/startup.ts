// Keydesk's start as the window meets it: the window opens at once and asks `app.startup` whether the core is up,
// and why not when its start failed. Every other operation waits for the core. Electron's main and the harness use it.
import { EventEmitter } from 'node:events';
import type { EventMap } from '../shared/contract.ts';
import type { StartupStatus } from '../shared/domain.ts';
import { EVENT_NAMES, OPERATION_NAMES, type EventName } from '../shared/operations.ts';
import { fail, ok, type Result } from '../shared/result.ts';
import type { Core } from './core.ts';
import { createHandlers, type Handlers } from './handlers/index.ts';

type AnyHandler = (input: unknown) => Promise<Result<unknown>>;

export class Startup {
  private status: StartupStatus = { state: 'starting', failure: null };
  private readonly events = new EventEmitter();
  private settle: (handlers: Handlers | null) => void = () => undefined;
  /** The core's handlers once it is up; null when the start failed. */
  private readonly ready = new Promise<Handlers | null>((resolve) => {
    this.settle = resolve;
  });
  /** Every operation of the contract: `app.startup` at once, the rest once the core is up. */
  readonly handlers: Handlers;

  constructor() {
    const gated: Record<string, AnyHandler> = {};
    for (const name of OPERATION_NAMES) {
      gated[name] = async (input) => {
        const handlers = await this.ready;
        if (handlers === null) return fail('INTERNAL', `Keydesk could not start: ${this.status.failure ?? 'no reason was given'}`);
        return (handlers[name] as AnyHandler)(input);
      };
    }
    gated['app.startup'] = () => Promise.resolve(ok(this.status));
    // Each entry is the named operation's own handler (or app.startup's), so the map is exactly Handlers.
    this.handlers = gated as Handlers;
  }

  /** Starts the core with `start` (Core.start); resolves the core, or rejects with why it could not start (the window hears that too). */
  async run(start: () => Promise<Core>): Promise<Core> {
    try {
      const core = await start();
      for (const event of EVENT_NAMES) {
        if (event === 'app.startup') continue;
        core.on(event, (payload) => {
          this.events.emit(event, payload);
        });
      }
      this.settle(createHandlers(core));
      this.update({ state: 'ready', failure: null });
      return core;
    } catch (error) {
      this.settle(null);
      this.update({ state: 'failed', failure: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Every event the window hears: the start's own, then the core's once it is up. */
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  private update(status: StartupStatus): void {
    this.status = status;
    this.events.emit('app.startup', status);
  }
}

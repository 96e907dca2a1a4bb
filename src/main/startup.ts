// Keydesk's start as the window meets it: the window opens at once and asks `app.startup` whether the core is up,
// and why not when its start failed. Every other operation waits for the core. A start that keydesk.db or
// sandbox.db stopped offers the newest backup or a new start (`app.startAgain`). Electron's main and the harness use it.
import { EventEmitter } from 'node:events';
import type { EventMap } from '../shared/contract.ts';
import type { StartupStatus } from '../shared/domain.ts';
import { EVENT_NAMES, OPERATION_NAMES, type EventName } from '../shared/operations.ts';
import { fail, ok, type Result } from '../shared/result.ts';
import type { Core } from './core.ts';
import { logCoreEvents } from './event-log.ts';
import { createHandlers, type Handlers } from './handlers/index.ts';
import { log } from './log.ts';
import { CountSampler } from './sampler.ts';
import { StartRefused } from './store/start-files.ts';

type AnyHandler = (input: unknown) => Promise<Result<unknown>>;
/** Starts the core; `restore`: the backup of keydesk.db to put in place first (the window's choice), or null. */
export type StartCore = (restore: string | null) => Promise<Core>;

export class Startup {
  private status: StartupStatus = { state: 'starting', failure: null };
  private readonly events = new EventEmitter();
  private settle: (handlers: Handlers | null) => void = () => undefined;
  /** The core's handlers once it is up; null when the start failed (a new start makes a new promise). */
  private ready = this.waitForCore();
  private start: StartCore | null = null;
  private up: (core: Core) => void = () => undefined;
  /** Every operation of the contract: `app.startup` and `app.startAgain` at once, the rest once the core is up. */
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
    gated['app.startAgain'] = (input) => {
      const { restore } = input as { restore: string | null };
      if (this.status.state !== 'failed' || this.start === null)
        return Promise.resolve(fail('CONFLICT', 'Keydesk is not stopped at its start.'));
      void this.attempt(restore);
      return Promise.resolve(ok(null));
    };
    // Each entry is the named operation's own handler (or app.startup's), so the map is exactly Handlers.
    this.handlers = gated as Handlers;
  }

  /**
   * Starts the core with `start` (Core.start) and resolves it once one is up. A start that fails says why (the
   * window hears it) and waits for the window's app.startAgain: this resolves only with a core.
   */
  run(start: StartCore): Promise<Core> {
    if (this.start !== null) throw new Error('Startup.run runs once: a new start is app.startAgain.');
    this.start = start;
    const core = new Promise<Core>((resolve) => (this.up = resolve));
    void this.attempt(null);
    return core;
  }

  private async attempt(restore: string | null): Promise<void> {
    if (this.status.state === 'failed') {
      this.ready = this.waitForCore();
      this.update({ state: 'starting', failure: null });
    }
    try {
      const core = await (this.start as StartCore)(restore);
      logCoreEvents(core);
      for (const event of EVENT_NAMES) {
        if (event === 'app.startup') continue;
        core.on(event, (payload) => {
          this.events.emit(event, payload);
        });
      }
      this.settle(createHandlers(core));
      const sampler = new CountSampler(core);
      core.sampler = sampler;
      sampler.start();
      this.update({ state: 'ready', failure: null });
      log.info('start: Keydesk is ready');
      this.up(core);
    } catch (error) {
      console.error('keydesk: the start failed:', error);
      this.settle(null);
      const failure = error instanceof Error ? error.message : String(error);
      this.update(error instanceof StartRefused ? { state: 'failed', failure, offer: error.offer } : { state: 'failed', failure });
    }
  }

  /** Every event the window hears: the start's own, then the core's once it is up. */
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  private waitForCore(): Promise<Handlers | null> {
    return new Promise<Handlers | null>((resolve) => {
      this.settle = resolve;
    });
  }

  private update(status: StartupStatus): void {
    this.status = status;
    this.events.emit('app.startup', status);
  }
}

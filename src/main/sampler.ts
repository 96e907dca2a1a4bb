// The execution count sampled by main while Keydesk runs, whatever view is shown: one read of the active
// profile's count per interval, and a note that this run was alive (the history chart marks where Keydesk was closed).
import type { Core, ActiveProfile } from './core.ts';
import type { Result } from '../shared/result.ts';

/** Reads the profile's count, records it as a sample and tells the window; the read's answer either way. */
export async function sampleCount(core: Core, a: ActiveProfile): Promise<Result<{ count: number; at: string }>> {
  const r = await a.client.executionCount();
  if (!r.ok) return r;
  const at = new Date().toISOString();
  await core.writer.run('sample', { profileId: a.profile.id, count: r.data, at });
  core.emit('executions.sampled', { profileId: a.profile.id, at, count: r.data });
  void core.thinSamples();
  return { ok: true, data: { count: r.data, at } };
}

export class CountSampler {
  private readonly core: Core;
  private everyMs: number;
  private readonly startedAt = new Date().toISOString();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;

  /** `everyMs` left out: the Settings view's interval, followed as it changes. */
  constructor(core: Core, everyMs?: number) {
    this.core = core;
    this.everyMs = everyMs ?? core.settings.value.sampleEverySeconds * 1000;
    if (everyMs === undefined)
      this.unsubscribe = core.settings.subscribe((now, before) => {
        if (now.sampleEverySeconds !== before.sampleEverySeconds) this.setIntervalMs(now.sampleEverySeconds * 1000);
      });
  }

  get intervalMs(): number {
    return this.everyMs;
  }

  /** Notes this run alive now, then samples every interval until stop(). */
  start(): void {
    void this.alive();
    this.schedule();
  }

  /** A new interval (the Settings view's), from now on. */
  setIntervalMs(ms: number): void {
    this.everyMs = ms;
    if (this.timer !== null) this.schedule();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** One sample now: the run noted alive, and the active profile's count read unless a read this interval took it. */
  tick(): Promise<void> {
    this.ticking ??= (async () => {
      try {
        await this.alive();
        const active = await this.core.requireClient();
        if ('ok' in active) return;
        const latest = this.core.db.latestSample(active.profile.id);
        // The Overview's own reads (every few seconds while it is open) sample already.
        if (latest !== null && Date.now() - Date.parse(latest.at) < this.everyMs / 2) return;
        await sampleCount(this.core, active);
      } catch (error) {
        console.error('keydesk: sampling the execution count failed:', error);
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  private schedule(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  private async alive(): Promise<void> {
    await this.core.writer.run('runAlive', { startedAt: this.startedAt, at: new Date().toISOString() });
  }
}

// The reader's connection finds a profile's deep-page anchors ahead of need, in short slices on its event loop: a little
// after the ledger was read, and after the ledger writer's commits (whose pages then go back to the OS).

/** Slices of at most WARM_SLICE_MS, WARM_GAP_MS apart, starting WARM_DELAY_MS after the ledger was last read. */
const WARM_DELAY_MS = 250;
const WARM_SLICE_MS = 8;
const WARM_GAP_MS = 15;
/**
 * A slice that finds this many more ledger_log entries than the last one waits WRITES_WAIT_MS: following each
 * 10,000-row commit of a large generate cost the reader 4–11 s of CPU at 1,000,000 keys. Far behind, anchors are found again.
 */
const WRITES_BURST = 2_000;
const WRITES_WAIT_MS = 1_000;

/**
 * What the warming drives: the connection's state, the last ledger_log entry, one slice of anchor work (true
 * while work is left), and the page cache's release.
 */
export interface WarmingWork {
  isOpen: () => boolean;
  logHead: () => number;
  prepare: (profileId: string, budgetMs: number) => boolean;
  release: () => void;
}

export class LedgerWarming {
  /** Off (a connection other than the ledger reader's): nothing is scheduled. */
  private readonly on: boolean;
  private readonly work: WarmingWork;
  private profile: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** The warming under way follows the ledger writer's commits: its pages go back when it is done. */
  private releaseAfter = false;
  /** The last ledger_log entry the previous slice saw (-1: none yet). */
  private seenHead = -1;

  constructor(on: boolean, work: WarmingWork) {
    this.on = on;
    this.work = work;
  }

  /**
   * The ledger writer committed (main hears it from the writer's progress): the anchors follow its changes in a
   * slice soon after, rather than in the next page asked for, and the pages that read go back once they have.
   */
  written(): void {
    if (this.profile === null) return;
    this.releaseAfter = this.on;
    this.soon(this.profile);
  }

  /** Prepares the profile's anchors in slices, starting a little after the ledger was read. */
  soon(profileId: string): void {
    if (!this.on) return;
    this.profile = profileId;
    clearTimeout(this.timer);
    const slice = (): void => {
      this.timer = undefined;
      const profile = this.profile;
      if (profile === null || !this.work.isOpen()) return;
      let more = false;
      try {
        // The writer is writing in bulk: the anchors follow once it pauses, or are found again if far behind.
        const head = this.work.logHead();
        const burst = this.seenHead >= 0 && head - this.seenHead >= WRITES_BURST;
        this.seenHead = head;
        if (burst) {
          this.timer = setTimeout(slice, WRITES_WAIT_MS).unref();
          return;
        }
        more = this.work.prepare(profile, WARM_SLICE_MS);
      } catch (error) {
        // Busy or closing: the next read tries again; a jump finds what it needs itself meanwhile.
        console.error("keydesk: preparing the ledger's deep pages failed:", error);
      }
      if (more) this.timer = setTimeout(slice, WARM_GAP_MS).unref();
      else if (this.releaseAfter) {
        // Following the writer's commits read their rows and the sort indexes around them (up to the whole 32 MiB
        // cache): those pages go back. A warming after a page read keeps them, warm between keystrokes.
        this.releaseAfter = false;
        this.work.release();
      }
    };
    this.timer = setTimeout(slice, WARM_DELAY_MS).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

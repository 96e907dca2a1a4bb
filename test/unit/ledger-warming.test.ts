// The reader's warming: anchor slices after a read, held back while the ledger writer writes in bulk.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LedgerWarming, type WarmingWork } from '../../src/main/store/ledger-warming.ts';

/** Work whose log head the test moves; each prepare is one slice, and `left` slices of work remain. */
function fakeWork(left: number): WarmingWork & { head: number; prepared: number; released: number } {
  const work = {
    head: 0,
    prepared: 0,
    released: 0,
    isOpen: () => true,
    logHead: () => work.head,
    prepare: () => {
      work.prepared++;
      return work.prepared < left;
    },
    release: () => {
      work.released++;
    },
  };
  return work;
}

describe('ledger warming', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prepares in slices after a read until no work is left', async () => {
    const work = fakeWork(3);
    const warming = new LedgerWarming(true, work);
    warming.soon('p');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(work.prepared).toBe(3);
    expect(work.released).toBe(0);
    warming.stop();
  });

  it('waits while the log grows in bulk, then follows once it pauses', async () => {
    const work = fakeWork(1);
    const warming = new LedgerWarming(true, work);
    warming.soon('p');
    await vi.advanceTimersByTimeAsync(300);
    expect(work.prepared).toBe(1);
    // A large generate: 10,000 log entries a commit, a commit and a read every 400 ms.
    for (let i = 0; i < 10; i++) {
      work.head += 10_000;
      warming.written();
      await vi.advanceTimersByTimeAsync(400);
    }
    expect(work.prepared).toBe(1);
    // The writer is done: the next slice finds the head where the last one left it, and prepares.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(work.prepared).toBe(2);
    expect(work.released).toBe(1);
    warming.stop();
  });

  it('follows a small write at once', async () => {
    const work = fakeWork(1);
    const warming = new LedgerWarming(true, work);
    warming.soon('p');
    await vi.advanceTimersByTimeAsync(300);
    work.head += 50;
    warming.written();
    await vi.advanceTimersByTimeAsync(300);
    expect(work.prepared).toBe(2);
    expect(work.released).toBe(1);
    warming.stop();
  });
});

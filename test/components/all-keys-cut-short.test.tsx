// All keys' notice of a generate an earlier session stopped recording: it says keys may be missing, looks them up
// by their note and reads the list again, can be dismissed, and for keys with no note says they are found by value only.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CutShortGenerate } from '../../src/shared/domain.ts';
import { fake, installBridge, readySession, sandboxProfile } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { AllKeys } = await import('../../src/renderer/src/views/AllKeys/AllKeys.tsx');
const initial = useKeydesk.getState();

const NOTED: CutShortGenerate = { id: 'm-1', note: 'spring batch', count: 100_000, at: '2026-03-01T10:00:00.000Z' };
const UNNOTED: CutShortGenerate = { id: 'm-2', note: '', count: 4_000, at: '2026-03-02T10:00:00.000Z' };
let listed: CutShortGenerate[];

beforeEach(() => {
  readySession(useKeydesk, initial, [sandboxProfile]);
  listed = [NOTED];
  fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
  fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
  fake.impl['ledger.cutShort'] = () => Promise.resolve({ ok: true, data: { generates: listed } });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const said = (re: RegExp) => screen.findByText((_, el) => el?.tagName === 'P' && re.test(el.textContent));

describe('All keys: a generate cut short while recorded', () => {
  it('says keys may be missing and finds them by their note', async () => {
    fake.impl['ledger.findCutShort'] = () => {
      listed = [];
      return Promise.resolve({ ok: true, data: { found: 100_000 } });
    };
    render(<AllKeys />);
    await said(
      /A generate of 100,000 keys .* was cut short while Keydesk recorded them: some may be missing here\. Their note: “spring batch”/,
    );
    const reads = fake.calls.filter((c) => c.name === 'ledger.query').length;
    await userEvent.click(screen.getByRole('button', { name: 'Look them up by their note' }));
    await waitFor(() => {
      expect(screen.queryByText(/was cut short/)).toBeNull();
    });
    expect(fake.calls.filter((c) => c.name === 'ledger.findCutShort').map((c) => c.input)).toEqual([{ id: 'm-1' }]);
    // The keys found are in the ledger now: the table reads them.
    expect(fake.calls.filter((c) => c.name === 'ledger.query').length).toBeGreaterThan(reads);
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toContain('Found 100,000 keys by their note; they are recorded here.');
  });

  it('goes when dismissed', async () => {
    fake.impl['ledger.dismissCutShort'] = () => {
      listed = [];
      return Promise.resolve({ ok: true, data: null });
    };
    render(<AllKeys />);
    await said(/was cut short/);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => {
      expect(screen.queryByText(/was cut short/)).toBeNull();
    });
    expect(fake.calls.filter((c) => c.name === 'ledger.dismissCutShort').map((c) => c.input)).toEqual([{ id: 'm-1' }]);
  });

  it('says note-less keys are found by value only, offering no lookup', async () => {
    listed = [UNNOTED];
    render(<AllKeys />);
    await said(
      /A generate of 4,000 keys .* some may be missing here\. They have no note, so on the service they can be found by value only\./,
    );
    expect(screen.queryByRole('button', { name: 'Look them up by their note' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
  });
});

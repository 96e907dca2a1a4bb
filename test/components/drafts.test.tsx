// What a new user met walking the app: a refused filter, a form draft carried to another profile, field-path
// jargon, stale results beside a new attempt. Each case is what is on screen (or in the store) after it.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRow, ValidationReport } from '../../src/shared/domain.ts';
import { fake, installBridge, readySession, remoteProfile, sandboxProfile } from '../support/fake-bridge.ts';

installBridge();
// jsdom has no layout: the table measures its viewport once and never again.
if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { AllKeys } = await import('../../src/renderer/src/views/AllKeys/AllKeys.tsx');
const { Identifier } = await import('../../src/renderer/src/views/Identifier/Identifier.tsx');
const { GenerateForm } = await import('../../src/renderer/src/views/Keys/GenerateForm.tsx');
const { EditProfile } = await import('../../src/renderer/src/views/Profiles/EditProfile.tsx');
const { Profiles } = await import('../../src/renderer/src/views/Profiles/Profiles.tsx');
const { Overview } = await import('../../src/renderer/src/views/Overview/Overview.tsx');
const { Keyless } = await import('../../src/renderer/src/views/Keyless/Keyless.tsx');
const { Validate } = await import('../../src/renderer/src/views/Validate/Validate.tsx');
const initial = useKeydesk.getState();

const row = (value: string): LedgerRow => ({
  value,
  note: 'spring',
  status: 'generated',
  isPremium: false,
  expiresAt: null,
  daysKey: null,
  hwid: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
});

beforeEach(() => {
  readySession(useKeydesk, initial);
  fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
});

describe('All keys: a filter main refuses', () => {
  it('shows the reason in words, never "Loading…", and keeps the earlier rows marked stale', async () => {
    fake.impl['ledger.query'] = (input) => {
      const text = (input as { filter: { text?: string } }).filter.text ?? '';
      if (text.length > 256) return Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'Use at most 256 characters.' });
      return Promise.resolve({ ok: true, data: { rows: [row('KEY-AAA'), row('KEY-BBB')], total: 2, totalCapped: false } });
    };
    render(<AllKeys />);
    await screen.findByText('KEY-AAA');
    fireEvent.change(screen.getByLabelText('Filter (key, note or HWID)'), { target: { value: 'x'.repeat(257) } });
    await screen.findByText('Use at most 256 characters.');
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByText('KEY-AAA')).toBeTruthy();
    expect(screen.getByRole('grid', { name: 'All keys' }).className).toContain('stale');
    expect(screen.getByRole('status').textContent).toContain('earlier results');
    expect(screen.getByRole('button', { name: /^Select all/ })).toHaveProperty('disabled', true);
  });
});

describe('form drafts and a profile switch', () => {
  it('clears what was typed for one service (identifier, search terms, a generate note) when another profile becomes active', async () => {
    const s = useKeydesk.getState();
    s.setDraft('validate.service', 'service-of-a');
    s.setDraft('validate.keyValue', 'KEY-OF-A');
    s.setDraft('lookup.term', 'term-a');
    s.setDraft('keyless.term', 'hw-a');
    s.setDraft('identifier.value', 'id-a');
    s.setDraft('generate.note', 'big batch for a customer of A');
    s.setDraft('generate.count', '300000');
    s.setDraft('validate.hwidChoice', 'custom');
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    const d = useKeydesk.getState().drafts;
    expect(d['validate.service']).toBeUndefined();
    expect(d['validate.keyValue']).toBeUndefined();
    expect(d['lookup.term']).toBeUndefined();
    expect(d['keyless.term']).toBeUndefined();
    expect(d['identifier.value']).toBeUndefined();
    expect(d['generate.note']).toBeUndefined();
    // How many to generate is the input of an act on A: it is kept for A, not carried to B (walk9 P1).
    expect(d['generate.count']).toBeUndefined();
    // So is which HWID Validate sends, with its value (walk9b P6): B starts from its own.
    expect(d['validate.hwidChoice']).toBeUndefined();
    await waitFor(() => {
      expect(useKeydesk.getState().activeProfileId).toBe('p2');
    });
  });

  it('keeps the count, expiry date and bulk days typed for one profile with that profile: another finds its own, and coming back finds them (walk9 P1)', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KEY-AAA')], total: 1, totalCapped: false } });
    const user = userEvent.setup();
    const { unmount } = render(
      <>
        <GenerateForm />
        <AllKeys />
      </>,
    );
    const count = () => screen.getByLabelText<HTMLInputElement>('Count');
    const expiry = () => screen.getByLabelText<HTMLInputElement>('Expiry date');
    const days = () => within(screen.getByRole('region', { name: 'Bulk actions' })).getByLabelText<HTMLInputElement>('Days');
    const defaults = { count: count().value, expiry: expiry().value, days: days().value };
    await user.clear(count());
    await user.type(count(), '2000');
    fireEvent.change(expiry(), { target: { value: '2028-03-01' } });
    await user.clear(days());
    await user.type(days(), '5');

    fake.impl['profiles.select'] = (input) =>
      Promise.resolve({ ok: true, data: (input as { id: string }).id === 'p2' ? remoteProfile : sandboxProfile });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    // The other service: none of A's numbers, each field as it starts.
    expect({ count: count().value, expiry: expiry().value, days: days().value }).toEqual(defaults);
    expect(defaults).not.toEqual({ count: '2000', expiry: '2028-03-01', days: '5' });
    await user.clear(days());
    await user.type(days(), '9');

    await act(() => useKeydesk.getState().selectProfile('sandbox'));
    expect({ count: count().value, expiry: expiry().value, days: days().value }).toEqual({
      count: '2000',
      expiry: '2028-03-01',
      days: '5',
    });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    expect(days().value).toBe('9');
    unmount();
  });
});

const validated: ValidationReport = {
  outcome: 'success',
  success: true,
  message: 'The key is valid.',
  dryRun: false,
  hwid: 'HW-A',
  premium: false,
  expiresAt: '2099-01-01T23:59:59.999Z',
  notes: 'spring batch',
  keyless: false,
  registeredServiceId: 'demo',
  raw: { V2_Authentication: 'success' },
};
const unknownKey: ValidationReport = {
  ...validated,
  outcome: 'invalid_key',
  success: false,
  message: 'No such key.',
  premium: false,
  expiresAt: null,
  notes: 'The key does not exist.',
  raw: { V2_Authentication: 'invalid_key', Key_Information: { Notes: 'The key does not exist.' } },
};

describe('Validate: what the answer says', () => {
  it('a real success says the machine was let in and the key is now bound, not that it "would be"', () => {
    useKeydesk.setState({ validation: validated, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    const outcome = screen.getByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Valid: this machine was let in; the key is now bound to it.')).toBeTruthy();
    expect(within(outcome).queryByText(/would be let in/)).toBeNull();
  });

  it('a dry-run success still says "would be let in"', () => {
    useKeydesk.setState({ validation: { ...validated, dryRun: true }, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    expect(screen.getByText('Valid: this machine would be let in.')).toBeTruthy();
  });

  it("a key the service does not have shows no Premium or expiry, its Notes among the service's own words, and the code after the words", () => {
    useKeydesk.setState({ validation: unknownKey, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    const outcome = screen.getByRole('status', { name: 'Validation outcome' });
    const terms = [...outcome.querySelectorAll(':scope > dl dt')].map((dt) => dt.textContent);
    expect(terms).not.toContain('Premium');
    expect(terms).not.toContain('Expires');
    expect(terms.at(-1)).toMatch(/V2_Authentication/);
    // The headline says why once ("No such key for this service."); the service's Notes, the same again, are one click away.
    expect(within(outcome).getByText('The key does not exist.').closest('details')?.textContent).toMatch(/^The service's own words/);
    expect(within(outcome).getByText('invalid_key')).toBeTruthy();
  });
});

describe('a negative number of days', () => {
  it('says which numbers are accepted, not only "a whole number", and sends nothing', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), 'HW-1');
    await user.type(within(form).getByLabelText('Days (empty: no expiry)'), '-5');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'keyless.add')).toHaveLength(0);
  });
});

describe('a result beside a new attempt', () => {
  it('Identifier check: an answer about "nope" goes when a new identifier is refused by the form', async () => {
    const user = userEvent.setup();
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: false, service: null } });
    render(<Identifier />);
    await user.type(screen.getByLabelText('Identifier'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText('“nope” does not exist.');
    await user.clear(screen.getByLabelText('Identifier'));
    await user.type(screen.getByLabelText('Identifier'), 'bad id!');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.queryByText('“nope” does not exist.')).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'identifier.check')).toHaveLength(1);
  });

  it('Keys: the last batch is marked as the earlier one while the form shows a new error', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ lastGenerated: ['A', 'B', 'C', 'D', 'E'], generateRequest: { status: 'ready', error: null } });
    render(<GenerateForm />);
    expect(screen.getByText(/^5 keys generated\./)).toBeTruthy();
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1e3');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const batch = screen.getByLabelText('Generated keys');
    expect(batch.className).toContain('stale');
    expect(batch.textContent).toMatch(/^The earlier batch \(nothing sent this time: the form found a problem above\): 5 keys generated\./);
  });
});

describe('Profiles: editing the base URL', () => {
  it('moves a validation URL that was the default along with it', async () => {
    const user = userEvent.setup();
    render(<EditProfile profile={remoteProfile} onDone={() => undefined} />);
    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'https://new.example.com');
    expect(screen.getByLabelText('Validation URL')).toHaveProperty('value', 'https://new.example.com/v2_validation');
  });

  it('leaves a validation URL the person set where it is', async () => {
    const user = userEvent.setup();
    render(<EditProfile profile={{ ...remoteProfile, validationUrl: 'https://auth.example.net/check' }} onDone={() => undefined} />);
    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'https://new.example.com');
    expect(screen.getByLabelText('Validation URL')).toHaveProperty('value', 'https://auth.example.net/check');
  });
});

describe('Profiles: removing one', () => {
  it('says the session-only apiKey is forgotten, not that a keychain entry is deleted', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ profiles: [sandboxProfile, { ...remoteProfile, storage: 'session-only' }] });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toMatch(/keychain\. /);
    expect(dialog.textContent).toContain('kept only for this session (no keychain), is forgotten');
  });
});

describe('Profiles: adding one after a failure', () => {
  it('drops "could not reach the service" when the next attempt is refused by a field', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.add'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    render(<Profiles />);
    await user.type(screen.getByLabelText('Name'), 'Shop');
    await user.type(screen.getByLabelText('Base URL'), 'https://shop.example.org');
    await user.type(screen.getByLabelText('API key'), 'kd_1');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    await screen.findByText('Keydesk could not reach the service.');
    await user.clear(screen.getByLabelText('Name'));
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(screen.queryByText('Keydesk could not reach the service.')).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'profiles.add')).toHaveLength(1);
  });
});

describe('Keyless: the first-visit prompt', () => {
  it('does not show beside an error, nor while the search box holds a term not yet searched', () => {
    useKeydesk.getState().setDraft('keyless.term', 'HW-12');
    const { unmount } = render(<Keyless />);
    expect(screen.queryByText('Find an authorized HWID')).toBeNull();
    expect(screen.getByText('Press Search to list the entries whose HWID contains “HW-12”.')).toBeTruthy();
    unmount();
    useKeydesk.getState().setDraft('keyless.term', '');
    useKeydesk.setState({
      keylessRequest: { status: 'error', error: { ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' } },
    });
    render(<Keyless />);
    expect(screen.getByText('Keydesk could not reach the service.')).toBeTruthy();
    expect(screen.queryByText('Find an authorized HWID')).toBeNull();
  });
});

describe('Overview: Push +1 while offline', () => {
  it('is disabled with the reason beside it', () => {
    useKeydesk.setState({ online: false, offlineReason: { ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' } });
    render(<Overview />);
    const push = screen.getByRole('button', { name: 'Push +1' });
    expect(push).toHaveProperty('disabled', true);
    expect(screen.getByText('Push waits until the service answers again.')).toBeTruthy();
  });
});

describe("Overview: the chart's axes", () => {
  it('labels time ticks with our Intl formatter and steps count axes by whole numbers only', async () => {
    const { COUNT_STEPS, timeTicks } = await import('../../src/renderer/src/components/HistoryChart.tsx');
    const { fmt } = await import('../../src/renderer/src/lib/format.ts');
    expect(COUNT_STEPS.every((s) => Number.isInteger(s) && s >= 1)).toBe(true);
    expect(COUNT_STEPS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    const t = Date.parse('2026-11-23T10:00:00.000Z') / 1000;
    expect(timeTicks([t, t + 900], 900)).toEqual([fmt.axisTime(t * 1000, 900_000), fmt.axisTime((t + 900) * 1000, 900_000)]);
  });

  it('over a range of seconds, labels each time once and tells points apart to the second', async () => {
    const { timeLabel, timeTicks } = await import('../../src/renderer/src/components/HistoryChart.tsx');
    const { fmt } = await import('../../src/renderer/src/lib/format.ts');
    // A first run: a few samples seconds apart; uPlot puts ticks a quarter of a second apart.
    const t = Date.parse('2026-11-23T04:30:32.000Z') / 1000;
    const ticks = timeTicks([t, t + 0.25, t + 0.5, t + 0.75, t + 1], 0.25);
    expect(ticks.filter((l) => l !== '')).toEqual([fmt.axisTime(t * 1000, 250), fmt.axisTime((t + 1) * 1000, 250)]);
    const close = [
      { at: t * 1000, total: 3, added: 0 },
      { at: (t + 20) * 1000, total: 4, added: 1 },
    ];
    const apart = [
      { at: t * 1000, total: 3, added: 0 },
      { at: (t + 600) * 1000, total: 4, added: 1 },
    ];
    expect(timeLabel(close)(t * 1000)).toBe(fmt.dateTimeSeconds(new Date(t * 1000).toISOString()));
    expect(timeLabel(close)(t * 1000)).not.toBe(timeLabel(close)((t + 20) * 1000));
    expect(timeLabel(apart)(t * 1000)).toBe(fmt.dateTime(new Date(t * 1000).toISOString()));
  });
});

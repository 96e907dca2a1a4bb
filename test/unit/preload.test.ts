// The bridge exposes exactly the contract's operations plus `on`; each sends on its own fixed channel.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildBridge } from '../../src/shared/bridge.ts';
import { contract } from '../../src/shared/contract.ts';
import { EVENT_NAMES, OPERATION_NAMES } from '../../src/shared/operations.ts';

const exposed = new Map<string, unknown>();
const ipc = {
  invoke: vi.fn((channel: string, input: unknown) => Promise.resolve({ ok: true, data: { channel, input } })),
  on: vi.fn(),
  removeListener: vi.fn(),
};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: ipc,
}));

beforeEach(() => {
  vi.clearAllMocks();
});

describe('preload bridge', () => {
  it('exposes one object, window.keydesk, with exactly the contract operations and on', async () => {
    await import('../../src/preload/index.ts');
    expect([...exposed.keys()]).toEqual(['keydesk']);
    const bridge = exposed.get('keydesk') as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(contract), 'on'].sort());
    expect(Object.keys(contract).sort()).toEqual([...OPERATION_NAMES].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('sends each operation on keydesk:op:<name> with only the input', async () => {
    const { ipcTransport } = await import('../../src/preload/index.ts');
    const bridge = buildBridge(ipcTransport(ipc));
    await expect(bridge['keys.extend']({ keyValue: 'K', days: 3 })).resolves.toEqual({
      ok: true,
      data: { channel: 'keydesk:op:keys.extend', input: { keyValue: 'K', days: 3 } },
    });
    expect(ipc.invoke).toHaveBeenCalledTimes(1);
  });

  it('subscribes to an event, passing only the payload, and unsubscribes', async () => {
    const { ipcTransport } = await import('../../src/preload/index.ts');
    const bridge = buildBridge(ipcTransport(ipc));
    const listener = vi.fn();
    const off = bridge.on('jobs.progress', listener);
    expect(ipc.on).toHaveBeenCalledWith('keydesk:event:jobs.progress', expect.any(Function));
    const wrapped = ipc.on.mock.calls[0]?.[1] as (e: unknown, p: unknown) => void;
    wrapped({ sender: 'secret' }, { jobId: 'j', done: 1, total: 2, failed: 0 });
    expect(listener).toHaveBeenCalledWith({ jobId: 'j', done: 1, total: 2, failed: 0 });
    off();
    expect(ipc.removeListener).toHaveBeenCalledWith('keydesk:event:jobs.progress', wrapped);
    expect(EVENT_NAMES).toContain('jobs.progress');
  });

  it('refuses an unknown event name', async () => {
    const { ipcTransport } = await import('../../src/preload/index.ts');
    const bridge = buildBridge(ipcTransport(ipc));
    expect(() => bridge.on('keydesk:op:app.status' as never, () => {})).toThrow(/Unknown Keydesk event/);
    expect(ipc.on).not.toHaveBeenCalled();
  });
});

// One bridge, two transports: the preload's IPC and the harness's loopback fetch + event stream give the
// renderer the same window.keydesk, with the same `on` rules. The harness's served script is that same
// builder, bundled: run in a bare VM context it defines window.keydesk and talks over fetch with the token.
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { encodeAnswer, FRAMED_ANSWER_TYPE } from '../../src/harness/answer-frame.ts';
import { buildBridgeScript } from '../../src/harness/bridge-script.ts';
import { EVENTS_PATH, loopbackTransport, RPC_PREFIX, TOKEN_HEADER, type EventSourceLike } from '../../src/harness/loopback-bridge.ts';
import { ipcTransport } from '../../src/preload/index.ts';
import { buildBridge, type BridgeTransport } from '../../src/shared/bridge.ts';
import type { KeydeskBridge } from '../../src/shared/contract.ts';
import type { Key } from '../../src/shared/domain.ts';
import { keysOf, toKeyBatch, type KeyBatch } from '../../src/shared/key-batch.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';

vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld: () => undefined }, ipcRenderer: {} }));

/** A fake IPC: emit(channel, payload) calls every listener registered on that channel. */
function fakeIpc() {
  const listeners = new Map<string, Set<(e: unknown, p: unknown) => void>>();
  return {
    invoke: (channel: string, input: unknown) => Promise.resolve({ ok: true, data: { channel, input } }),
    on(channel: string, l: (e: unknown, p: unknown) => void) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(l);
      return this;
    },
    removeListener(channel: string, l: (e: unknown, p: unknown) => void) {
      listeners.get(channel)?.delete(l);
      return this;
    },
    emit: (event: string, payload: unknown) => {
      for (const l of listeners.get(`keydesk:event:${event}`) ?? []) l({ sender: 'hidden' }, payload);
    },
  };
}

/** An answer as the harness writes one without byte columns. */
const jsonResponse = (value: unknown) =>
  new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json; charset=utf-8' } });

/** A fake harness: records fetches, and one EventSource whose events can be fired. */
function fakeLoopback() {
  const requests: { url: string; headers: Record<string, string>; body: string }[] = [];
  const sources: { url: string; listeners: Map<string, (m: { data: string }) => void> }[] = [];
  const transport = loopbackTransport('T0KEN', {
    fetch: (url, init) => {
      requests.push({ url, headers: init.headers, body: init.body });
      return Promise.resolve(jsonResponse({ ok: true, data: { url, input: (JSON.parse(init.body) as { input: unknown }).input } }));
    },
    openEvents: (url): EventSourceLike => {
      const source = { url, listeners: new Map<string, (m: { data: string }) => void>() };
      sources.push(source);
      return { addEventListener: (type, l) => source.listeners.set(type, l) };
    },
  });
  const emit = (event: string, payload: unknown) => sources.forEach((s) => s.listeners.get(event)?.({ data: JSON.stringify(payload) }));
  return { transport, requests, sources, emit };
}

const transports: [string, () => { transport: BridgeTransport; emit: (event: string, payload: unknown) => void }][] = [
  [
    'ipc',
    () => {
      const ipc = fakeIpc();
      return { transport: ipcTransport(ipc as never), emit: ipc.emit };
    },
  ],
  ['loopback', () => fakeLoopback()],
];

describe.each(transports)('the bridge over %s', (_name, make) => {
  it('has exactly one function per operation, plus on, and is frozen', () => {
    const bridge = buildBridge(make().transport);
    expect(Object.keys(bridge).sort()).toEqual([...OPERATION_NAMES, 'on'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('passes only the payload to a listener until it unsubscribes', () => {
    const { transport, emit } = make();
    const bridge = buildBridge(transport);
    const seen: unknown[] = [];
    const listener = (p: unknown) => seen.push(p);
    const off1 = bridge.on('executions.sampled', listener);
    const off2 = bridge.on('executions.sampled', listener);
    emit('executions.sampled', { profileId: 'p', at: 'a', count: 1 });
    expect(seen).toEqual([
      { profileId: 'p', at: 'a', count: 1 },
      { profileId: 'p', at: 'a', count: 1 },
    ]);
    off1();
    off1(); // twice: removes nothing more than its own
    emit('executions.sampled', { profileId: 'p', at: 'b', count: 2 });
    expect(seen).toHaveLength(3);
    off2();
    emit('executions.sampled', { profileId: 'p', at: 'c', count: 3 });
    emit('sandbox.stateChanged', { url: null, running: false, error: null });
    expect(seen).toHaveLength(3);
  });

  it('refuses an unknown event and a listener that is not a function', () => {
    const bridge = buildBridge(make().transport);
    expect(() => bridge.on('keydesk:op:app.status' as never, () => undefined)).toThrow(/Unknown Keydesk event/);
    expect(() => bridge.on('jobs.progress', 'x' as never)).toThrow(/must be a function/);
  });
});

describe('the loopback transport', () => {
  it('posts the input with the token, opening one event stream', async () => {
    const { transport, requests, sources } = fakeLoopback();
    const bridge = buildBridge(transport);
    await expect(bridge['keys.extend']({ keyValue: 'K', days: 3 })).resolves.toEqual({
      ok: true,
      data: { url: `${RPC_PREFIX}keys.extend`, input: { keyValue: 'K', days: 3 } },
    });
    expect(requests[0]?.headers[TOKEN_HEADER]).toBe('T0KEN');
    expect(sources).toHaveLength(0);
    bridge.on('jobs.progress', () => undefined);
    bridge.on('sandbox.stateChanged', () => undefined);
    expect(sources.map((s) => s.url)).toEqual([`${EVENTS_PATH}?token=T0KEN`]);
  });

  it("hands over a generate answer's byte columns as framed", async () => {
    const keys: Key[] = ['ÄÖ-1', 'B"2', 'C\\3'].map((value, i) => ({
      id: `k_${i}`,
      value,
      note: 'frame « test »',
      status: 'generated',
      isPremium: i === 1,
      expire: '2099-01-01',
      expiresByDaysKey: false,
      daysKey: null,
      expiresAt: '2099-01-01T00:00:00.000Z',
      hwid: null,
      createdAt: '2026-11-23T09:00:00.000Z',
      activatedAt: null,
      lastResetAt: null,
      serviceId: 'svc_demo',
    }));
    const sent = { ok: true, data: { generated: toKeyBatch(keys) } };
    const encoded = encodeAnswer(sent);
    if (encoded.kind !== 'framed') throw new Error('a batch answer is framed');
    expect(encoded.length).toBe(encoded.chunks.reduce((n, c) => n + c.byteLength, 0));
    const transport = loopbackTransport('T', {
      fetch: () => Promise.resolve(new Response(new Blob(encoded.chunks), { headers: { 'content-type': FRAMED_ANSWER_TYPE } })),
      openEvents: () => ({ addEventListener: () => undefined }),
    });
    const got = (await buildBridge(transport)['keys.generate']({ expire: '2099-01-01', count: 3, isPremium: false })) as {
      ok: true;
      data: { generated: KeyBatch };
    };
    expect(got.data.generated.count).toBe(3);
    expect(got.data.generated.values).toBeInstanceOf(Uint8Array);
    expect(keysOf(got.data.generated)).toEqual(keys);
  });

  it('answers NETWORK as data, marked Keydesk gone, when the harness is', async () => {
    const bridge = buildBridge(
      loopbackTransport('t', {
        fetch: () => Promise.reject(new Error('connection refused')),
        openEvents: () => ({ addEventListener: () => undefined }),
      }),
    );
    await expect(bridge['app.status'](undefined)).resolves.toEqual({
      ok: false,
      code: 'NETWORK',
      message: 'The Keydesk harness is not answering (connection refused).',
      // Keydesk's own core, not the service: the renderer says so (not "<service> is not answering").
      keydeskGone: true,
    });
  });
});

describe('the harness bridge script', () => {
  it('is one classic script defining window.keydesk from the token', async () => {
    const script = await buildBridgeScript();
    expect(script).not.toMatch(/^\s*import\s|\brequire\(/m);
    const fetched: { url: string; token: string | undefined }[] = [];
    const page: Record<string, unknown> = {
      document: {
        querySelector: (s: string) => (s === 'meta[name="keydesk-harness-token"]' ? { getAttribute: () => 'PAGE-TOKEN' } : null),
      },
      fetch: (url: string, init: { headers: Record<string, string> }) => {
        fetched.push({ url, token: init.headers[TOKEN_HEADER] });
        return Promise.resolve(jsonResponse({ ok: true, data: 'status' }));
      },
      EventSource: function EventSource() {
        return { addEventListener: () => undefined };
      },
    };
    page.globalThis = page;
    runInNewContext(script, page);
    const bridge = page.keydesk as KeydeskBridge;
    expect(Object.keys(bridge).sort()).toEqual([...OPERATION_NAMES, 'on'].sort());
    await expect(bridge['app.status'](undefined)).resolves.toEqual({ ok: true, data: 'status' });
    expect(fetched).toEqual([{ url: `${RPC_PREFIX}app.status`, token: 'PAGE-TOKEN' }]);
  });
});

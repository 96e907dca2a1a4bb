import { useEffect, useState } from 'react';
import type { AppStatus } from '../../shared/domain.ts';
import { call } from './lib/api.ts';

type Load = { state: 'loading' } | { state: 'ready'; status: AppStatus } | { state: 'error'; message: string };

const STORAGE_WORDS = { 'os-keychain': 'the OS keychain', 'session-only': 'memory, for this session only' } as const;

export function App() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    call('app.status', undefined).then(
      (r) => {
        setLoad(r.ok ? { state: 'ready', status: r.data } : { state: 'error', message: r.message });
      },
      (e: unknown) => {
        setLoad({ state: 'error', message: e instanceof Error ? e.message : 'Keydesk could not reach its core.' });
      },
    );
  }, []);

  return (
    <main className="welcome" data-app-state={load.state}>
      <h1>Keydesk</h1>
      <p>Admin for license keys and usage tracking.</p>
      {load.state === 'loading' && <p role="status">Starting…</p>}
      {load.state === 'error' && <p role="alert">{load.message}</p>}
      {load.state === 'ready' && (
        <dl aria-label="Status">
          <dt>Local sandbox</dt>
          <dd>{load.status.sandbox.running ? `running at ${load.status.sandbox.url ?? ''}` : (load.status.sandbox.error ?? 'stopped')}</dd>
          <dt>API keys stored in</dt>
          <dd>{STORAGE_WORDS[load.status.secretStorage]}</dd>
          <dt>Version</dt>
          <dd>{load.status.version}</dd>
        </dl>
      )}
    </main>
  );
}

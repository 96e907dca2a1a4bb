// Integration: what a vendor needs to point a protected app at the active service: URLs, identifier, a test key,
// and a snippet per common client; on the sandbox, whether it runs.
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { useEffect } from 'react';
import { Badge, StatusBadge } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { shownText } from '../../lib/text.ts';
import { useKeydesk } from '../../store/index.ts';
import { EndUserReset } from './EndUserReset.tsx';
import { ServiceCapabilities } from '../Profiles/ServiceCapabilities.tsx';
import { integrationSnippets } from './snippets.ts';

/** A stand-in HWID for the snippets: the machine a protected app runs on sends its own. */
export const TEST_HWID = 'integration-test-machine';

function Value({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="with-copy">
        <code>
          <ServiceText text={value} />
        </code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </dd>
    </>
  );
}

function SandboxRunning() {
  const state = useKeydesk((s) => s.sandboxState);
  const watch = useKeydesk((s) => s.watchSandbox);
  useEffect(() => watch(), [watch]);
  return (
    <>
      <dt>Sandbox</dt>
      <dd>
        <span role="status" aria-label="Sandbox state">
          {state === null ? (
            <span className="muted">Checking…</span>
          ) : state.running ? (
            <Badge tone="success" icon="dot">
              Running at {state.url ?? ''}
            </Badge>
          ) : (
            <Badge tone="danger" icon="alert">
              Not running{state.error ? `: ${state.error}` : ''}
            </Badge>
          )}
        </span>
      </dd>
    </>
  );
}

export function Integration() {
  const profile = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId) ?? null);
  const testKey = useKeydesk((s) => (s.testKey && s.testKey.profileId === s.activeProfileId ? s.testKey.key : null));
  const busy = useKeydesk((s) => s.testKeyRequest.status === 'loading');
  const error = useKeydesk((s) => s.testKeyRequest.error);
  const generate = useKeydesk((s) => s.generateTestKey);
  const refresh = useKeydesk((s) => s.refreshTestKey);

  if (!profile) {
    return (
      <section aria-labelledby="integration-title">
        <h1 id="integration-title">Integration</h1>
        <p>Choose a service in Profiles first: its URLs and identifier are what a protected app needs.</p>
      </section>
    );
  }
  const service = profile.serviceIdentifier;
  const snippets = integrationSnippets({
    baseUrl: profile.baseUrl,
    validationUrl: profile.validationUrl,
    service: service ?? 'YOUR_SERVICE_IDENTIFIER',
    key: testKey?.value ?? 'YOUR-KEY',
    hwid: TEST_HWID,
  });
  return (
    <section aria-labelledby="integration-title">
      <h1 id="integration-title">Integration</h1>
      <p className="muted">A protected app checks a key with one request to the validation URL below. It needs no API key.</p>
      <div className="card" role="region" aria-label="Service">
        <h2>{profile.name}</h2>
        <dl className="facts">
          <Value label="Base URL" value={profile.baseUrl} />
          <Value label="Validation URL" value={profile.validationUrl} />
          {service ? (
            <Value label="Service identifier" value={service} />
          ) : (
            <>
              <dt>Service identifier</dt>
              <dd>Not set for this profile: add it in Profiles (the snippets show a placeholder until then).</dd>
            </>
          )}
          {profile.kind === 'sandbox' && <SandboxRunning />}
        </dl>
        <ServiceCapabilities profile={profile} checkable={false} />
      </div>
      <div className="card" role="region" aria-label="Test key">
        <h2>Test key</h2>
        <p className="muted">
          A new key on {profile.name}, noted &ldquo;integration test&rdquo;, valid for 30 days. The snippets below use it; once your app
          validates it, it becomes active and bound to that machine.
        </p>
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void generate(profile.id)}>
            Generate a test key
          </button>
          {testKey && (
            <button type="button" disabled={busy} onClick={() => void refresh()}>
              Check its status
            </button>
          )}
        </div>
        {error && <FailureMessage failure={error} />}
        {testKey && (
          <dl className="facts" aria-label="The test key">
            <Value label="Key" value={testKey.value} />
            <dt>Status</dt>
            <dd>
              <StatusBadge status={testKey.status} />
              {testKey.hwid && <span className="muted"> bound to {shownText(testKey.hwid)}</span>}
            </dd>
          </dl>
        )}
      </div>
      <div className="card" role="region" aria-label="Snippets">
        <h2>Snippets</h2>
        {snippets.map((s) => (
          <figure key={s.id} className="snippet">
            <figcaption className="with-copy">
              <strong>{s.label}</strong>
              <CopyButton value={s.code} label={`Copy the ${s.label} snippet`} />
            </figcaption>
            <pre aria-label={`${s.label} snippet`} tabIndex={0}>
              <code>{s.code}</code>
            </pre>
          </figure>
        ))}
      </div>
      <EndUserReset profile={profile} service={service ?? 'YOUR_SERVICE_IDENTIFIER'} testKey={testKey?.value ?? null} />
    </section>
  );
}

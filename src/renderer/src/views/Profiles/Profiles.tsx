import { useState } from 'react';
import type { Profile } from '../../../../shared/domain.ts';
import type { Failure } from '../../../../shared/result.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { BulkCeiling } from './BulkCeiling.tsx';
import { EditProfile, ORIGIN_HINT } from './EditProfile.tsx';
import { cleartextWarning, urlProblem } from '../../lib/urls.ts';
import { useKeydesk } from '../../store/index.ts';

const STORAGE = { 'os-keychain': 'OS keychain', 'session-only': 'this session only' } as const;

/** What removing a profile does to its apiKey, true for where that key is kept. */
function removeWords(profile: Profile | undefined): string {
  if (!profile?.hasKey) return 'It has no stored apiKey.';
  return profile.storage === 'os-keychain'
    ? 'Its apiKey is deleted from the OS keychain.'
    : 'Its apiKey, kept only for this session (no keychain), is forgotten.';
}

export function Profiles() {
  const profiles = useKeydesk((s) => s.profiles);
  const activeId = useKeydesk((s) => s.activeProfileId);
  const status = useKeydesk((s) => s.appStatus);
  const select = useKeydesk((s) => s.selectProfile);
  const add = useKeydesk((s) => s.addProfile);
  const remove = useKeydesk((s) => s.removeProfile);
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [validationUrl, setValidationUrl] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [toRemove, setToRemove] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ name?: string | null; baseUrl?: string | null; apiKey?: string | null; validationUrl?: string | null }>({});
  const baseWarning = cleartextWarning(baseUrl);

  return (
    <section aria-labelledby="profiles-title">
      <h1 id="profiles-title">Profiles</h1>
      <div className="columns">
        <div className="card">
          <h2>Services</h2>
          {status?.profilesFileProblem && <p role="alert" className="error">{status.profilesFileProblem}</p>}
          {status?.secretStorageReason && (
            <p className="muted">
              Keys are kept for this session only and are gone when Keydesk quits. {status.secretStorageReason}
            </p>
          )}
          <ul className="profiles">
            {profiles.map((p) => (
              <li key={p.id} aria-current={p.id === activeId ? 'true' : undefined}>
                <strong>{p.name}</strong> <span className="muted">{p.kind === 'sandbox' ? 'local sandbox' : p.baseUrl}</span>
                <br />
                <span className="muted">
                  Key {p.keyHint ?? 'missing'} · stored in {STORAGE[p.storage]}
                </span>
                <div className="actions">
                  {p.id !== activeId && (
                    <button type="button" onClick={() => void select(p.id)}>
                      Use {p.name}
                    </button>
                  )}
                  {p.kind !== 'sandbox' && (
                    <button type="button" onClick={() => { setEditing(editing === p.id ? null : p.id); }} aria-expanded={editing === p.id}>
                      Edit {p.name}
                    </button>
                  )}
                  {p.kind !== 'sandbox' && (
                    <button type="button" className="danger" onClick={() => { setToRemove(p.id); }}>
                      Remove {p.name}
                    </button>
                  )}
                </div>
                <BulkCeiling profile={p} />
                {editing === p.id && <EditProfile profile={p} onDone={() => { setEditing(null); }} />}
              </li>
            ))}
          </ul>
        </div>
        <form
          className="card"
          aria-labelledby="add-profile-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            // A new attempt, refused by a field or sent, is not the one the last failure was about.
            setFailure(null);
            const problems = {
              name: name.trim() === '' ? 'Name is required.' : null,
              baseUrl: urlProblem('Base URL', baseUrl, true),
              apiKey: apiKey === '' ? 'API key is required.' : null,
              validationUrl: urlProblem('Validation URL', validationUrl, false),
            };
            setFieldError(problems);
            if (Object.values(problems).some((p) => p !== null)) return;
            setBusy(true);
            void add({
              name: name.trim(),
              baseUrl: baseUrl.trim(),
              apiKey,
              ...(validationUrl.trim() ? { validationUrl: validationUrl.trim() } : {}),
              ...(identifier.trim() ? { serviceIdentifier: identifier.trim() } : {}),
            }).then((f) => {
              setBusy(false);
              setFailure(f);
              if (!f) {
                // The form is ready for another service; the key is not kept in the renderer once main has it.
                setApiKey('');
                setName('');
                setBaseUrl('');
                setValidationUrl('');
                setIdentifier('');
              }
            });
          }}
        >
          <h2 id="add-profile-title">Add a remote service</h2>
          <Field
            label="Name"
            data-command-target="add-profile"
            value={name}
            aria-required
            error={fieldError.name}
            onChange={(e) => { setName(e.target.value); setFieldError({ ...fieldError, name: null }); }}
          />
          <Field
            label="Base URL"
            type="url"
            placeholder="https://api.example.com"
            value={baseUrl}
            aria-required
            error={fieldError.baseUrl}
            onChange={(e) => { setBaseUrl(e.target.value); setFieldError({ ...fieldError, baseUrl: null }); }}
            hint={baseWarning ? <><strong className="warning">{baseWarning}</strong> {ORIGIN_HINT}</> : ORIGIN_HINT}
          />
          <Field
            label="API key"
            type="password"
            autoComplete="off"
            value={apiKey}
            aria-required
            error={fieldError.apiKey}
            onChange={(e) => { setApiKey(e.target.value); setFieldError({ ...fieldError, apiKey: null }); }}
            hint="Checked with the service before it is saved; never shown again."
          />
          <Field
            label="Validation URL (optional)"
            type="url"
            value={validationUrl}
            error={fieldError.validationUrl}
            hint={cleartextWarning(validationUrl) === null || baseWarning !== null ? undefined : 'http:// is not encrypted: what a protected app sends there can be read on the way.'}
            onChange={(e) => { setValidationUrl(e.target.value); setFieldError({ ...fieldError, validationUrl: null }); }}
          />
          <Field label="Service identifier (optional)" value={identifier} onChange={(e) => { setIdentifier(e.target.value); }} />
          {failure && <FailureMessage failure={failure} />}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Checking the key…' : 'Add service'}
          </button>
        </form>
      </div>
      <ConfirmDialog
        open={toRemove !== null}
        title="Remove this service?"
        body={`${removeWords(profiles.find((p) => p.id === toRemove))} The keys on the service are not touched.`}
        confirmLabel="Remove"
        destructive
        onCancel={() => { setToRemove(null); }}
        onConfirm={() => {
          if (toRemove) void remove(toRemove);
          setToRemove(null);
        }}
      />
    </section>
  );
}

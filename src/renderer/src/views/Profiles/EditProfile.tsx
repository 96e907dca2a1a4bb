import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Profile } from '../../../../shared/domain.ts';
import type { Failure } from '../../../../shared/result.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { cleartextWarning, urlProblem } from '../../lib/urls.ts';
import { useKeydesk } from '../../store/index.ts';

/** Keydesk wants the service's origin; a trailing /api (the official client's own base) is dropped on save. */
const ORIGIN_HINT = "The service's origin, e.g. https://api.example.com. A trailing /api is the same service and is dropped.";

/** The Base URL field's hint, led by the cleartext warning when there is one. */
export const originHint = (warning: string | null): ReactNode =>
  warning ? (
    <>
      <strong className="warning">{warning}</strong> {ORIGIN_HINT}
    </>
  ) : (
    ORIGIN_HINT
  );

const originOf = (url: string): string | null => {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
};

/** The validation URL a profile gets when none is set: the base's origin + /v2_validation. */
const defaultValidationUrl = (base: string): string | null => {
  const origin = originOf(base);
  return origin === null ? null : `${origin}/v2_validation`;
};

/** The origin of a validation URL on another host than the base URL's, or null (the same host, or not yet a URL). */
export const otherValidationOrigin = (base: string, validation: string): string | null => {
  const origin = originOf(validation);
  return origin !== null && originOf(base) !== null && origin !== originOf(base) ? origin : null;
};

/**
 * Asks, naming the host, before `save` sends a validation URL on another host than the base URL's (main refuses
 * one unasked): `ask(origin)` opens the question, and a yes calls `save(origin)`.
 */
export function useHostQuestion(
  baseUrl: string,
  save: (confirmedOrigin: string) => void,
): { ask: (origin: string) => void; dialog: ReactNode } {
  const [origin, setOrigin] = useState<string | null>(null);
  const host = origin === null ? '' : new URL(origin).host;
  const baseHost = originOf(baseUrl) === null ? baseUrl : new URL(baseUrl.trim()).host;
  const dialog = (
    <ConfirmDialog
      open={origin !== null}
      title={`Send validations to ${host}?`}
      body={`The validation URL is on ${host}, not on ${baseHost} like the base URL. Each validation sends a key, the service identifier and a HWID to ${host}, and shows its answer here. Go on only if ${host} is where your service validates keys.`}
      confirmLabel={`Use ${host}`}
      onCancel={() => {
        setOrigin(null);
      }}
      onConfirm={() => {
        setOrigin(null);
        if (origin !== null) save(origin);
      }}
    />
  );
  return { ask: setOrigin, dialog };
}

/** Edits a remote profile, checked by main before saving; moving it to another origin asks for the apiKey again. */
export function EditProfile({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const update = useKeydesk((s) => s.updateProfile);
  const [name, setName] = useState(profile.name);
  const [baseUrl, setBaseUrl] = useState(profile.baseUrl);
  const [validationUrl, setValidationUrl] = useState(profile.validationUrl);
  // A validation URL that was the default follows the base URL as it changes, until the person sets one.
  const [followsBase, setFollowsBase] = useState(profile.validationUrl === defaultValidationUrl(profile.baseUrl));
  const [identifier, setIdentifier] = useState(profile.serviceIdentifier ?? '');
  const [apiKey, setApiKey] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<{ baseUrl: string | null; validationUrl: string | null }>({
    baseUrl: null,
    validationUrl: null,
  });
  const baseWarning = cleartextWarning(baseUrl);
  const newOrigin = originOf(baseUrl);
  const originChanges = newOrigin !== null && newOrigin !== originOf(profile.baseUrl);
  // The form opens below the list on "Edit": the focus goes into it, to its first field, not left on Edit.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, []);
  const save = (confirmValidationOrigin?: string): void => {
    setBusy(true);
    void update({
      id: profile.id,
      ...(name.trim() !== profile.name ? { name: name.trim() } : {}),
      ...(baseUrl.trim() !== profile.baseUrl ? { baseUrl: baseUrl.trim() } : {}),
      ...(validationUrl.trim() !== profile.validationUrl ? { validationUrl: validationUrl.trim() } : {}),
      ...(confirmValidationOrigin ? { confirmValidationOrigin } : {}),
      ...(identifier.trim() !== (profile.serviceIdentifier ?? '') ? { serviceIdentifier: identifier.trim() || null } : {}),
      ...(apiKey ? { apiKey } : {}),
    }).then((f) => {
      setBusy(false);
      setFailure(f);
      if (!f) {
        setApiKey('');
        onDone();
      }
    });
  };
  const hostQuestion = useHostQuestion(baseUrl, save);
  return (
    <form
      ref={form}
      className="edit-profile"
      aria-label={`Edit ${profile.name}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const urls = { baseUrl: urlProblem('Base URL', baseUrl, true), validationUrl: urlProblem('Validation URL', validationUrl, true) };
        setUrlError(urls);
        if (urls.baseUrl !== null || urls.validationUrl !== null) return;
        if (originChanges && apiKey === '') {
          setKeyError(`Type the API key for ${newOrigin}: Keydesk never sends a stored key to a new address.`);
          return;
        }
        setKeyError(null);
        const other = validationUrl.trim() !== profile.validationUrl ? otherValidationOrigin(baseUrl, validationUrl) : null;
        if (other !== null && other !== profile.validationOriginConfirmed) hostQuestion.ask(other);
        else save();
      }}
    >
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <Field
        label="Base URL"
        type="url"
        value={baseUrl}
        error={urlError.baseUrl}
        onChange={(e) => {
          setBaseUrl(e.target.value);
          setUrlError({ ...urlError, baseUrl: null });
          const following = followsBase ? defaultValidationUrl(e.target.value) : null;
          if (following !== null) setValidationUrl(following);
        }}
        hint={originHint(baseWarning)}
      />
      <Field
        label="Validation URL"
        type="url"
        value={validationUrl}
        error={urlError.validationUrl}
        onChange={(e) => {
          setValidationUrl(e.target.value);
          setFollowsBase(false);
          setUrlError({ ...urlError, validationUrl: null });
        }}
      />
      <Field label="Service identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
      {originChanges ? (
        <Field
          label="API key (required: the address changes)"
          type="password"
          autoComplete="off"
          aria-required
          value={apiKey}
          error={keyError}
          hint={`The stored key was given for ${originOf(profile.baseUrl) ?? profile.baseUrl}; it is never sent to another address.`}
          onChange={(e) => {
            setApiKey(e.target.value);
            setKeyError(null);
          }}
        />
      ) : (
        <Field
          // With no key stored there is nothing to keep: an empty field leaves the profile without one.
          label={profile.hasKey ? 'Replace API key (leave empty to keep it)' : 'API key (none is stored: enter it again)'}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
      )}
      {failure && <FailureMessage failure={failure} />}
      {hostQuestion.dialog}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

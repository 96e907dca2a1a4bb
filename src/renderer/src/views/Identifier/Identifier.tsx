import { useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { Field } from '../../components/Field.tsx';
import { Time } from '../../components/Time.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';

export function Identifier() {
  const result = useKeydesk((s) => s.identifier);
  const request = useKeydesk((s) => s.identifierRequest);
  const { status } = request;
  const waits = useServiceWait() !== null;
  const check = useKeydesk((s) => s.checkIdentifier);
  const clear = useKeydesk((s) => s.clearIdentifier);
  const [value, setValue] = useDraft('identifier.value');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const profile = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId) ?? null);
  return (
    <section aria-labelledby="identifier-title">
      <h1 id="identifier-title">Identifier check</h1>
      <p className="muted">
        Asks {profile ? <strong>{profile.name}</strong> : 'the service'} whether a service identifier is taken, by any vendor there. Letter
        case does not count.
      </p>
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = schemas.identifier.safeParse(value.trim());
          if (!parsed.success) {
            setFieldError(parsed.error.issues[0]?.message ?? 'Enter an identifier.');
            clear(); // the answer about the identifier before is not an answer about this one
            return;
          }
          setFieldError(null);
          void check(parsed.data);
        }}
      >
        <Field
          label="Identifier"
          hint="What a protected app sends with each validation to name the service its keys belong to."
          data-command-target="identifier"
          value={value}
          error={fieldError}
          onChange={(e) => setValue(e.target.value)}
        />
        <button
          type="submit"
          className="primary"
          disabled={status === 'loading' || waits}
          aria-describedby={waits ? 'identifier-waits' : undefined}
        >
          Check
        </button>
        <ServiceWait id="identifier-waits" what="Checking" />
        <RequestFailure request={request} what="Checking the identifier" again="check again" />
        {status === 'loading' && <p role="status">Asking the service…</p>}
        {result && (
          <>
            <p role="status" className="result">
              {result.exists
                ? `“${result.identifier}” exists: it belongs to ${result.service ?? 'a service'}.`
                : `“${result.identifier}” does not exist.`}
            </p>
            <p className="muted">
              {result.exists ? 'Taken' : 'Free'} as the service answered at <Time iso={result.at} mode="time" />; check again to know it
              now.
            </p>
          </>
        )}
      </form>
    </section>
  );
}

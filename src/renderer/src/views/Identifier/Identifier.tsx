import { useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';

export function Identifier() {
  const result = useKeydesk((s) => s.identifier);
  const { status, error } = useKeydesk((s) => s.identifierRequest);
  const check = useKeydesk((s) => s.checkIdentifier);
  const clear = useKeydesk((s) => s.clearIdentifier);
  const [value, setValue] = useDraft('identifier.value');
  const [fieldError, setFieldError] = useState<string | null>(null);
  return (
    <section aria-labelledby="identifier-title">
      <h1 id="identifier-title">Identifier check</h1>
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
        <Field label="Identifier" data-command-target="identifier" value={value} error={fieldError} onChange={(e) => { setValue(e.target.value); }} />
        <button type="submit" className="primary" disabled={status === 'loading'}>
          Check
        </button>
        {error && <FailureMessage failure={error} />}
        {result && (
          <p role="status" className="result">
            {result.exists ? `“${result.identifier}” exists: it belongs to ${result.service ?? 'a service'}.` : `“${result.identifier}” does not exist.`}
          </p>
        )}
      </form>
    </section>
  );
}

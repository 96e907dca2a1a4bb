// The key panel's edit: note, premium, any machine, and the term of a key not yet activated, where the service can.
import { useState } from 'react';
import type { Key } from '../../../../shared/domain.ts';
import { schemas } from '../../../../shared/rules.ts';
import { Field } from '../../components/Field.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { offered, useCapability } from '../../lib/capabilities.ts';
import { NotOffered } from '../../components/NotOffered.tsx';
import { parseWhole } from '../../lib/numbers.ts';
import { useKeydesk } from '../../store/index.ts';
import type { KeyEdit as Fields } from '../../store/types.ts';

export function KeyEdit({ keyData: key, disabled }: { keyData: Key; disabled: boolean }) {
  const capability = useCapability(key.status === 'generated' ? 'generatedKeyEdit' : 'keyEdit');
  const request = useKeydesk((s) => s.keyEditRequest);
  const editKey = useKeydesk((s) => s.editKey);
  const [note, setNote] = useState(key.note);
  const [premium, setPremium] = useState(key.isPremium);
  const [anyMachine, setAnyMachine] = useState(key.noHwidValidation ?? false);
  const [byDays, setByDays] = useState(key.expiresByDaysKey);
  const [days, setDays] = useState(key.daysKey === null ? '30' : String(key.daysKey));
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  if (!offered(capability)) return <NotOffered capability={capability} what="edit keys" />;
  const generated = key.status === 'generated';
  const save = () => {
    const fields: Fields = {};
    if (note !== key.note) fields.note = note;
    if (premium !== key.isPremium) fields.isPremium = premium;
    if (anyMachine !== (key.noHwidValidation ?? false)) fields.noHwidValidation = anyMachine;
    if (generated && byDays) {
      const parsed = schemas.days.safeParse(days.trim() === '' ? undefined : parseWhole(days));
      if (!parsed.success) {
        setProblem(parsed.error.issues[0]?.message ?? 'Enter a number of days.');
        return;
      }
      if (!key.expiresByDaysKey || parsed.data !== key.daysKey) Object.assign(fields, { expiresByDaysKey: true, daysKey: parsed.data });
    }
    if (Object.keys(fields).length === 0) {
      setProblem('Nothing changed.');
      return;
    }
    setProblem(null);
    void editKey(key, fields);
  };
  return (
    // Its fields are there only while open: Generate's Note and Premium beside it keep their labels to themselves.
    <details className="key-edit" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Edit key</summary>
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <Field label="Key note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
          <Field label="Premium key" type="checkbox" checked={premium} onChange={(e) => setPremium(e.target.checked)} />
          <Field label="Works on any machine" type="checkbox" checked={anyMachine} onChange={(e) => setAnyMachine(e.target.checked)} />
          {generated ? (
            <>
              {/* Edit takes no expiry date, so a days key cannot become a fixed-date key here (the service refuses it). */}
              {!key.expiresByDaysKey && (
                <Field
                  label="Expires a number of days after activation"
                  type="checkbox"
                  checked={byDays}
                  onChange={(e) => setByDays(e.target.checked)}
                />
              )}
              {byDays && <Field label="Days after activation" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />}
            </>
          ) : (
            <p className="muted">An active key&apos;s term is changed by extending it.</p>
          )}
          {problem && (
            <p className="error" role="alert">
              {problem}
            </p>
          )}
          <RequestFailure request={request} what="Editing the key" again="save again" />
          <button type="submit" disabled={disabled || request.status === 'loading'}>
            {request.status === 'loading' ? 'Saving…' : 'Save changes'}
          </button>
        </form>
      )}
    </details>
  );
}

import { useEffect, useState } from 'react';
import { JOB_CEILING_MAX } from '../../../../shared/contract.ts';
import type { Profile } from '../../../../shared/domain.ts';
import { Field } from '../../components/Field.tsx';
import { useKeydesk } from '../../store/index.ts';

/** The most requests a bulk job keeps in flight on this profile's service: shown, and set by the user. */
export function BulkCeiling({ profile }: { profile: Profile }) {
  const load = useKeydesk((s) => s.loadCeiling);
  const save = useKeydesk((s) => s.saveCeiling);
  const [current, setCurrent] = useState<{ ceiling: number; isDefault: boolean } | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void load(profile.id).then((r) => {
      if (live && r) {
        setCurrent(r);
        setDraft(String(r.ceiling));
      }
    });
    return () => {
      live = false;
    };
  }, [load, profile.id]);
  if (!current) return null;
  const apply = async (ceiling: number | null) => {
    const r = await save(profile.id, ceiling);
    if (r) {
      setCurrent(r);
      setDraft(String(r.ceiling));
      setError(null);
    }
  };
  return (
    <form
      className="inline"
      aria-label={`Parallel requests for bulk actions on ${profile.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(draft);
        if (!Number.isSafeInteger(n) || n < 1 || n > JOB_CEILING_MAX) {
          setError(`Enter a whole number from 1 to ${JOB_CEILING_MAX}.`);
          return;
        }
        void apply(n);
      }}
    >
      <Field
        label="Parallel requests for bulk actions"
        hint={current.isDefault ? "Keydesk's default." : 'Set by you.'}
        inputMode="numeric"
        value={draft}
        error={error}
        onChange={(e) => setDraft(e.target.value)}
      />
      {/* Named for what it saves: it sits among a profile's own forms, beside the edit form's "Save" */}
      <button type="submit">Save bulk limit</button>
      {!current.isDefault && (
        <button type="button" onClick={() => void apply(null)}>
          Use the default
        </button>
      )}
    </form>
  );
}

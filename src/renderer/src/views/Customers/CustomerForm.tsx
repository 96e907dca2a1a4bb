// A customer's fields as a form, for a new customer or an edit: checked by the contract's rules before it is sent.
import { useState } from 'react';
import { customerFields } from '../../../../shared/contract.ts';
import type { CustomerFields } from '../../../../shared/customers.ts';
import { Field } from '../../components/Field.tsx';

export function CustomerForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: CustomerFields;
  submitLabel: string;
  onSubmit: (fields: CustomerFields) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [f, setF] = useState({ ...initial, tags: initial.tags.join(', ') });
  const [errors, setErrors] = useState<Partial<Record<keyof CustomerFields, string>>>({});
  const [busy, setBusy] = useState(false);
  const edit = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <form
      className="card"
      aria-label={submitLabel}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const tags = f.tags
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '');
        const parsed = customerFields.safeParse({ ...f, tags, email: f.email.trim(), discordId: f.discordId.trim() });
        if (!parsed.success) {
          setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
          return;
        }
        setErrors({});
        setBusy(true);
        void onSubmit(parsed.data).finally(() => setBusy(false));
      }}
    >
      <Field label="Name" value={f.name} onChange={edit('name')} error={errors.name} />
      <Field label="Email" type="email" value={f.email} onChange={edit('email')} error={errors.email} />
      <Field
        label="Discord ID"
        inputMode="numeric"
        value={f.discordId}
        onChange={edit('discordId')}
        error={errors.discordId}
        hint="17 to 20 digits."
      />
      <Field label="Order or reference" value={f.reference} onChange={edit('reference')} error={errors.reference} />
      <Field label="Tags" value={f.tags} onChange={edit('tags')} error={errors.tags} hint="Separated by commas." />
      <Field label="Customer note" value={f.note} onChange={edit('note')} error={errors.note} hint="Kept in Keydesk only, never sent." />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

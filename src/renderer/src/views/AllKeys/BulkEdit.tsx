// All keys' bulk edit: a note, premium and any machine set on every selected key, where the service can edit keys.
import { useState } from 'react';
import { offered, useCapability } from '../../lib/capabilities.ts';
import type { BulkEdit as Fields } from '../../store/types.ts';

type Choice = 'keep' | 'on' | 'off';
const asFlag = (c: Choice): boolean | undefined => (c === 'keep' ? undefined : c === 'on');

function ChoiceField({ label, value, onChange }: { label: string; value: Choice; onChange: (c: Choice) => void }) {
  return (
    <label className="field">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as Choice)}>
        <option value="keep">Leave as is</option>
        <option value="on">Yes</option>
        <option value="off">No</option>
      </select>
    </label>
  );
}

/** Asks for the changes, then `ask` confirms them; offered where the check found an edit endpoint. */
export function BulkEdit({ disabled, ask }: { disabled: boolean; ask: (edit: Fields) => void }) {
  const active = useCapability('keyEdit');
  const generated = useCapability('generatedKeyEdit');
  const [setNote, setSetNote] = useState(false);
  const [note, setNoteText] = useState('');
  const [premium, setPremium] = useState<Choice>('keep');
  const [anyMachine, setAnyMachine] = useState<Choice>('keep');
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  if (!offered(active) && !offered(generated)) return null;
  return (
    // Its fields are there only while open: the bar's other labels (and All keys' filters) stay unambiguous.
    <details className="bulk-edit" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Edit selected…</summary>
      {open && (
        <>
          <label className="field field-check">
            <input type="checkbox" checked={setNote} onChange={(e) => setSetNote(e.target.checked)} /> Set the note
          </label>
          {setNote && (
            <label className="field">
              Note
              <input value={note} maxLength={1000} onChange={(e) => setNoteText(e.target.value)} />
            </label>
          )}
          <ChoiceField label="Premium" value={premium} onChange={setPremium} />
          <ChoiceField label="Works on any machine" value={anyMachine} onChange={setAnyMachine} />
          {problem && (
            <p className="error" role="alert">
              {problem}
            </p>
          )}
          <button
            type="button"
            disabled={disabled}
            onClick={() => {
              const edit: Fields = {
                ...(setNote ? { note } : {}),
                ...(asFlag(premium) === undefined ? {} : { isPremium: asFlag(premium) }),
                ...(asFlag(anyMachine) === undefined ? {} : { noHwidValidation: asFlag(anyMachine) }),
              };
              if (Object.keys(edit).length === 0) {
                setProblem('Choose at least one change.');
                return;
              }
              setProblem(null);
              ask(edit);
            }}
          >
            Edit selected
          </button>
        </>
      )}
    </details>
  );
}

import { useState, type SubmitEvent } from 'react';
import { generateInput } from '../../../../shared/contract.ts';
import { fixedExpiryProblem, isCalendarDate, utcDate } from '../../../../shared/rules.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { parseWhole } from '../../lib/numbers.ts';
import { Field } from '../../components/Field.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';

type FieldName = 'expire' | 'count' | 'daysKey' | 'note';
type Errors = Partial<Record<FieldName | 'form', string>>;


/** The field a service error is about, when its message names one ("expire (…) is before today"). */
function serverField(failure: { message: string; field?: string }): FieldName | null {
  const m = /^(expire|count|daysKey|note)\b/.exec(failure.field ?? failure.message);
  return m ? (m[1] as FieldName) : null;
}

export function GenerateForm() {
  const generate = useKeydesk((s) => s.generate);
  const { status: generating, error: serverError } = useKeydesk((s) => s.generateRequest);
  const clearServerError = useKeydesk((s) => s.clearGenerateError);
  const generated = useKeydesk((s) => s.lastGenerated);
  const notify = useKeydesk((s) => s.notify);
  const exportGenerated = useKeydesk((s) => s.exportGenerated);
  const [count, setCount] = useDraft('generate.count');
  const [byDays, setByDays] = useDraft('generate.byDays');
  const [expire, setExpire] = useDraft('generate.expire');
  const [days, setDays] = useDraft('generate.days');
  const [note, setNote] = useDraft('generate.note');
  const [premium, setPremium] = useDraft('generate.premium');
  const [errors, setErrors] = useState<Errors>({});
  const serverAt = serverError ? serverField(serverError) : null;
  const staleGenerated = Object.keys(errors).length > 0;
  /** A change to a field answers the complaint about it: its error, and the service's if it named that field. */
  const changed = (...fields: (FieldName | 'premium' | 'byDays')[]) => {
    const answered = fields.filter((f): f is FieldName => f !== 'premium' && f !== 'byDays' && errors[f] !== undefined);
    if (answered.length > 0) {
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([f]) => !answered.includes(f as FieldName))));
    }
    if (serverError && (serverAt === null || fields.some((f) => f === serverAt))) clearServerError();
  };

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    // The same rules main applies, from the shared contract: problems show beside their field.
    // A days key's expiry runs from activation; the service still requires a date, which it ignores for such keys.
    // The form does not ask for it: it sends the date typed for a dated key if it is valid, else a year from today.
    const sentExpire = byDays ? (isCalendarDate(expire) ? expire : utcDate(Date.now() + 365 * 86_400_000)) : expire;
    const parsed = generateInput.safeParse({
      expire: sentExpire,
      count: count.trim() === '' ? undefined : parseWhole(count),
      isPremium: premium,
      note: note === '' ? undefined : note,
      expiresByDaysKey: byDays,
      daysKey: byDays ? (days.trim() === '' ? undefined : parseWhole(days)) : undefined,
    });
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'form') as keyof Errors;
        next[field] ??= issue.message;
      }
    }
    // The service refuses a fixed expiry before today (UTC); say so before sending.
    if (!byDays && !next.expire) {
      const past = fixedExpiryProblem(expire, Date.now());
      if (past) next.expire = past.replace(/^expire/, 'The expiry date');
    }
    if (!parsed.success || Object.keys(next).length > 0) {
      setErrors(next);
      return;
    }
    setErrors({});
    void generate(parsed.data);
  };

  return (
    <form className="card" aria-labelledby="generate-title" onSubmit={submit} noValidate>
      <h2 id="generate-title">Generate keys</h2>
      <Field label="Count" data-command-target="generate" inputMode="numeric" value={count} error={errors.count ?? (serverAt === 'count' ? serverError?.message : undefined)} onChange={(e) => { setCount(e.target.value); changed('count'); }} />
      <fieldset>
        <legend>Expiry</legend>
        <label>
          <input type="radio" name="expiry" checked={!byDays} onChange={() => { setByDays(false); changed('byDays'); }} /> On a date
        </label>
        <label>
          <input type="radio" name="expiry" checked={byDays} onChange={() => { setByDays(true); changed('byDays'); }} /> Days after activation
        </label>
      </fieldset>
      {byDays ? (
        <Field
          label="Days"
          inputMode="numeric"
          value={days}
          error={errors.daysKey ?? errors.expire ?? (serverAt === 'daysKey' || serverAt === 'expire' ? serverError?.message : undefined)}
          hint="Each key expires this many days after the machine that first validates it."
          onChange={(e) => { setDays(e.target.value); changed('daysKey', 'expire'); }}
        />
      ) : (
        <Field
          label="Expiry date"
          placeholder="YYYY-MM-DD"
          value={expire}
          error={errors.expire ?? (serverAt === 'expire' ? serverError?.message : undefined)}
          onChange={(e) => { setExpire(e.target.value); changed('expire'); }}
        />
      )}
      <Field label="Note" value={note} error={errors.note ?? (serverAt === 'note' ? serverError?.message : undefined)} onChange={(e) => { setNote(e.target.value); changed('note'); }} />
      <Field label="Premium" type="checkbox" checked={premium} onChange={(e) => { setPremium(e.target.checked); changed('premium'); }} />
      {serverError && serverAt === null && <FailureMessage failure={serverError} />}
      <button type="submit" className="primary" disabled={generating === 'loading'}>
        {generating === 'loading' ? `Generating ${Number.isFinite(Number(count)) ? fmt.count(Number(count), NOUNS.key) : 'keys'}…` : 'Generate'}
      </button>
      {generating === 'loading' && <progress aria-label="Generating keys" />}
      {generated.length > 0 && (
        // A new attempt the form refused leaves the last batch's keys (still worth copying) marked as the earlier ones.
        <div className={staleGenerated ? 'generated stale' : 'generated'} aria-label="Generated keys">
          <p>
            {staleGenerated ? 'From the generate before this attempt: ' : ''}
            {fmt.count(generated.length, NOUNS.key)} generated.{' '}
            <button
              type="button"
              onClick={() => {
                navigator.clipboard.writeText(generated.map((k) => k.value).join('\n')).then(
                  () => { notify('success', 'All keys copied.'); },
                  () => { notify('error', 'The clipboard refused; use an export instead.'); },
                );
              }}
            >
              Copy all
            </button>{' '}
            <button type="button" onClick={() => void exportGenerated('csv')}>
              Export CSV
            </button>{' '}
            <button type="button" onClick={() => void exportGenerated('json')}>
              Export JSON
            </button>
          </p>
          <ul className="mono">
            {generated.slice(0, 20).map((k) => (
              <li key={k.value}>
                <span className="with-copy">
                  <span>{k.value}</span>
                  <CopyButton value={k.value} label={`Copy key ${k.value}`} />
                </span>
              </li>
            ))}
          </ul>
          {generated.length > 20 && <p className="muted">…and {fmt.number(generated.length - 20)} more (export them all).</p>}
        </div>
      )}
    </form>
  );
}

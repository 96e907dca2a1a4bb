import { useEffect, useState } from 'react';
import type { ValidationOutcome, ValidationReport } from '../../../../shared/domain.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { Time } from '../../components/Time.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { Field } from '../../components/Field.tsx';
import { endsInWords, markedLines, paddedWarning, shownText, typedShape } from '../../lib/text.ts';
import { useDraft, useKeydesk } from '../../store/index.ts';
import { earlierBecause } from '../../store/keys.ts';

const OUTCOME_WORDS: Record<ValidationOutcome, string> = {
  success: 'Valid: this machine would be let in.',
  invalid_service: 'No service has that identifier.',
  invalid_key: 'No such key for this service.',
  expired: 'The key has expired.',
  hwid_mismatch: 'The key is bound to another machine.',
  not_whitelisted: 'This HWID is not authorized without a key.',
};

/** The answer's first words; a word the service sent that Keydesk does not know is still a refusal, named as sent. */
function headline(report: ValidationReport): string {
  if (report.success) {
    if (report.dryRun) return OUTCOME_WORDS.success;
    // A real validation that succeeds has happened: the service let the machine in and (with a key) bound it.
    return report.keyless === true ? 'Valid: this machine was let in.' : 'Valid: this machine was let in; the key is now bound to it.';
  }
  if (report.reportedOutcome === null) return 'Refused: the service gave no outcome word; its message says why.';
  if (report.reportedOutcome !== undefined && report.reportedOutcome !== report.outcome)
    return `Refused: the service answered “${report.reportedOutcome}”.`;
  return `Refused: ${OUTCOME_WORDS[report.outcome]}`;
}

/** Refusals about a key that exists: only these say anything true about its premium flag and expiry. */
const KEY_FOUND: ReadonlySet<ValidationOutcome> = new Set<ValidationOutcome>(['success', 'expired', 'hwid_mismatch']);

/** The service's answer: a refusal is an answer, not an error, shown with its words, Notes and raw JSON. */
function ValidationAnswer({ report }: { report: ValidationReport }) {
  const keyFound = KEY_FOUND.has(report.outcome) && (report.reportedOutcome === undefined || report.reportedOutcome === report.outcome);
  // A refusal in a word Keydesk knows is said once, by the headline; the service's own message and Notes (most
  // often the same thing again in other words) stay one click away. A refusal Keydesk cannot word shows them as why.
  const wordedRefusal =
    !report.success &&
    report.reportedOutcome !== null &&
    (report.reportedOutcome === undefined || report.reportedOutcome === report.outcome);
  return (
    <div role="status" className={`result ${report.success ? 'ok' : 'bad'}`} aria-label="Validation outcome" data-outcome={report.outcome}>
      <p>
        <strong>{headline(report)}</strong> {report.dryRun ? '(dry run: nothing changed)' : ''}
      </p>
      {!report.success && !wordedRefusal && report.message && (
        <p>
          <ServiceText text={report.message} />
        </p>
      )}
      <dl className="detail">
        {/* A refusal's Notes are its reason; a key the service did not find has no premium flag or expiry to show. */}
        {!wordedRefusal && (
          <div>
            <dt>{report.success ? 'Notes' : "Reason (the service's Notes)"}</dt>
            <dd>{report.notes ? <ServiceText text={report.notes} /> : '—'}</dd>
          </div>
        )}
        {keyFound && report.premium !== null && (
          <div>
            <dt>Premium</dt>
            <dd>{report.premium ? 'Yes' : 'No'}</dd>
          </div>
        )}
        {keyFound && report.expiresAt && (
          <div>
            <dt>Expires</dt>
            <dd>
              <Time iso={report.expiresAt} mode="date" />
            </dd>
          </div>
        )}
        <div>
          {/* The HWID this validation sent, not one the key is bound to (a mismatch's bound HWID is not told). */}
          <dt>HWID sent</dt>
          <dd className="mono with-copy">
            {report.hwid ? (
              <>
                <span>
                  <ServiceText text={report.hwid} />
                </span>
                <CopyButton value={report.hwid} label={`Copy HWID ${shownText(report.hwid)}`} />
              </>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div className="muted">
          <dt title="The answer's V2_Authentication field">Result code</dt>
          <dd className="mono">{report.reportedOutcome === null ? '— (not sent)' : (report.reportedOutcome ?? report.outcome)}</dd>
        </div>
      </dl>
      {wordedRefusal && (
        <details>
          <summary>The service&apos;s own words</summary>
          <dl className="detail">
            <div>
              <dt>Message</dt>
              <dd>{report.message ? <ServiceText text={report.message} /> : '—'}</dd>
            </div>
            <div>
              <dt>Notes</dt>
              <dd>{report.notes ? <ServiceText text={report.notes} /> : '—'}</dd>
            </div>
          </dl>
        </details>
      )}
      <details>
        <summary>Raw JSON</summary>
        <pre>{markedLines(report.raw)}</pre>
      </details>
    </div>
  );
}

export function Validate() {
  const hwids = useKeydesk((s) => s.hwids);
  const loadHwids = useKeydesk((s) => s.loadHwids);
  const hwidsError = useKeydesk((s) => s.hwidsRequest.error);
  const report = useKeydesk((s) => s.validation);
  const answeredAt = useKeydesk((s) => s.validationRead?.at ?? null);
  // The key was changed since this answer came (its HWID reset in Keys, say): the answer may no longer hold.
  // Or a bulk job over a filter started or ended since, which may include it (its premium flag is not known here).
  const changedAfter = useKeydesk((s) =>
    s.validationRead?.keyValue ? earlierBecause(s, s.validationRead.keyValue, null, s.validationRead) : null,
  );
  const validationRequest = useKeydesk((s) => s.validationRequest);
  const { status, error } = validationRequest;
  const waits = useServiceWait() !== null;
  const run = useKeydesk((s) => s.runValidation);
  const profile = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId));
  const [choice, setChoice] = useDraft('validate.hwidChoice');
  const [custom, setCustom] = useDraft('validate.customHwid');
  const [keyless, setKeyless] = useDraft('validate.keyless');
  const [keyValue, setKeyValue] = useDraft('validate.keyValue');
  const [service, setService] = useDraft('validate.service');
  const [dryRun, setDryRun] = useState(true);
  const [confirmed, setConfirmed] = useState(false);
  const sandbox = profile?.kind === 'sandbox';
  const [fieldError, setFieldError] = useState<{ key?: string; hwid?: string }>({});
  /** The padded values (key, HWID) waiting for the person to say "send them as typed". */
  const [padded, setPadded] = useState<string[] | null>(null);
  /** The values the last run was sent with: its answer, under values changed since, is labelled as theirs. */
  const [sentFor, setSentFor] = useState<string | null>(null);
  /** The form refused the attempt just made: the last run's answer is hidden until a run is sent again. */
  const [refused, setRefused] = useState(false);
  const inForm = JSON.stringify([keyless, keyless ? '' : keyValue, service.trim(), choice, choice === 'custom' ? custom : '']);

  const submit = (asTyped: boolean) => {
    // The service trims nothing: a blank key or HWID is refused here; spaces at the ends go only once confirmed.
    const keyShape = keyless ? 'plain' : typedShape(keyValue);
    const hwidShape = choice === 'custom' ? typedShape(custom) : 'plain';
    const problems = {
      key: keyShape === 'blank' ? 'Key is required.' : undefined,
      hwid: hwidShape === 'blank' ? 'HWID is required.' : undefined,
    };
    setFieldError(problems);
    if (problems.key || problems.hwid) {
      setRefused(true);
      return;
    }
    const paddedValues = [
      ...(keyShape === 'padded' ? [`Key “${keyValue.trim()}” has ${endsInWords(keyValue)}`] : []),
      ...(hwidShape === 'padded' ? [`HWID “${custom.trim()}” has ${endsInWords(custom)}`] : []),
    ];
    if (paddedValues.length > 0 && !asTyped) {
      setPadded(paddedValues);
      return;
    }
    setSentFor(inForm);
    setRefused(false);
    void run({
      mode: keyless ? 'keyless' : 'key',
      ...(keyless ? {} : { keyValue }),
      ...(service.trim() ? { service: service.trim() } : {}),
      hwid: choice === 'custom' ? { custom } : { method: choice },
      ...(sandbox ? { dryRun } : { confirmActivation: confirmed }),
    });
  };

  useEffect(() => void loadHwids(), [loadHwids]);

  return (
    <section aria-labelledby="validate-title">
      <h1 id="validate-title">Validate &amp; HWID</h1>
      <div className="columns">
        <fieldset className="card">
          <legend>This machine&apos;s HWID</legend>
          {hwidsError && <FailureMessage failure={hwidsError} />}
          {hwids.map((h) => (
            <label key={h.method} className="choice">
              <input
                type="radio"
                name="hwid"
                disabled={h.value === null}
                checked={choice === h.method}
                onChange={() => setChoice(h.method)}
              />
              <span>
                {h.label}
                <br />
                {h.value === null ? (
                  <code>{`unavailable: ${h.unavailableReason ?? ''}`}</code>
                ) : (
                  <span className="with-copy">
                    <code>{h.value}</code>
                    <CopyButton value={h.value} label={`Copy ${h.label} HWID`} />
                  </span>
                )}
              </span>
            </label>
          ))}
          <label className="choice">
            <input type="radio" name="hwid" checked={choice === 'custom'} onChange={() => setChoice('custom')} />
            <span>Type a value</span>
          </label>
          {choice === 'custom' && (
            <Field
              label="Custom HWID"
              value={custom}
              error={fieldError.hwid}
              hint={typedShape(custom) === 'padded' ? paddedWarning('HWID') : undefined}
              onChange={(e) => {
                setCustom(e.target.value);
                setFieldError({ ...fieldError, hwid: undefined });
              }}
            />
          )}
        </fieldset>
        <form
          className="card"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit(false);
          }}
        >
          <Field
            label="Keyless (check the HWID list instead of a key)"
            type="checkbox"
            checked={keyless}
            onChange={(e) => setKeyless(e.target.checked)}
          />
          {!keyless && (
            <Field
              label="Key"
              data-command-target="validate"
              className="mono"
              value={keyValue}
              error={fieldError.key}
              hint={typedShape(keyValue) === 'padded' ? paddedWarning('key') : undefined}
              onChange={(e) => {
                setKeyValue(e.target.value);
                setFieldError({ ...fieldError, key: undefined });
              }}
            />
          )}
          <Field
            label="Service identifier"
            placeholder={profile?.serviceIdentifier ?? ''}
            value={service}
            onChange={(e) => setService(e.target.value)}
          />
          {sandbox ? (
            <Field label="Dry run (nothing changes)" type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />
          ) : (
            <Field
              label="I understand a real validation activates the key and binds it to this HWID"
              type="checkbox"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
            />
          )}
          <button
            type="submit"
            className="primary"
            disabled={status === 'loading' || waits}
            aria-describedby={waits ? 'validate-waits' : undefined}
          >
            Validate
          </button>
          <ServiceWait id="validate-waits" what="Validating" />
          {status === 'loading' && <p role="status">Asking the service…</p>}
          {!refused && (error || report) && sentFor !== null && sentFor !== inForm && (
            <p className="muted">The last run&apos;s answer, for other values than those in the form now:</p>
          )}
          {!refused && report && changedAfter && (
            <p className="warning" role="status">
              {changedAfter.maybe ? 'Maybe an earlier answer' : 'An earlier answer'}
              {answeredAt && (
                <>
                  , from <Time iso={answeredAt} mode="time" />
                </>
              )}
              : {changedAfter.maybe ? `a ${changedAfter.what} ran` : `this key ${changedAfter.what}`} at{' '}
              <Time iso={changedAfter.at} mode="time" />. Validate again to see it now.
            </p>
          )}
          {!refused && <RequestFailure request={validationRequest} what="Validating" again="validate again" />}
          {!refused && report && <ValidationAnswer report={report} />}
        </form>
      </div>
      <ConfirmDialog
        open={padded !== null}
        title="Send it with its spaces?"
        body={`${(padded ?? []).join(', and ')}. The service keeps spaces as typed, so it may not match the value without them.`}
        confirmLabel="Validate as typed"
        onCancel={() => setPadded(null)}
        onConfirm={() => {
          setPadded(null);
          submit(true);
        }}
      />
    </section>
  );
}

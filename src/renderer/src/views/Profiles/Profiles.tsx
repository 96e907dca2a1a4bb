import { useState } from 'react';
import type { JobSummary, Profile } from '../../../../shared/domain.ts';
import type { Failure } from '../../../../shared/result.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { BulkCeiling } from './BulkCeiling.tsx';
import { DriftWatch } from './DriftWatch.tsx';
import { ServiceCapabilities } from './ServiceCapabilities.tsx';
import { EditProfile, originHint, otherValidationOrigin, useHostQuestion } from './EditProfile.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { jobTitle } from '../../lib/jobs.ts';
import { cleartextWarning, urlProblem } from '../../lib/urls.ts';
import { useKeydesk } from '../../store/index.ts';
import { selectBulkJob, selectGenerateJob, selectJob, selectJobElsewhere } from '../../store/job-selectors.ts';

const STORAGE = { 'os-keychain': 'OS keychain', 'session-only': 'this session only' } as const;

/** What removing a profile does to its apiKey, true for where that key is kept. */
function removeWords(profile: Profile | undefined): string {
  if (!profile?.hasKey) return 'It has no stored API key.';
  return profile.storage === 'os-keychain'
    ? 'Its API key is deleted from the OS keychain.'
    : 'Its API key, kept only for this session (no keychain), is forgotten.';
}

/** A profile with no apiKey stored, in the words Overview and Jobs use when they need it. */
function noKeyWords(p: Profile): string {
  const why = p.storage === 'session-only' ? ' (API keys kept for the session only are gone after a restart)' : '';
  return `No API key is stored for "${p.name}"${why}. Enter it again with Edit ${p.name}.`;
}

/** What stops being shown with the profile: Keydesk's own record of it, kept under the profile's id. */
function localRecordWords(profile: Profile | undefined): string {
  const local = profile?.local;
  const what = local
    ? `its ledger of ${fmt.count(local.ledgerKeys, NOUNS.key)} and its history of ${fmt.count(local.jobs, { one: 'job', other: 'jobs' })}`
    : 'the ledger of its keys and its job history';
  return `Keydesk's local record of it, ${what}, is no longer shown (adding the service again starts both empty).`;
}

/** A job main runs for the profile: removing it now would leave the job sending where nobody can follow or cancel it. */
function runningJobWords(job: JobSummary): string {
  const progress =
    job.startingSince !== undefined ? 'getting ready to send' : `${fmt.number(job.counts.done)} of ${fmt.number(job.total)} done`;
  return `A job is running for this profile: ${jobTitle(job)}, ${progress}. Cancel it first, or wait for it to end.`;
}

export function Profiles() {
  const profiles = useKeydesk((s) => s.profiles);
  const activeId = useKeydesk((s) => s.activeProfileId);
  const status = useKeydesk((s) => s.appStatus);
  const select = useKeydesk((s) => s.selectProfile);
  const add = useKeydesk((s) => s.addProfile);
  const remove = useKeydesk((s) => s.removeProfile);
  const openJob = useKeydesk((s) => s.openJob);
  const askRemoval = useKeydesk((s) => s.askRemoval);
  /** What main said, as the Remove dialog opened, of a job running for that profile. */
  const [askedRunning, setAskedRunning] = useState<JobSummary | null>(null);
  const setView = useKeydesk((s) => s.setView);
  // Every job this window knows main still runs: the active profile's (All keys', Keys') and another profile's.
  const job = useKeydesk(selectJob);
  const bulkJob = useKeydesk(selectBulkJob);
  const generateJob = useKeydesk(selectGenerateJob);
  const jobElsewhere = useKeydesk(selectJobElsewhere);
  const liveJobs = [job, bulkJob, generateJob, jobElsewhere];
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [validationUrl, setValidationUrl] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [toRemove, setToRemove] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{
    name?: string | null;
    baseUrl?: string | null;
    apiKey?: string | null;
    validationUrl?: string | null;
  }>({});
  const baseWarning = cleartextWarning(baseUrl);
  const addService = (confirmValidationOrigin?: string): void => {
    setBusy(true);
    void add({
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      apiKey,
      ...(validationUrl.trim() ? { validationUrl: validationUrl.trim() } : {}),
      ...(confirmValidationOrigin ? { confirmValidationOrigin } : {}),
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
  };
  const hostQuestion = useHostQuestion(baseUrl, addService);

  return (
    <section aria-labelledby="profiles-title">
      <h1 id="profiles-title">Profiles</h1>
      <div className="columns">
        <div className="card">
          <h2>Services</h2>
          {status?.profilesFileProblem && (
            <p role="alert" className="error">
              {status.profilesFileProblem}
            </p>
          )}
          {status?.secretStorageReason && (
            <p className="muted">API keys are kept for this session only and are gone when Keydesk quits. {status.secretStorageReason}</p>
          )}
          <ul className="profiles">
            {profiles.map((p) => (
              <li key={p.id} aria-current={p.id === activeId ? 'true' : undefined}>
                <strong>{p.name}</strong> <span className="muted">{p.kind === 'sandbox' ? 'local sandbox' : p.baseUrl}</span>
                <br />
                {p.hasKey ? (
                  <span className="muted">
                    API key {p.keyHint} · stored in {STORAGE[p.storage]}
                  </span>
                ) : (
                  <span className="warning">{noKeyWords(p)}</span>
                )}
                <div className="actions">
                  {p.id !== activeId && (
                    <button type="button" onClick={() => void select(p.id)}>
                      Use {p.name}
                    </button>
                  )}
                  {p.kind !== 'sandbox' && (
                    <button type="button" onClick={() => setEditing(editing === p.id ? null : p.id)} aria-expanded={editing === p.id}>
                      Edit {p.name}
                    </button>
                  )}
                  {p.kind !== 'sandbox' && (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        // Asked of main as the dialog opens: another profile's job is known here only from its events,
                        // and the local counts the dialog states may have grown since the list was read.
                        void askRemoval(p.id).then((running) => {
                          setAskedRunning(running);
                          setToRemove(p.id);
                        });
                      }}
                    >
                      Remove {p.name}
                    </button>
                  )}
                </div>
                {/* The edit form first, right under its profile's buttons; the bulk limit after it, its own form. */}
                {editing === p.id && <EditProfile profile={p} onDone={() => setEditing(null)} />}
                <BulkCeiling profile={p} />
                <ServiceCapabilities profile={p} checkable={p.hasKey} />
                {p.kind === 'remote' && p.hasKey && <DriftWatch profile={p} />}
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
            const other = otherValidationOrigin(baseUrl, validationUrl);
            if (other !== null) hostQuestion.ask(other);
            else addService();
          }}
        >
          <h2 id="add-profile-title">Add a remote service</h2>
          <Field
            label="Name"
            data-command-target="add-profile"
            value={name}
            aria-required
            error={fieldError.name}
            onChange={(e) => {
              setName(e.target.value);
              setFieldError({ ...fieldError, name: null });
            }}
          />
          <Field
            label="Base URL"
            type="url"
            placeholder="https://api.example.com"
            value={baseUrl}
            aria-required
            error={fieldError.baseUrl}
            onChange={(e) => {
              setBaseUrl(e.target.value);
              setFieldError({ ...fieldError, baseUrl: null });
            }}
            hint={originHint(baseWarning)}
          />
          <Field
            label="API key"
            type="password"
            autoComplete="off"
            value={apiKey}
            aria-required
            error={fieldError.apiKey}
            onChange={(e) => {
              setApiKey(e.target.value);
              setFieldError({ ...fieldError, apiKey: null });
            }}
            hint="Checked with the service before it is saved; never shown again."
          />
          <Field
            label="Validation URL (optional)"
            type="url"
            value={validationUrl}
            error={fieldError.validationUrl}
            hint={
              cleartextWarning(validationUrl) === null || baseWarning !== null
                ? undefined
                : 'http:// is not encrypted: what a protected app sends there can be read on the way.'
            }
            onChange={(e) => {
              setValidationUrl(e.target.value);
              setFieldError({ ...fieldError, validationUrl: null });
            }}
          />
          <Field label="Service identifier (optional)" value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
          {failure && <FailureMessage failure={failure} />}
          {hostQuestion.dialog}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Checking the key…' : 'Add service'}
          </button>
        </form>
      </div>
      {(() => {
        const profile = profiles.find((p) => p.id === toRemove);
        // Main's answer as the dialog opened, unless a progress event heard since says more of that job; then every
        // other job this window knows of for the profile.
        const known = liveJobs.filter((j): j is JobSummary => j !== null && j.profileId === toRemove);
        const asked =
          askedRunning?.profileId === toRemove
            ? (known.find((j) => j.id === askedRunning.id && j.version > askedRunning.version) ?? askedRunning)
            : null;
        const running = [asked, ...known.filter((j) => j.id !== asked?.id)].find((j) => j !== null && j.finishedAt === null) ?? null;
        if (running && profile) {
          // Main refuses too; here the way to the job is offered instead of a Remove that would be refused.
          return (
            <ConfirmDialog
              open
              title={`${profile.name} cannot be removed now`}
              body={runningJobWords(running)}
              confirmLabel={profile.id === activeId ? 'Open the job in Jobs' : `Switch to ${profile.name} and open the job`}
              // The body says "Cancel it first" of the job; this button only closes the dialog, so it must not say Cancel.
              cancelLabel="Close"
              onCancel={() => setToRemove(null)}
              onConfirm={() => {
                setToRemove(null);
                void (profile.id === activeId ? Promise.resolve() : select(profile.id)).then(() => {
                  // A switch that failed said why in a toast; the job is not this profile's to open then.
                  if (useKeydesk.getState().activeProfileId !== profile.id) return;
                  openJob(running.id);
                  setView('jobs');
                });
              }}
            />
          );
        }
        return (
          <ConfirmDialog
            open={toRemove !== null}
            title="Remove this profile?"
            body={`${removeWords(profile)} ${localRecordWords(profile)} The keys on the service are not touched.`}
            confirmLabel="Remove"
            destructive
            onCancel={() => setToRemove(null)}
            onConfirm={() => {
              if (toRemove) void remove(toRemove);
              setToRemove(null);
            }}
          />
        );
      })()}
    </section>
  );
}

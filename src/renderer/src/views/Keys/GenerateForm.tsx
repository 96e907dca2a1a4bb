import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { generateInput, JOB_GENERATE_MAX } from '../../../../shared/contract.ts';
import type { JobSummary } from '../../../../shared/domain.ts';
import { charLength, fixedExpiryProblem, isCalendarDate, LIMITS, utcDate } from '../../../../shared/rules.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { isLive, jobTitle } from '../../lib/jobs.ts';
import { JobPanel } from '../../components/JobPanel.tsx';
import { StartingLine } from '../../components/StartingLine.tsx';
import { parseWhole } from '../../lib/numbers.ts';
import { ExpiryPicks } from '../../components/ExpiryPicks.tsx';
import { Field } from '../../components/Field.tsx';
import { copyToClipboard } from '../../lib/clipboard.ts';
import { shownText } from '../../lib/text.ts';
import { useCapability } from '../../lib/capabilities.ts';
import { useDraft, useKeydesk } from '../../store/index.ts';
import { selectGenerateJob, selectJob } from '../../store/job-selectors.ts';
import { call } from '../../lib/api.ts';
import { CustomerPick, type PickedCustomer } from './CustomerPick.tsx';

type FieldName = 'expire' | 'count' | 'daysKey' | 'note';
type Errors = Partial<Record<FieldName | 'form', string>>;

/** The time a submit is judged at (read when the person submits, never during render). */
const clock = { now: (): number => Date.now() };

/** Requests a count takes at the service's limit per request: more than one makes the generate a job. */
const requestsFor = (count: number): number => Math.ceil(count / LIMITS.countMax);

/** Every bad count gets the limit the form really has: jobs take more than one request's worth. */
const COUNT_RULE = `Count must be a whole number from ${fmt.number(LIMITS.countMin)} to ${fmt.number(JOB_GENERATE_MAX)}; above ${fmt.number(LIMITS.countMax)} runs as a job of several requests.`;

/** The expiry date's format, shown under the field and named again by every complaint about it. */
const DATE_FORMAT = 'YYYY-MM-DD (year, month, day), e.g. 2030-12-31';

/** What is wrong with a typed expiry date, in words that say how to write it; null for a real date (past is checked apart). */
function expiryDateProblem(typed: string): string | null {
  // The hint under the field already says how to write it: the error says what is wrong.
  if (typed === '') return 'Enter an expiry date.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(typed)) return `“${typed}” is not written ${DATE_FORMAT}.`;
  if (!isCalendarDate(typed)) return `“${typed}” is not a real calendar date: check the month and the day.`;
  return null;
}

/** Within this many characters of the note's limit, the field counts them as they are typed. */
const NOTE_NEAR = 100;

/** "950 of 1,000 characters" once the note nears its limit (and past it); nothing before. */
export function noteHint(note: string): string | undefined {
  const used = charLength(note);
  if (used < LIMITS.noteMaxChars - NOTE_NEAR) return undefined;
  const over = used - LIMITS.noteMaxChars;
  return over > 0
    ? `${fmt.number(used)} of ${fmt.number(LIMITS.noteMaxChars)} characters: ${fmt.count(over, NOUNS.character)} too many.`
    : `${fmt.number(used)} of ${fmt.number(LIMITS.noteMaxChars)} characters.`;
}

/** A generate job (more keys than one request takes): its progress, cancel between requests, and its keys' export. */
function GenerateJob({ job }: { job: JobSummary }) {
  const ended = !isLive(job);
  return (
    <div className="generated" role="group" aria-label="Generate job">
      {/* Its own time: a bulk action since, or a batch generated since, must not read as this job's. */}
      <p className="muted">
        Generate job of {fmt.count(job.total, NOUNS.key)}
        {job.note ? ` (note “${shownText(job.note)}”)` : ''}, started {fmt.time(job.createdAt)}
      </p>
      <JobPanel
        job={job}
        place="generate"
        notes={
          job.state !== 'running' &&
          !ended &&
          job.counts.sent > 0 && (
            <p className="muted">
              No further request is sent; the one already on its way still makes its keys, and its answer ends the job.
            </p>
          )
        }
      >
        {ended && job.counts.unknown > 0 && (
          <p className="error">
            {fmt.count(job.counts.unknown, NOUNS.key)} were requested with no answer: they may exist on the service. Look them up (by note)
            before generating them again.
          </p>
        )}
      </JobPanel>
    </div>
  );
}

/** The field a service error is about, when its message names one ("expire (…) is before today"). */
function serverField(failure: { message: string; field?: string }): FieldName | null {
  const m = /^(expire|count|daysKey|note)\b/.exec(failure.field ?? failure.message);
  return m ? (m[1] as FieldName) : null;
}

export function GenerateForm() {
  const generate = useKeydesk((s) => s.generate);
  const generateRequest = useKeydesk((s) => s.generateRequest);
  const { status: generating, error: serverError } = generateRequest;
  const clearServerError = useKeydesk((s) => s.clearGenerateError);
  const generated = useKeydesk((s) => s.lastGenerated);
  const notify = useKeydesk((s) => s.notify);
  const exportGenerated = useKeydesk((s) => s.exportGenerated);
  // Its own last job, not All keys' panel: a bulk action since does not take its export or Resume away.
  const job = useKeydesk(selectGenerateJob);
  // A job of this profile sending, or cancelled with a request still on its way (All keys' panel follows one job).
  const runningJob = useKeydesk((s) => {
    const current = selectJob(s);
    return current !== null && isLive(current) ? current : null;
  });
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const waits = useServiceWait() !== null;
  // A job asked of main and not answered yet (main lists its requests first): said at once, nothing else starts.
  const starting = useKeydesk((s) => s.jobStarting);
  const startJob = useKeydesk((s) => s.startGenerateJob);
  const attachJobs = useKeydesk((s) => s.attachJobs);
  const profileId = useKeydesk((s) => s.activeProfileId);
  // A generate job main runs for this profile (started before a reload, say) shows here with its progress.
  useEffect(() => void attachJobs(), [attachJobs, profileId]);
  const [count, setCount] = useDraft('generate.count');
  const [byDays, setByDays] = useDraft('generate.byDays');
  const [expire, setExpire] = useDraft('generate.expire');
  const [days, setDays] = useDraft('generate.days');
  const [note, setNote] = useDraft('generate.note');
  const [premium, setPremium] = useDraft('generate.premium');
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [anyMachine, setAnyMachine] = useDraft('generate.anyMachine');
  const anyMachineCapability = useCapability('generatedKeyEdit');
  // Only where the check found the edit: a service without it would ignore the flag and bind the keys anyway.
  const anyMachineOffered = anyMachineCapability?.state === 'present';
  const [errors, setErrors] = useState<Errors>({});
  // A refused attempt puts the focus on the first field in error, where its words are (not left on Generate).
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const serverAt = serverError ? serverField(serverError) : null;
  const staleGenerated = Object.keys(errors).length > 0;
  // More than one request's worth becomes a job of requests: said before anything is sent.
  const wanted = parseWhole(count);
  const requests = wanted > LIMITS.countMax && wanted <= JOB_GENERATE_MAX ? requestsFor(wanted) : null;
  // One job per profile: a generate that is a job waits for the running one; a single call may go beside a bulk job.
  const waitsForJob = runningJob !== null && (requests !== null || runningJob.action === 'generate');
  // The same rule while a job is starting: its answer has not come, but it runs as soon as it does.
  const waitsForStart = starting !== null && (requests !== null || starting.action === 'generate');
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
    // The shared rules main applies; problems show beside their field. A days key's expiry runs from activation, but
    // the service requires a date: the one typed if valid, else a year from today. Spaces around a date are dropped.
    const typedExpire = expire.trim();
    const sentExpire = byDays ? (isCalendarDate(typedExpire) ? typedExpire : utcDate(clock.now() + 365 * 86_400_000)) : typedExpire;
    const asJob = wanted > LIMITS.countMax;
    const parsed = generateInput.safeParse({
      expire: sentExpire,
      // Above one request's limit the other rules still apply; the count's own is the job's (checked below).
      count: count.trim() === '' ? undefined : asJob ? LIMITS.countMax : wanted,
      isPremium: premium,
      note: note === '' ? undefined : note,
      expiresByDaysKey: byDays,
      daysKey: byDays ? (days.trim() === '' ? undefined : parseWhole(days)) : undefined,
      noHwidValidation: anyMachineOffered && anyMachine ? true : undefined,
    });
    const next: Errors = {};
    if (asJob && wanted > JOB_GENERATE_MAX) next.count = COUNT_RULE;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'form') as keyof Errors;
        // The shared rule names one request's limit; the form takes more, as a job.
        next[field] ??= field === 'count' ? COUNT_RULE : issue.message;
      }
    }
    // The date's own words (how to write it), then the service's rule: a fixed expiry not before today (UTC).
    if (!byDays) {
      const problem = expiryDateProblem(typedExpire);
      if (problem) next.expire = problem;
      else {
        const past = fixedExpiryProblem(typedExpire, clock.now());
        if (past) next.expire = past.replace(/^expire/, 'The expiry date');
      }
    }
    if (!parsed.success || Object.keys(next).length > 0) {
      setErrors(next);
      setRefusals((n) => n + 1);
      return;
    }
    setErrors({});
    // A job links its keys to the customer in main, as each request's keys are recorded.
    if (asJob) void startJob({ ...parsed.data, count: wanted, ...(customer === null ? {} : { customer: customer.ref }) });
    else
      void generate(parsed.data).then((made) => {
        const keyValues = [...useKeydesk.getState().lastGenerated];
        if (!made || customer === null || keyValues.length === 0) return;
        void call('customers.link', { links: [{ customer: customer.ref, keyValues }] }).then((r) => {
          if (!r.ok) useKeydesk.getState().notifyFailure('customers.link', r);
          else setCustomer(r.data.customer ? { ref: { id: r.data.customer.id }, name: r.data.customer.name } : customer);
        });
      });
  };

  return (
    <form ref={formRef} className="card" aria-labelledby="generate-title" onSubmit={submit} noValidate>
      <h2 id="generate-title">Generate keys</h2>
      <Field
        label="Count"
        data-command-target="generate"
        inputMode="numeric"
        value={count}
        error={errors.count ?? (serverAt === 'count' ? serverError?.message : undefined)}
        hint={
          requests === null
            ? undefined
            : `More than ${fmt.number(LIMITS.countMax)} keys (the service's limit per request): sent as ${fmt.number(requests)} requests, run as a job with progress that you can cancel between requests.`
        }
        onChange={(e) => {
          setCount(e.target.value);
          changed('count');
        }}
      />
      <fieldset>
        <legend>Expiry</legend>
        <label>
          <input
            type="radio"
            name="expiry"
            checked={!byDays}
            onChange={() => {
              setByDays(false);
              changed('byDays');
            }}
          />{' '}
          On a date
        </label>
        <label>
          <input
            type="radio"
            name="expiry"
            checked={byDays}
            onChange={() => {
              setByDays(true);
              changed('byDays');
            }}
          />{' '}
          Days after activation
        </label>
      </fieldset>
      {byDays ? (
        <Field
          label="Days"
          inputMode="numeric"
          value={days}
          error={errors.daysKey ?? errors.expire ?? (serverAt === 'daysKey' || serverAt === 'expire' ? serverError?.message : undefined)}
          hint="Each key expires this many days after the machine that first validates it."
          onChange={(e) => {
            setDays(e.target.value);
            changed('daysKey', 'expire');
          }}
        />
      ) : (
        <>
          <Field
            label="Expiry date"
            placeholder="YYYY-MM-DD"
            hint={`Written ${DATE_FORMAT}.`}
            value={expire}
            error={errors.expire ?? (serverAt === 'expire' ? serverError?.message : undefined)}
            onChange={(e) => {
              setExpire(e.target.value);
              changed('expire');
            }}
          />
          <ExpiryPicks
            value={expire}
            now={clock.now}
            onPick={(date) => {
              setExpire(date);
              changed('expire');
            }}
          />
        </>
      )}
      <CustomerPick
        picked={customer}
        onPick={(p, filled) => {
          setCustomer(p);
          if (p !== null) {
            setNote(filled);
            changed('note');
          }
        }}
      />
      <Field
        label="Note"
        value={note}
        // The limit is told as it nears, counted as the rule counts (characters, not UTF-16 units).
        hint={noteHint(note)}
        error={errors.note ?? (serverAt === 'note' ? serverError?.message : undefined)}
        onChange={(e) => {
          setNote(e.target.value);
          changed('note');
        }}
      />
      <Field
        label="Premium"
        type="checkbox"
        checked={premium}
        onChange={(e) => {
          setPremium(e.target.checked);
          changed('premium');
        }}
      />
      {anyMachineOffered && (
        <>
          <Field label="Works on any machine" type="checkbox" checked={anyMachine} onChange={(e) => setAnyMachine(e.target.checked)} />
          {anyMachine && <p className="muted">Never bound to a HWID: it validates from every machine.</p>}
        </>
      )}
      {serverError && serverAt === null && <RequestFailure request={generateRequest} what="Generating" again="generate again" />}
      <button
        type="submit"
        className="primary"
        disabled={generating === 'loading' || waitsForJob || waitsForStart || waits}
        aria-describedby={waits ? 'generate-waits' : undefined}
      >
        {generating === 'loading'
          ? `Generating ${Number.isFinite(Number(count)) ? fmt.count(Number(count), NOUNS.key) : 'keys'}…`
          : requests === null
            ? 'Generate'
            : `Generate as a job of ${fmt.number(requests)} requests`}
      </button>
      <ServiceWait id="generate-waits" what="Generating" />
      {runningJob && runningJob.id !== job?.id && starting === null && (
        <p className="muted" role="status">
          {keydeskGone
            ? `The job “${jobTitle(runningJob)}” was running for this profile when Keydesk stopped answering: its state is not known.`
            : runningJob.action === 'generate'
              ? `The job “${jobTitle(runningJob)}” is running for this profile: generating starts again once it ends or is cancelled.`
              : waitsForJob
                ? `The job “${jobTitle(runningJob)}” is running for this profile (see All keys). More than ${fmt.number(LIMITS.countMax)} keys run as a job, and a profile runs one job at a time: this can start once that job ends or is cancelled. Up to ${fmt.number(LIMITS.countMax)} keys generate now.`
                : `The job “${jobTitle(runningJob)}” is running for this profile (see All keys); up to ${fmt.number(LIMITS.countMax)} keys generate beside it.`}
        </p>
      )}
      {generating === 'loading' && <progress aria-label="Generating keys" />}
      {starting?.action === 'generate' ? (
        <div className="generated" role="group" aria-label="Generate job">
          <progress aria-label="Generate job progress" />
          <p role="status">
            <StartingLine starting={starting} />
          </p>
        </div>
      ) : (
        job && <GenerateJob job={job} />
      )}
      {generated.length > 0 && (
        // A new attempt the form refused leaves the last batch's keys (still worth copying) marked as the earlier ones.
        <div className={staleGenerated ? 'generated stale' : 'generated'} aria-label="Generated keys">
          <p>
            {staleGenerated ? 'The earlier batch (nothing sent this time: the form found a problem above): ' : ''}
            {fmt.count(generated.length, NOUNS.key)} generated.{' '}
            <button
              type="button"
              onClick={() => {
                const keys = fmt.count(generated.length, NOUNS.key);
                void copyToClipboard(
                  generated.join('\n'),
                  staleGenerated ? `Copy the earlier batch’s ${keys}` : `Copy the ${keys} generated`,
                  `${keys} copied.`,
                  notify,
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
            {generated.slice(0, 20).map((value) => (
              <li key={value}>
                <span className="with-copy">
                  <span>
                    <ServiceText text={value} />
                  </span>
                  <CopyButton value={value} label={`Copy key ${shownText(value)}`} />
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

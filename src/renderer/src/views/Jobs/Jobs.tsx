// The Jobs view: the active profile's jobs, newest first, with each one's state and counts, and the job opened
// with its panel and results (JobItems.tsx).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobSummary } from '../../../../shared/domain.ts';
import { JOBS_LIST_MAX } from '../../../../shared/contract.ts';
import { Badge, type Tone } from '../../components/Badge.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import type { IconName } from '../../components/Icon.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { shownText } from '../../lib/text.ts';
import { isLive, isStarting, jobTitle } from '../../lib/jobs.ts';
import { JobPanel } from '../../components/JobPanel.tsx';
import { useKeydesk } from '../../store/index.ts';
import { selectJobList } from '../../store/job-selectors.ts';
import { JobElsewhere } from '../../components/JobLinks.tsx';
import { JOBS_RECENT } from '../../store/jobs.ts';
import { JobItems, running } from './JobItems.tsx';

/** A job's state as a badge: a word and an icon, never colour alone. */
function stateOf(j: JobSummary, keydeskGone: boolean): { word: string; tone: Tone; icon: IconName; title?: string } {
  // Keydesk itself stopped answering: a job it ran may have stopped with it.
  if (keydeskGone && isLive(j))
    return {
      word: 'State not known',
      tone: 'warning',
      icon: 'alert',
      title: 'Keydesk stopped answering: this job may have stopped with it',
    };
  // Reserved to run, main getting ready (a resume waits for the ledger): not stopped, not sending yet.
  if (isStarting(j)) return { word: 'Starting', tone: 'info', icon: 'clock' };
  if (j.state === 'running') return { word: 'Running', tone: 'info', icon: 'clock' };
  // Stopped, with answers to requests already sent still to come: main is not done with it.
  if (isLive(j)) return { word: j.state === 'cancelled' ? 'Cancelling' : 'Stopping', tone: 'info', icon: 'clock' };
  if (j.state === 'interrupted') return { word: 'Interrupted', tone: 'warning', icon: 'alert' };
  // A cancel that came after the last request stopped nothing: the job did all it was asked.
  if (j.state === 'cancelled' && j.counts.pending + j.counts.sent > 0) return { word: 'Cancelled', tone: 'neutral', icon: 'cross' };
  // Some keys failed or are in doubt: the same word, marked by tone and icon; the Failed and Unknown counts say which.
  const clean = j.counts.failed === 0 && j.counts.unknown === 0;
  return clean
    ? { word: 'Finished', tone: 'success', icon: 'check' }
    : { word: 'Finished', tone: 'warning', icon: 'alert', title: 'Finished: some keys failed or have an unknown outcome' };
}

function StateBadge({ job }: { job: JobSummary }) {
  const keydeskGone = useKeydesk((st) => st.keydeskGone !== null);
  const s = stateOf(job, keydeskGone);
  return (
    <Badge tone={s.tone} icon={s.icon} {...(s.title ? { title: s.title } : {})}>
      {s.word}
    </Badge>
  );
}

/** A moment after a job's start: the time alone on the same day. */
function After({ job, iso }: { job: JobSummary; iso: string }) {
  return <Time iso={iso} mode={fmt.date(iso) === fmt.date(job.createdAt) ? 'time' : 'dateTime'} />;
}

/** Keydesk stopped while the job ran, so no one saw it end: only its last moment at work is known. */
function UnseenEnd({ job, end }: { job: JobSummary; end: NonNullable<JobSummary['endUnseen']> }) {
  if (end.lastAnswerAt !== null) {
    return (
      <>
        stopped — last answer recorded <After job={job} iso={end.lastAnswerAt} />
      </>
    );
  }
  if (end.runStartedAt === null) return <>stopped — when is not known</>;
  if (!end.resumed) return <>stopped — no answer recorded after it started</>;
  return (
    <>
      stopped — no answer recorded after its resume <After job={job} iso={end.runStartedAt} />
    </>
  );
}

/** When a job started, and under it when it ended (the time alone on the same day), or that it has not. */
function When({ job }: { job: JobSummary }) {
  return (
    <>
      <Time iso={job.createdAt} mode="dateTime" />
      <br />
      <span className="muted">
        {isLive(job) || job.finishedAt === null ? (
          'not ended yet'
        ) : job.endUnseen ? (
          <UnseenEnd job={job} end={job.endUnseen} />
        ) : (
          <>
            ended <After job={job} iso={job.finishedAt} />
          </>
        )}
      </span>
    </>
  );
}

/** The detail's account of when a job Keydesk stopped under stopped: some time after the last moment known. */
function UnseenEndDetail({ end }: { end: NonNullable<JobSummary['endUnseen']> }) {
  if (end.lastAnswerAt !== null) {
    return (
      <>
        ; Keydesk stopped while it ran, some time after its last answer was recorded (<Time iso={end.lastAnswerAt} mode="dateTime" />)
      </>
    );
  }
  if (end.runStartedAt === null) return <>; Keydesk stopped while it ran, and when is not known</>;
  if (!end.resumed) return <>; Keydesk stopped while it ran, some time after it started: no answer was recorded</>;
  return (
    <>
      ; Keydesk stopped while it ran, some time after it was resumed (<Time iso={end.runStartedAt} mode="dateTime" />
      ): no answer was recorded since
    </>
  );
}

const count = (n: number) => (n === 0 ? <span className="muted">0</span> : fmt.number(n));

/** What the job did, with a generate job's note: "Generate (“spring”)". */
const jobName = (j: JobSummary): string => (j.note ? `${jobTitle(j)} (“${shownText(j.note)}”)` : jobTitle(j));

/** The job's target and size: "keys containing launch, expired: 12 keys" (the count once when the words hold it). */
function targetLine(j: JobSummary): string {
  const n = fmt.count(j.total, NOUNS.key);
  if (!j.label) return n;
  return j.label.includes(n) ? j.label : `${j.label}: ${n}`;
}

/** The list's columns; the job's name is the button that opens it (no Open column, to fit small windows). */
const jobColumns = (openId: string | null, onOpen: (j: JobSummary) => void, anyRunning: boolean): Column<JobSummary>[] => [
  {
    header: 'Job',
    cell: (j) => (
      <>
        <button
          type="button"
          className="link"
          aria-expanded={j.id === openId}
          data-job-id={j.id}
          aria-label={`${jobName(j)}, started ${fmt.dateTime(j.createdAt)}`}
          onClick={() => onOpen(j)}
        >
          {jobName(j)}
        </button>
        <br />
        <span className="muted">{targetLine(j)}</span>
      </>
    ),
  },
  { header: 'State', cell: (j) => <StateBadge job={j} /> },
  { header: 'When', cell: (j) => <When job={j} /> },
  { header: 'Done', cell: (j) => count(j.counts.done), className: 'num' },
  { header: 'Failed', cell: (j) => count(j.counts.failed), className: 'num' },
  { header: 'Unknown', cell: (j) => count(j.counts.unknown), className: 'num' },
  // Sent and awaiting an answer has its own word; while a job runs, what it has not sent is still to go ("yet").
  {
    header: anyRunning ? 'Not sent yet' : 'Not sent',
    cell: (j) => (
      <>
        {count(j.counts.pending)}
        {j.counts.sent > 0 && <span className="muted"> (+{fmt.number(j.counts.sent)} awaiting an answer)</span>}
      </>
    ),
    className: 'num',
  },
];

/** Why removing this job loses something, in words, before the yes. */
function forgetBody(j: JobSummary): string {
  const parts = [`Its results (each ${j.action === 'generate' ? "request's" : "key's"} outcome) can no longer be opened or exported here.`];
  if (j.action === 'generate' && j.counts.done > 0)
    parts.push(
      `The ${fmt.count(j.counts.done, NOUNS.key)} it made stay in All keys (search them by note) but are no longer exported as one job.`,
    );
  if (j.counts.pending > 0) parts.push(`The ${fmt.number(j.counts.pending)} not sent can no longer be resumed.`);
  if (j.counts.unknown > 0) parts.push(`The ${fmt.number(j.counts.unknown)} of unknown outcome are no longer listed here to check.`);
  parts.push('The keys stay in All keys, and the job stays in Activity as one line with its counts.');
  return parts.join(' ');
}

function JobDetail({ job, onClose }: { job: JobSummary; onClose: () => void }) {
  const forget = useKeydesk((s) => s.forgetJob);
  const forgetting = useKeydesk((s) => s.forgettingJob === job.id);
  const refresh = useKeydesk((s) => s.loadJobList);
  const [confirmForget, setConfirmForget] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [job.id]);
  // Esc closes it from anywhere in the view, as Close does; a dialog keeps its own Esc.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (e.key !== 'Escape' || e.defaultPrevented || target?.closest('dialog') || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const live = isLive(job);
  const generate = job.action === 'generate';
  return (
    <section className="card job-detail" aria-labelledby="job-detail-title">
      <div className="inline job-detail-head">
        <h2 id="job-detail-title" ref={heading} tabIndex={-1}>
          {jobName(job)}
        </h2>
        <StateBadge job={job} />
        <button type="button" className="small" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted">
        Started <Time iso={job.createdAt} mode="dateTime" />
        {!live && job.finishedAt && job.endUnseen && <UnseenEndDetail end={job.endUnseen} />}
        {!live && job.finishedAt && !job.endUnseen && (
          <>
            , ended <Time iso={job.finishedAt} mode="dateTime" />
          </>
        )}
        . {fmt.count(job.total, NOUNS.key)}
        {generate
          ? ` in ${fmt.number(Math.ceil(job.total / 100_000))} ${Math.ceil(job.total / 100_000) === 1 ? 'request' : 'requests'}`
          : ''}
        .
      </p>
      <JobPanel
        job={job}
        place="jobs"
        onChanged={refresh}
        notes={
          !live &&
          job.counts.unknown > 0 && (
            <p className="error">
              {generate
                ? `${fmt.count(job.counts.unknown, NOUNS.key)} requested with no answer: they may exist on the service (look them up by note).`
                : `${fmt.count(job.counts.unknown, NOUNS.request)} sent with no answer: ${job.counts.unknown === 1 ? 'it' : 'they'} may have taken effect.`}{' '}
              Keydesk never sends {job.counts.unknown === 1 && !generate ? 'it' : 'them'} again by itself; check first (Show: Unknown), then
              choose.
            </p>
          )
        }
        onForget={(exporting) => (
          <button
            type="button"
            disabled={forgetting || exporting}
            title={exporting ? 'An export of this job is being written; it can be removed once that is done.' : undefined}
            onClick={() => setConfirmForget(true)}
          >
            Remove from the list…
          </button>
        )}
      />
      <JobItems job={job} />
      <ConfirmDialog
        open={confirmForget}
        title="Remove this job from the list?"
        body={forgetBody(job)}
        confirmLabel="Remove"
        destructive
        onCancel={() => setConfirmForget(false)}
        onConfirm={() => {
          setConfirmForget(false);
          void forget(job.id).then((gone) => {
            if (gone) onClose();
          });
        }}
      />
    </section>
  );
}

export function Jobs() {
  const jobs = useKeydesk(selectJobList);
  const { status, error } = useKeydesk((s) => s.jobListRequest);
  const load = useKeydesk((s) => s.loadJobList);
  const unlisted = useKeydesk((s) => s.jobListUnlisted);
  const more = useKeydesk((s) => s.jobListNext) !== null;
  const recent = useKeydesk((s) => s.jobListRecent);
  const openId = useKeydesk((s) => s.openJobId);
  const open = useKeydesk((s) => s.openJob);
  const setView = useKeydesk((s) => s.setView);
  const profileId = useKeydesk((s) => s.activeProfileId);
  const profileName = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId)?.name);
  useEffect(() => void load(), [load, profileId]);
  const opened = jobs.find((j) => j.id === openId) ?? null;
  /** Close gives the focus back to the job's name in the list, or (a job removed) to the view's heading. */
  const close = useCallback(() => {
    const id = openId;
    open(null);
    requestAnimationFrame(() => {
      const back = id === null ? null : document.querySelector<HTMLElement>(`button[data-job-id="${id}"]`);
      (back ?? document.getElementById('jobs-title'))?.focus();
    });
  }, [openId, open]);
  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title" tabIndex={-1}>
        Jobs
      </h1>
      <p className="muted">Bulk actions and generates over 100,000 keys run here, and go on while you use other views.</p>
      <div className="card">
        <p className="muted">
          Listed for {profileName ?? 'this service'}: every running or interrupted job, and the {fmt.number(recent)} most recent
          {unlisted > 0 ? ' (older ones on request, below)' : ''}.
        </p>
        <JobElsewhere />
        {error && (
          <>
            <FailureMessage failure={error} />
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </>
        )}
        {!error && status !== 'ready' && jobs.length === 0 && <Skeleton label="Loading jobs…" variant="rows" lines={3} />}
        {!error && (status === 'ready' || jobs.length > 0) && (
          <DataTable
            label="Jobs"
            columns={jobColumns(openId, (j) => open(j.id === openId ? null : j.id), jobs.some(running))}
            rows={jobs}
            rowKey={(j) => j.id}
            isCurrent={(j) => j.id === openId}
            empty={
              <EmptyState
                title="No jobs yet"
                action={
                  <button type="button" onClick={() => setView('ledger')}>
                    Go to All keys
                  </button>
                }
              >
                A bulk action on keys in All keys, or a generate of more than 100,000 keys in Keys, runs as a job and is listed here with
                its results.
              </EmptyState>
            }
          />
        )}
        {!error && status === 'ready' && unlisted > 0 && (
          <p className="inline">
            <span className="muted">
              {fmt.number(unlisted)} older {unlisted === 1 ? 'job is' : 'jobs are'} not shown.
              {!more &&
                ` Keydesk lists at most ${fmt.number(JOBS_LIST_MAX)} jobs besides the running and interrupted ones: remove older ones you no longer need to bring these in.`}
            </span>
            {more && (
              <button type="button" onClick={() => void load(true)}>
                Show {Math.min(unlisted, JOBS_RECENT)} older
              </button>
            )}
          </p>
        )}
      </div>
      {opened && <JobDetail key={opened.id} job={opened} onClose={close} />}
    </section>
  );
}

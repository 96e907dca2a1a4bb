// One job's panel, as All keys, the Jobs view and Keys' Generate form show it: its bar and line, and what can be
// done to it there (cancel, resume, send the unknown again, export, put away). Each place adds its own lines around it.
import { useRef, useState, type ReactNode } from 'react';
import type { JobSummary } from '../../../shared/domain.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { canCancel, isLive, jobTitle } from '../lib/jobs.ts';
import { plain } from '../lib/words.ts';
import { shownText } from '../lib/text.ts';
import { useKeydesk } from '../store/index.ts';
import { CancelJobButton } from './CancelJobButton.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { JobStory } from './JobStory.tsx';
import { OpenInJobs } from './JobLinks.tsx';
import { ResumeJobButton } from './ResumeJobButton.tsx';
import { ServiceWait, useServiceWait } from './ServiceWait.tsx';
import { JobLine, JobProgress } from './StartingLine.tsx';
import { checkFirstWords, sentOnceWords, UnknownCheckResult, useUnknownCheck } from './UnknownCheck.tsx';

/** Where the panel is: All keys' bulk job, the job open in the Jobs view, or the Generate form's job. */
export type JobPlace = 'allKeys' | 'jobs' | 'generate';

const PROGRESS_LABEL: Record<JobPlace, string> = {
  allKeys: 'Bulk progress',
  jobs: 'Job progress',
  generate: 'Generate job progress',
};

export function JobPanel({
  job,
  place,
  notes,
  children,
  onChanged,
  onForget,
}: {
  job: JobSummary;
  place: JobPlace;
  /** Lines between the job's line and its buttons. */
  notes?: ReactNode;
  /** What the place shows under the buttons (All keys' problems, the form's unknown keys). */
  children?: ReactNode;
  /** After a cancel or a resume from here (the Jobs list reads itself again). */
  onChanged?: () => Promise<void>;
  /** The Jobs view's "Remove from the list…": asks first; `exporting` while an export of the job is written. */
  onForget?: (exporting: boolean) => ReactNode;
}) {
  const cancel = useKeydesk((s) => s.cancelBulk);
  const resume = useKeydesk((s) => s.resumeJob);
  const exportJob = useKeydesk((s) => s.exportJob);
  const exportKeys = useKeydesk((s) => s.exportJobKeys);
  const dismiss = useKeydesk((s) => (place === 'generate' ? s.dismissGenerateJob : s.dismissJob));
  // The Jobs view waits for a start or resume asked elsewhere; All keys and the form hide their panel meanwhile.
  const starting = useKeydesk((s) => place === 'jobs' && s.jobStarting !== null);
  const waits = useServiceWait() !== null;
  const againNote = `again-waits-${job.id}`;
  // Cancel asked, main not answered yet: said at once, and the button does not stay as if nothing happened.
  const cancelling = useKeydesk((s) => s.jobCancelling === job.id);
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const [confirmUnknown, setConfirmUnknown] = useState(false);
  const unknownCheck = useUnknownCheck(job);
  // Where the last export went, kept on screen after its toast has left.
  const [savedTo, setSavedTo] = useState<string | null>(null);
  // Exports of this job under way (main refuses its removal meanwhile: the file would end short).
  const [exporting, setExporting] = useState(0);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const live = isLive(job);
  const generate = job.action === 'generate';
  const save = (written: Promise<string | null>) => {
    setExporting((n) => n + 1);
    void written
      .then((path) => {
        if (path !== null) setSavedTo(path);
      })
      .finally(() => {
        setExporting((n) => n - 1);
      });
  };
  const again = async (retryUnknown: boolean) => {
    await resume(retryUnknown, job.id);
    await onChanged?.();
  };
  return (
    <>
      {/* No answer yet: a bar that moves without claiming how far, as the status line says. */}
      <JobProgress job={job} label={PROGRESS_LABEL[place]} />
      <p role="status" tabIndex={-1} ref={statusRef}>
        {cancelling ? (
          place === 'generate' ? (
            `${jobTitle(job)}, cancelling: no further request is sent; the one already on its way still makes its keys.`
          ) : (
            `${jobTitle(job)}, cancelling: no further request is sent; those on their way are cut off, their outcome unknown.`
          )
        ) : (
          <JobLine job={job} />
        )}
      </p>
      {place === 'allKeys' && job.pausedUntil && live && (
        <span className="muted"> The service asked to wait; paused until {new Date(job.pausedUntil).toLocaleTimeString()}.</span>
      )}
      {job.reason && <p className="error">{plain(job.reason)}</p>}
      <JobStory job={job} />
      {place === 'generate' && canCancel(job) && !cancelling && !keydeskGone && (
        <p className="muted">Cancel stops before the next request; a request already on its way still makes its keys.</p>
      )}
      {notes}
      <div className="inline">
        {canCancel(job) && !cancelling && (
          <CancelJobButton
            status={statusRef}
            onCancel={async () => {
              await cancel(job.id);
              await onChanged?.();
            }}
          />
        )}
        {!live && job.counts.pending > 0 && place !== 'generate' && (
          <ResumeJobButton job={job} disabled={starting} onResume={() => void again(false)} />
        )}
        {!live && job.counts.unknown > 0 && place !== 'generate' && (
          <button
            type="button"
            disabled={starting || waits}
            aria-describedby={waits ? againNote : undefined}
            onClick={() => setConfirmUnknown(true)}
          >
            Send the {fmt.number(job.counts.unknown)} unknown again…
          </button>
        )}
        {place !== 'generate' &&
          (['csv', 'json'] as const).map((format) => (
            <button key={format} type="button" onClick={() => save(exportJob(format, job.id))}>
              Export results {format.toUpperCase()}
            </button>
          ))}
        {generate &&
          !live &&
          job.counts.done > 0 &&
          (['csv', 'json'] as const).map((format) => (
            <button key={format} type="button" onClick={() => save(exportKeys(format, job.id))}>
              Export the {fmt.count(job.counts.done, NOUNS.key)} {format.toUpperCase()}
            </button>
          ))}
        {/* In the form, Resume comes after the keys the job made: its results first, then what is left. */}
        {!live && job.counts.pending > 0 && place === 'generate' && job.state !== 'running' && (
          <button type="button" disabled={waits} aria-describedby={waits ? againNote : undefined} onClick={() => void again(false)}>
            Resume ({fmt.count(job.counts.pending, NOUNS.key)} not requested)
          </button>
        )}
        {!live && place !== 'jobs' && (
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        )}
        {!live && onForget?.(exporting > 0)}
        {place !== 'jobs' && <OpenInJobs jobId={job.id} />}
      </div>
      {!live && (job.counts.unknown > 0 || (job.counts.pending > 0 && place === 'generate')) && (
        <ServiceWait id={againNote} what="Sending again" />
      )}
      {place === 'jobs' && savedTo && (
        <p className="muted">
          Last saved to <span className="mono">{savedTo}</span>
        </p>
      )}
      {children}
      {!live && !generate && <UnknownCheckResult job={job} state={unknownCheck.state} />}
      <ConfirmDialog
        open={confirmUnknown}
        title={
          generate
            ? `Request ${fmt.count(job.counts.unknown, NOUNS.key)} again?`
            : `Send ${fmt.count(job.counts.unknown, NOUNS.request)} again?`
        }
        body={`${sentOnceWords(job.counts.unknown)} ${
          job.action === 'extend'
            ? 'Sending an extension again extends the key again. '
            : generate
              ? 'Sending again may make these keys twice. '
              : ''
        }${generate ? (job.note ? `To check first, close this and look up the note “${shownText(job.note)}” in Keys: keys these requests made carry it.` : 'These requests had no note, so keys they may have made cannot be told apart from others.') : checkFirstWords(job)}`}
        {...(generate
          ? {}
          : {
              other: {
                label: 'Check these keys first',
                onClick: () => {
                  setConfirmUnknown(false);
                  unknownCheck.run();
                },
              },
            })}
        confirmLabel="Send again"
        destructive={job.action === 'extend' || generate}
        onCancel={() => setConfirmUnknown(false)}
        onConfirm={() => {
          setConfirmUnknown(false);
          void again(true);
        }}
      />
    </>
  );
}

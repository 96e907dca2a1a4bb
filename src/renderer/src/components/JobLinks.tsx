// What the job panels (All keys, Keys' generate form) and the Jobs view share: the way from a panel to the job's
// every result, and the line that says another profile's job still runs.
import { jobLine, stateNotKnownLine } from '../lib/jobs.ts';
import { useKeydesk } from '../store/index.ts';
import { selectJobElsewhere } from '../store/job-selectors.ts';

/** Opens the Jobs view on this job: its every result, by outcome, and the list of earlier jobs. */
export function OpenInJobs({ jobId }: { jobId: string }) {
  const openJob = useKeydesk((s) => s.openJob);
  const setView = useKeydesk((s) => s.setView);
  return (
    <button
      type="button"
      className="link"
      onClick={() => {
        openJob(jobId);
        setView('jobs');
      }}
    >
      See every result in Jobs
    </button>
  );
}

/** A job running on another profile: it keeps sending while this one is shown, so say where. */
export function JobElsewhere() {
  const elsewhere = useKeydesk(selectJobElsewhere);
  const name = useKeydesk((s) => s.profiles.find((p) => p.id === elsewhere?.profileId)?.name);
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  if (!elsewhere) return null;
  if (keydeskGone) {
    return (
      <p role="status" className="muted">
        A job was running {name ? `for profile ${name}` : 'for another profile'}: {stateNotKnownLine(elsewhere)}
      </p>
    );
  }
  return (
    <p role="status" className="muted">
      A job is running {name ? `for profile ${name}` : 'for another profile'}: {jobLine(elsewhere)} Switch to that profile to follow or
      cancel it.
    </p>
  );
}

// What a job acts on and what happened to it, in one line each: "Target: keys containing launch-2026" and
// "Started (0 of 499) · cancelled at 8 of 499 · resumed · finished, 499 of 499".
import type { JobEvent, JobSummary } from '../../../shared/domain.ts';
import { fmt } from '../lib/format.ts';

const EVENT_WORDS: Record<JobEvent['event'], string> = {
  started: 'started',
  resumed: 'resumed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
  finished: 'finished',
};

/** One step in words: "cancelled at 8 of 499" (an end says where it stopped; a start or resume, where it took up). */
export function eventWords(e: JobEvent): string {
  const at = `${fmt.number(e.done)} of ${fmt.number(e.total)}`;
  if (e.event === 'finished') return `finished, ${at}`;
  if (e.event === 'started') return e.done === 0 ? 'started' : `started at ${at}`;
  return `${EVENT_WORDS[e.event]} at ${at}`;
}

export function JobStory({ job }: { job: Pick<JobSummary, 'label' | 'history'> }) {
  const history = job.history ?? [];
  if (!job.label && history.length === 0) return null;
  return (
    <div className="job-story">
      {job.label && (
        <p>
          <span className="muted">Target:</span> {job.label}
        </p>
      )}
      {history.length > 0 && (
        <ol className="job-history" aria-label="History">
          {history.map((e, i) => (
            <li key={i} title={fmt.dateTime(e.at)}>
              {i === 0 ? eventWords(e).replace(/^./, (c) => c.toUpperCase()) : eventWords(e)}{' '}
              <span className="muted">({fmt.dateTime(e.at)})</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

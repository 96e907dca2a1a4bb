// What a refresh found changed elsewhere: its counts in words, and the keys, each with its changes.
import { useEffect, useState } from 'react';
import type { JobItem, JobSummary } from '../../../../shared/domain.ts';
import { refreshCountsWords, type RefreshChange } from '../../../../shared/job-words.ts';
import { call } from '../../lib/api.ts';
import { useKeydesk } from '../../store/index.ts';

/** Keys listed under the counts; the export has them all. */
const LISTED = 100;

export function RefreshResult({ job }: { job: JobSummary }) {
  const readChanges = useKeydesk((s) => s.refreshChanges);
  const [found, setFound] = useState<{ counts: Record<RefreshChange, number>; items: JobItem[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // An answer for a job no longer shown is dropped.
    const shown = { live: true };
    void (async () => {
      const counts = await readChanges(job.id);
      const items = await call('jobs.items', { jobId: job.id, state: 'done', noted: true, offset: 0, limit: LISTED });
      if (!shown.live) return;
      if (counts === null || !items.ok) setError('What the refresh found could not be read; its export has it.');
      else setFound({ counts, items: items.data.items, total: items.data.total });
    })();
    return () => {
      shown.live = false;
    };
  }, [job.id, job.finishedAt, readChanges]);
  if (error !== null)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (found === null) return null;
  return (
    <div aria-label="What the refresh found" role="region">
      <p role="status">
        <strong>{refreshCountsWords(found.counts)}</strong>
        {found.total === 0 ? '.' : ':'}
      </p>
      {found.total > 0 && (
        <ul className="mono">
          {found.items.map((item) => (
            <li key={item.seq}>
              {item.target}: {item.message}
            </li>
          ))}
          {found.total > found.items.length && <li>… {(found.total - found.items.length).toLocaleString()} more in the export</li>}
        </ul>
      )}
    </div>
  );
}

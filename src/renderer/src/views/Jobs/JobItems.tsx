// The open job's results in the Jobs view: a page of its items at a time, of one outcome or all, read again while
// the job runs.
import { useEffect, useState } from 'react';
import type { JobItem, JobItemState, JobSummary } from '../../../../shared/domain.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { isLive } from '../../lib/jobs.ts';
import { plain } from '../../lib/words.ts';
import { useKeydesk } from '../../store/index.ts';
import { JOB_ITEMS_PAGE } from '../../store/jobs.ts';

/** A job still sending: what it has not sent is "not sent yet". */
export const running = (j: JobSummary): boolean => j.state === 'running' && isLive(j);

const DONE_WORD: Record<JobSummary['action'], string> = {
  extend: 'Extended',
  delete: 'Deleted',
  resetHwid: 'HWID reset',
  generate: 'Generated',
  import: 'Looked up',
  refresh: 'Read again',
  edit: 'Edited',
};
const OUTCOME_WORD: Record<Exclude<JobItemState, 'done'>, string> = {
  failed: 'Refused',
  unknown: 'Unknown: sent, no answer came back',
  pending: 'Not sent',
  sent: 'Sent, awaiting an answer',
};
const SHOW: { state: JobItemState | null; label: string }[] = [
  { state: null, label: 'Every item' },
  { state: 'done', label: 'Done' },
  { state: 'failed', label: 'Failed' },
  { state: 'unknown', label: 'Unknown' },
  { state: 'pending', label: 'Not sent' },
  { state: 'sent', label: 'Awaiting an answer' },
];

function itemColumns(job: JobSummary): Column<JobItem>[] {
  const outcome: Column<JobItem> = {
    header: 'Outcome',
    cell: (i) =>
      i.state === 'done' ? DONE_WORD[job.action] : i.state === 'pending' && running(job) ? 'Not sent yet' : OUTCOME_WORD[i.state],
  };
  const reason: Column<JobItem> = {
    header: 'Reason',
    cell: (i) => (i.message ? <span title={i.code ?? undefined}>{plain(i.message)}</span> : <span className="muted">—</span>),
  };
  return job.action === 'generate'
    ? [{ header: 'Request', cell: (i) => i.target }, { header: 'Keys', cell: (i) => fmt.number(i.size), className: 'num' }, outcome, reason]
    : [{ header: 'Key', cell: (i) => <ServiceText text={i.target} />, className: 'mono' }, outcome, reason];
}

/** How often a running job's items page is read again. */
const ITEMS_REFRESH_MS = 2_000;

/** The open job's items, a page at a time, of one state or all. */
export function JobItems({ job }: { job: JobSummary }) {
  const [show, setShow] = useState<JobItemState | null>(null);
  const [offset, setOffset] = useState(0);
  // Only the page asked for: the rows of another state or page never stand under this choice while it loads.
  const page = useKeydesk((s) =>
    s.jobItems?.jobId === job.id && s.jobItems.state === show && s.jobItems.offset === offset ? s.jobItems : null,
  );
  const { status, error } = useKeydesk((s) => s.jobItemsRequest);
  const load = useKeydesk((s) => s.loadJobItems);
  useEffect(() => void load(show, offset), [load, job.id, show, offset]);
  // While main runs the job its items change state: the page shown is read again every few seconds (and once more
  // when the job ends, by the store).
  const live = isLive(job);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void load(show, offset), ITEMS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, load, show, offset]);
  const inState = (state: JobItemState | null) => (state === null ? null : job.counts[state]);
  const first = page && page.items.length > 0 ? page.offset + 1 : 0;
  const last = page ? page.offset + page.items.length : 0;
  return (
    <div className="job-items">
      <h3>Results</h3>
      <label>
        Show{' '}
        <select
          value={show ?? ''}
          onChange={(e) => {
            setShow(e.target.value === '' ? null : (e.target.value as JobItemState));
            setOffset(0);
          }}
        >
          {SHOW.map((o) => {
            const n = inState(o.state);
            // A generate job counts keys per batch: its items are requests, so the figures are keys, said so.
            return (
              <option key={o.label} value={o.state ?? ''}>
                {o.state === 'pending' && running(job) ? 'Not sent yet' : o.label}
                {n === null ? '' : job.action === 'generate' ? ` (${fmt.count(n, NOUNS.key)})` : ` (${fmt.number(n)})`}
              </option>
            );
          })}
        </select>
      </label>
      {error && <FailureMessage failure={error} />}
      {!error && page === null && <Skeleton label="Loading the job's results…" variant="rows" lines={3} />}
      {!error && page && (
        <>
          <p className="muted" role="status">
            {page.total === 0
              ? 'No item in this state.'
              : page.total <= JOB_ITEMS_PAGE && page.offset === 0
                ? fmt.count(page.total, job.action === 'generate' ? NOUNS.request : NOUNS.item)
                : `${fmt.number(first)}–${fmt.number(last)} of ${fmt.number(page.total)}`}
          </p>
          {page.total > 0 && <DataTable label="Job results" columns={itemColumns(job)} rows={page.items} rowKey={(i) => i.seq} />}
          {page.total > JOB_ITEMS_PAGE && (
            <nav className="pager" aria-label="Result pages">
              <button
                type="button"
                disabled={status === 'loading' || page.offset === 0}
                onClick={() => setOffset(Math.max(0, page.offset - JOB_ITEMS_PAGE))}
              >
                Previous
              </button>
              <button
                type="button"
                disabled={status === 'loading' || last >= page.total}
                onClick={() => setOffset(page.offset + JOB_ITEMS_PAGE)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}

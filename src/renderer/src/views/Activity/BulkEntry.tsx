// A bulk act's Activity line: its counts per outcome and the way to its keys, and the panel that lists them a page
// at a time from its job's items.
import { useEffect } from 'react';
import type { AuditEntry, JobAction, JobItem } from '../../../../shared/domain.ts';
import { ITEM_DONE_WORDS, ITEM_OUTCOME_WORDS, JOB_STATE_WORDS } from '../../../../shared/job-words.ts';
import { bulkWords } from '../../../../shared/operation-words.ts';
import { Badge } from '../../components/Badge.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { plain } from '../../lib/words.ts';
import { useKeydesk } from '../../store/index.ts';
import { AUDIT_ITEMS_PAGE } from '../../store/service.ts';

const JOB_ACTION: Readonly<Record<string, JobAction>> = {
  'keys.delete': 'delete',
  'keys.extend': 'extend',
  'keys.resetHwid': 'resetHwid',
  'keys.generate': 'generate',
  'import.start': 'import',
  'refresh.start': 'refresh',
};

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** A bulk line's counts, its state while not finished, and its keys' way: opened here, or why not. */
export function BulkOutcome({ entry, open, onOpen }: { entry: AuditEntry; open: boolean; onOpen: () => void }) {
  const active = useKeydesk((s) => s.activeProfileId);
  const known = useKeydesk((s) => s.profiles.some((p) => p.id === entry.profileId));
  const job = entry.job;
  if (!job) return null;
  const c = job.counts;
  return (
    <span className="outcome-failed">
      {job.state !== null && job.state !== 'finished' && <Badge tone="info">{JOB_STATE_WORDS[job.state]}</Badge>}
      {c && c.done > 0 && (
        <Badge tone="success" icon="check">
          {fmt.number(c.done)} done
        </Badge>
      )}
      {c && c.failed > 0 && (
        <Badge tone="danger" icon="alert">
          {fmt.number(c.failed)} failed
        </Badge>
      )}
      {c && c.unknown + c.sent > 0 && (
        <Badge tone="warning" icon="alert">
          {fmt.number(c.unknown + c.sent)} unknown
        </Badge>
      )}
      {c && c.pending > 0 && <Badge tone="neutral">{fmt.number(c.pending)} not sent</Badge>} {entry.message && `${plain(entry.message)} `}
      {!job.kept ? (
        <span className="muted">Its keys went when the job was removed from Jobs.</span>
      ) : !known ? (
        <span className="muted">{entry.profileName} was removed from Keydesk, so its keys are not shown.</span>
      ) : entry.profileId !== active ? (
        <span className="muted">Switch to {entry.profileName} to see its keys.</span>
      ) : (
        <button type="button" className="link" aria-expanded={open} onClick={onOpen}>
          {open ? 'Hide its keys' : 'Show its keys'}
        </button>
      )}
    </span>
  );
}

function itemColumns(action: JobAction): Column<JobItem>[] {
  return [
    action === 'generate'
      ? { header: 'Request', cell: (i) => `${i.target}: ${fmt.count(i.size, NOUNS.key)}` }
      : { header: 'Key', cell: (i) => <ServiceText text={i.target} />, className: 'mono' },
    { header: 'Outcome', cell: (i) => capital(i.state === 'done' ? ITEM_DONE_WORDS[action] : ITEM_OUTCOME_WORDS[i.state]) },
    { header: 'Reason', cell: (i) => (i.message ? plain(i.message) : <span className="muted">—</span>) },
  ];
}

/** The keys of a bulk line opened, from its job's items, a page at a time. */
export function BulkKeys({ entry, offset, onOffset }: { entry: AuditEntry; offset: number; onOffset: (offset: number) => void }) {
  const jobId = entry.job?.id ?? '';
  const items = useKeydesk((s) => (s.auditItems?.jobId === jobId ? s.auditItems : null));
  const { status, error } = useKeydesk((s) => s.auditItemsRequest);
  const load = useKeydesk((s) => s.loadAuditItems);
  useEffect(() => void load(jobId, offset), [load, jobId, offset]);
  const title = `${bulkWords(entry.action)}: ${entry.target}`;
  const total = items?.total ?? 0;
  const last = items ? items.offset + items.items.length : 0;
  return (
    <section className="card" aria-labelledby="activity-bulk-keys">
      <h2 id="activity-bulk-keys">{title}</h2>
      {error && <FailureMessage failure={error} />}
      {!error && items === null && <Skeleton label="Loading its keys…" variant="rows" lines={3} />}
      {!error && items && (
        <>
          <p className="muted" role="status">
            {total <= AUDIT_ITEMS_PAGE
              ? fmt.count(total, NOUNS.key)
              : `${fmt.number(items.offset + 1)}–${fmt.number(last)} of ${fmt.count(total, NOUNS.key)}`}
          </p>
          <DataTable
            label={`Keys of ${title}`}
            columns={itemColumns(JOB_ACTION[entry.action] ?? 'extend')}
            rows={items.items}
            rowKey={(i) => i.seq}
          />
          {total > AUDIT_ITEMS_PAGE && (
            <nav className="pager" aria-label="Its keys' pages">
              <button
                type="button"
                disabled={status === 'loading' || offset === 0}
                onClick={() => onOffset(Math.max(0, offset - AUDIT_ITEMS_PAGE))}
              >
                Previous
              </button>
              <button type="button" disabled={status === 'loading' || last >= total} onClick={() => onOffset(offset + AUDIT_ITEMS_PAGE)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

// Activity: one line per act a person took (a bulk act with its counts, opening to its keys), found by text, service
// and outcome, with the value an act on one key changed.
import { Fragment, useEffect, useMemo, useState } from 'react';
import type { AuditEntry } from '../../../../shared/domain.ts';
import { bulkWords } from '../../../../shared/operation-words.ts';
import { Badge } from '../../components/Badge.tsx';
import { operationWords, plain } from '../../lib/words.ts';
import { activityFilter, activityService } from '../../lib/text.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';
import { BulkKeys, BulkOutcome } from './BulkEntry.tsx';
import { changeTitle, changeWords } from './change-words.ts';

export const OUTCOME_UNKNOWN_WORDS = 'Unknown — may or may not have taken effect';

const columns = (openJob: string | null, onOpen: (e: AuditEntry) => void): Column<AuditEntry>[] => [
  { header: 'When', cell: (e) => <Time iso={e.at} mode="dateTime" /> },
  { header: 'Service', cell: (e) => e.profileName },
  { header: 'Operation', cell: (e) => (e.job ? bulkWords(e.action) : operationWords(e.action)) },
  // A key value or HWID wraps (after a dash where it has one) rather than push Outcome past the card's edge: at
  // 960x600 a one-line target cut "Succeeded" to "Succeede".
  {
    header: 'Target',
    cell: (e) => {
      const change = changeWords(e);
      return (
        <>
          <BreakAfterDashes text={plain(e.target)} />
          {change && (
            <span className="change muted" title={changeTitle(e)}>
              {plain(change)}
            </span>
          )}
        </>
      );
    },
    className: 'mono wrap',
  },
  {
    header: 'Outcome',
    cell: (e) =>
      e.job ? (
        <BulkOutcome entry={e} open={openJob === e.job.id} onOpen={() => onOpen(e)} />
      ) : e.outcome === 'ok' ? (
        <Badge tone="success" icon="check">
          Succeeded
        </Badge>
      ) : e.outcome === 'unknown' ? (
        // Sent, and no answer came: it may have been done, so it is not called failed.
        <span className="outcome-failed">
          <Badge tone="warning" icon="alert">
            {OUTCOME_UNKNOWN_WORDS}
          </Badge>{' '}
          {plain(e.message)}
        </span>
      ) : (
        <span className="outcome-failed">
          <Badge tone="danger" icon="alert">
            Failed
          </Badge>{' '}
          {plain(e.message)}
        </span>
      ),
  },
];

/** Text with a line-break opportunity after each dash (a key's groups stay whole; CSS breaks anywhere else if it must). */
function BreakAfterDashes({ text }: { text: string }) {
  const parts = text.split(/(?<=-)/);
  return (
    <>
      {parts.map((part, i) =>
        i === 0 ? (
          part
        ) : (
          <Fragment key={i}>
            <wbr />
            {part}
          </Fragment>
        ),
      )}
    </>
  );
}

export const ACTIVITY_PAGE = 100;

export function Activity() {
  const audit = useKeydesk((s) => s.audit);
  const { status, error } = useKeydesk((s) => s.auditRequest);
  const load = useKeydesk((s) => s.loadAudit);
  const exportAudit = useKeydesk((s) => s.exportAudit);
  const [text, setText] = useDraft('activity.text');
  const [outcome, setOutcome] = useDraft('activity.outcome');
  const [serviceDraft, setService] = useDraft('activity.service');
  const activeProfileId = useKeydesk((s) => s.activeProfileId);
  const profiles = useKeydesk((s) => s.profiles);
  const [offset, setOffset] = useState(0);
  // The bulk line whose keys are shown, and the page of them.
  const [opened, setOpened] = useState<{ jobId: string; offset: number } | null>(null);

  // The active service unless another, or all, was picked; what the list shows is what an export writes.
  const service = activityService(serviceDraft, activeProfileId, profiles);
  const filter = useMemo(() => activityFilter(text, outcome, service), [text, outcome, service]);
  // A new filter starts again from the newest entry.
  const [shownFilter, setShownFilter] = useState(filter);
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setOffset(0);
  }

  useEffect(() => void load({ filter, offset, limit: ACTIVITY_PAGE }), [load, filter, offset]);

  const total = audit?.total ?? 0;
  const first = audit && audit.entries.length > 0 ? audit.offset + 1 : 0;
  const last = audit ? audit.offset + audit.entries.length : 0;
  const openedEntry = audit?.entries.find((e) => e.job?.id === opened?.jobId && e.profileId === activeProfileId && e.job?.kept === true);
  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <div className="card">
        <div className="inline">
          <Field label="Filter" type="search" value={text} hint="Operation, target or message" onChange={(e) => setText(e.target.value)} />
          <label>
            Outcome{' '}
            <select value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)}>
              <option value="">Any</option>
              <option value="ok">Succeeded</option>
              <option value="failed">Failed</option>
              <option value="unknown">Unknown (no answer came)</option>
            </select>
          </label>
          <label>
            Service{' '}
            <select value={service ?? 'all'} onChange={(e) => setService(e.target.value === activeProfileId ? '' : e.target.value)}>
              <option value="all">All services</option>
              {profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          {(['csv', 'json'] as const).map((format) => (
            <button key={format} type="button" disabled={error !== null} onClick={() => void exportAudit(filter, format)}>
              Export {format.toUpperCase()}
            </button>
          ))}
        </div>
        {error && <FailureMessage failure={error} />}
        {!error && audit === null && <Skeleton label="Loading the activity…" variant="rows" lines={4} />}
        {!error && audit && (
          <>
            <p className="muted" role="status">
              {total <= audit.limit && audit.offset === 0
                ? fmt.count(total, NOUNS.operation)
                : `${fmt.number(first)}–${fmt.number(last)} of ${fmt.count(total, NOUNS.operation)}, newest first`}
            </p>
            <DataTable
              label="Activity"
              columns={columns(openedEntry?.job?.id ?? null, (e) =>
                setOpened(e.job && opened?.jobId !== e.job.id ? { jobId: e.job.id, offset: 0 } : null),
              )}
              rows={audit.entries}
              rowKey={(e) => e.id}
              empty={
                text || outcome || service !== activeProfileId ? (
                  <EmptyState title="No operation matches this filter.">Clear the filter to see every operation.</EmptyState>
                ) : (
                  <EmptyState title="Nothing done yet">
                    Every change this app makes to a service (generate, delete, extend, validate…) is listed here, with its outcome.
                  </EmptyState>
                )
              }
            />
            {total > audit.limit && (
              <nav className="pager" aria-label="Activity pages">
                <button
                  type="button"
                  disabled={status === 'loading' || audit.offset === 0}
                  onClick={() => setOffset(Math.max(0, audit.offset - ACTIVITY_PAGE))}
                >
                  Newer
                </button>
                <button
                  type="button"
                  disabled={status === 'loading' || last >= total}
                  onClick={() => setOffset(audit.offset + ACTIVITY_PAGE)}
                >
                  Older
                </button>
              </nav>
            )}
          </>
        )}
      </div>
      {openedEntry && opened && (
        <BulkKeys entry={openedEntry} offset={opened.offset} onOffset={(o) => setOpened({ jobId: opened.jobId, offset: o })} />
      )}
    </section>
  );
}

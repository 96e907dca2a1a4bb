// "Extend these…" for a week of Renewals: the days, the job over the week's keys (named for the week), and once it
// is started, a message per key to copy for its customer, from the profile's template.
import { useEffect, useState } from 'react';
import type { JobSummary, LedgerRow } from '../../../../shared/domain.ts';
import { DEFAULT_RENEWAL_TEMPLATE, fillTemplate, RENEWAL_TEMPLATE_MAX } from '../../../../shared/renewals.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { call } from '../../lib/api.ts';
import { fmt, NOUNS } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';
import type { LedgerFilter } from '../../store/types.ts';

const DAY_MS = 86_400_000;

/** Each key's message, its expiry moved by `days` (what the extend asks of the service), one after another. */
export function renewalMessages(template: string, rows: readonly LedgerRow[], days: number): string {
  return rows
    .filter((r) => r.status !== 'deleted')
    .map((r) =>
      fillTemplate(template, {
        key: r.value,
        expires: r.expiresAt ? fmt.date(new Date(Date.parse(r.expiresAt) + days * DAY_MS).toISOString()) : 'when it is activated',
        days,
        note: r.note,
      }),
    )
    .join('\n\n---\n\n');
}

/** An extend started here: its job, the keys listed then, and the days (the messages are for those). */
export interface Started {
  job: JobSummary;
  label: string;
  rows: readonly LedgerRow[];
  days: number;
  template: string;
}

export function RenewalMessage({
  filter,
  label,
  rows,
  targets,
  onStarted,
}: {
  filter: LedgerFilter;
  label: string;
  rows: readonly LedgerRow[];
  targets: number;
  onStarted: (started: Started) => void;
}) {
  const extendFilter = useKeydesk((s) => s.extendFilter);
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState(30);
  const [template, setTemplate] = useState<string | null>(null);
  const [isDefault, setIsDefault] = useState(true);

  useEffect(() => {
    void call('renewals.getTemplate', undefined).then((r) => {
      if (r.ok) {
        setTemplate(r.data.template);
        setIsDefault(r.data.isDefault);
      }
    });
  }, []);

  const saveTemplate = async (next: string | null) => {
    const r = await call('renewals.setTemplate', { template: next });
    if (r.ok) {
      setTemplate(r.data.template);
      setIsDefault(r.data.isDefault);
    }
  };
  const text = template ?? DEFAULT_RENEWAL_TEMPLATE;
  const validDays = Number.isSafeInteger(days) && days >= 1 && days <= 3650;

  return (
    <div className="renewal">
      {!open && (
        <button type="button" disabled={targets === 0} onClick={() => setOpen(true)}>
          Extend these…
        </button>
      )}
      {open && (
        <form
          className="renewal-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!validDays) return;
            void extendFilter(filter, days, label).then((j) => {
              if (j) {
                onStarted({ job: j, label, rows, days, template: text });
                setOpen(false);
              }
            });
          }}
        >
          <label>
            Extend by
            <input
              type="number"
              aria-label="Extend by (days)"
              min={1}
              max={3650}
              value={Number.isNaN(days) ? '' : days}
              onChange={(e) => setDays(Math.trunc(Number(e.target.value)))}
            />
            days
          </label>
          <button type="submit" className="primary" disabled={!validDays}>
            Extend {fmt.count(targets, NOUNS.key)}
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <details>
            <summary>Message to the customer{isDefault ? ' (default)' : ''}</summary>
            <p className="muted">
              Placeholders: {'{key}'}, {'{expires}'} (the new expiry), {'{days}'}, {'{note}'}. Kept for this service.
            </p>
            <textarea
              aria-label="Renewal message template"
              rows={5}
              maxLength={RENEWAL_TEMPLATE_MAX}
              value={text}
              onChange={(e) => setTemplate(e.target.value)}
            />
            <div className="inline">
              <button type="button" disabled={text.trim() === ''} onClick={() => void saveTemplate(text)}>
                Save message
              </button>
              <button type="button" disabled={isDefault} onClick={() => void saveTemplate(null)}>
                Use the default
              </button>
            </div>
          </details>
        </form>
      )}
    </div>
  );
}

/**
 * Which of `wanted` the job's done items name, read page by page until each is found or the items run out; a read
 * that fails gives its message, so a partial set is never taken for the whole.
 */
async function doneAmong(jobId: string, wanted: ReadonlySet<string>): Promise<Set<string> | { failed: string }> {
  const done = new Set<string>();
  for (let offset = 0; ; offset += ITEMS_PAGE) {
    const r = await call('jobs.items', { jobId, state: 'done', offset, limit: ITEMS_PAGE });
    if (!r.ok) return { failed: r.message };
    for (const item of r.data.items) if (wanted.has(item.target)) done.add(item.target);
    if (r.data.items.length < ITEMS_PAGE || done.size === wanted.size) return done;
  }
}

type Extended = { rows: readonly LedgerRow[] } | { failed: string };

/**
 * The listed keys the job extended, once it has ended; null while it runs (their outcome is not known yet) and until
 * this job's items are read (never an earlier job's).
 */
function useExtended(job: JobSummary, rows: readonly LedgerRow[]): Extended | null {
  const [extended, setExtended] = useState<{ jobId: string; found: Extended } | null>(null);
  const ended = job.state !== 'running';
  useEffect(() => {
    if (!ended) return;
    let live = true;
    void doneAmong(job.id, new Set(rows.filter((r) => r.status !== 'deleted').map((r) => r.value))).then((done) => {
      if (live) setExtended({ jobId: job.id, found: done instanceof Set ? { rows: rows.filter((r) => done.has(r.value)) } : done });
    });
    return () => {
      live = false;
    };
  }, [ended, job.id, job.counts.done, rows]);
  return ended && extended?.jobId === job.id ? extended.found : null;
}

/** A job's items read per call when finding the keys it extended. */
const ITEMS_PAGE = 1_000;

/**
 * The extend started here, followed as it runs, and once it has ended, the messages for the listed keys it
 * extended (a key whose outcome is unknown or failed gets none): kept when its week empties.
 */
export function RenewalStarted({ started }: { started: Started }) {
  const job = useKeydesk((s) => s.jobs[started.job.id] ?? started.job);
  const extended = useExtended(job, started.rows);
  const listed = started.rows.filter((r) => r.status !== 'deleted').length;
  return (
    <div className="card renewal-started" role="status">
      <p>
        Extending {job.label ?? started.label} by {fmt.count(started.days, NOUNS.day)}: {job.state} ({fmt.number(job.counts.done)} of{' '}
        {fmt.number(job.total)} done). Jobs shows it in full.
      </p>
      {job.state === 'running' || extended === null ? (
        <p className="muted">Messages to the customers can be copied once the extend has ended: only for keys it extended.</p>
      ) : 'failed' in extended ? (
        <p className="error" role="alert">
          Keydesk could not read which keys were extended, so there are no messages yet: {extended.failed}
        </p>
      ) : extended.rows.length === 0 ? (
        <p className="muted">No listed key was extended: there is no message to send.</p>
      ) : (
        <p>
          Messages for the {fmt.count(extended.rows.length, NOUNS.key)} extended
          {extended.rows.length < listed ? ` (of ${fmt.number(listed)} listed)` : ''}{' '}
          <CopyButton value={renewalMessages(started.template, extended.rows, started.days)} label="Copy the renewal messages" />
        </p>
      )}
    </div>
  );
}

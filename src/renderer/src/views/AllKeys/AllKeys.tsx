import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { JobSummary, LedgerRow, LedgerSortField } from '../../../../shared/domain.ts';
import { schemas } from '../../../../shared/rules.ts';
import { isExpired } from '../../components/Badge.tsx';
import { CancelJobButton } from '../../components/CancelJobButton.tsx';
import { ResumeJobButton } from '../../components/ResumeJobButton.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ariaSort, HeaderCheckbox, SortButton } from '../../components/DataTable.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { Field } from '../../components/Field.tsx';
import { JobElsewhere, OpenInJobs } from '../../components/JobLinks.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';
import { selectBulkJob, selectJob } from '../../store/job-selectors.ts';
import { LEDGER_PAGE } from '../../store/ledger.ts';
import type { BulkAction, LedgerFilter } from '../../store/types.ts';
import { canCancel, isLive, jobTitle } from '../../lib/jobs.ts';
import { JobLine, JobProgress, StartingLine } from '../../components/StartingLine.tsx';
import { checkFirstWords, sentOnceWords, UnknownCheckResult, useUnknownCheck } from '../../components/UnknownCheck.tsx';
import { copyToClipboard } from '../../lib/clipboard.ts';
import { parseWhole } from '../../lib/numbers.ts';
import { plain } from '../../lib/words.ts';

const ROW_HEIGHT = 34;
const OVERSCAN = 6;
/** Never more rows in the DOM than this, whatever the window size. */
export const MAX_DOM_ROWS = 60;

/** What the last column means: when Keydesk last read or changed the key, never when a customer used it. */
export const CHECKED_TITLE =
  'When Keydesk last read or changed this key on the service (generated, looked up or acted on here); not when a customer used it.';

/** The grid's columns in order; Premium and HWID cannot be sorted (the ledger's sorts do not include them). */
const COLUMNS: { field: LedgerSortField | null; label: string; title?: string }[] = [
  { field: 'value', label: 'Key' },
  { field: 'status', label: 'Status' },
  { field: null, label: 'Premium' },
  { field: 'note', label: 'Note' },
  { field: null, label: 'HWID' },
  { field: 'expiresAt', label: 'Expires' },
  { field: 'createdAt', label: 'Created' },
  // Keydesk's own bookkeeping, not customer activity: a key no client ever validated is checked when it is generated.
  { field: 'lastSeenAt', label: 'Checked by Keydesk', title: CHECKED_TITLE },
];

/** Each sort's order in words: a date column newest or soonest first, a text column A to Z. */
const ORDER_WORDS: Record<LedgerSortField, { asc: string; desc: string }> = {
  createdAt: { asc: 'oldest first', desc: 'newest first' },
  expiresAt: { asc: 'soonest first', desc: 'latest first' },
  lastSeenAt: { asc: 'least recently checked first', desc: 'most recently checked first' },
  value: { asc: 'A to Z', desc: 'Z to A' },
  note: { asc: 'A to Z', desc: 'Z to A' },
  status: { asc: 'in status order', desc: 'in reverse status order' },
};

/**
 * The current sort in words ("Sorted by Created, newest first."), said above the table: a window too narrow for every
 * column scrolls the grid sideways, and the sorted column's arrow may then be out of sight.
 */
export function sortWords(sort: { field: LedgerSortField; dir: 'asc' | 'desc' }): string {
  const label = COLUMNS.find((c) => c.field === sort.field)?.label ?? sort.field;
  return `Sorted by ${label}, ${ORDER_WORDS[sort.field][sort.dir]}.`;
}

/**
 * What a row whose new expiry was never read back says (the ledger's expiryStale mark): an extend answered with no
 * key that could not be read back, or one sent with no answer (unknown: it may or may not have taken effect).
 */
export const STALE_EXPIRY = 'An extend was sent and the new expiry not read back — look the key up.';
/** What a row says whose HWID reset was sent with no answer (the ledger's hwidStale mark): it may have been cleared. */
export const STALE_HWID = 'An HWID reset was sent with no answer, so this HWID may already be cleared — look the key up.';
/** What a row says whose delete was sent with no answer (the ledger's statusStale mark): the key may be deleted. */
export const STALE_STATUS = 'A delete was sent with no answer, so this key may already be deleted — look the key up.';

/**
 * A value the ledger holds from before an act whose outcome never came back: shown as seen before, marked "⚠ … · not
 * read back" (the mark is the CSS's), with the whole sentence in the title and for screen readers.
 */
function NotReadBack({ shown, sentence, before }: { shown: string; sentence: string; before: string }) {
  return (
    <span className="not-read-back" title={`${sentence} ${before}`}>
      {shown}
      <span aria-hidden="true"> · not read back</span>
      <span className="visually-hidden"> ({sentence})</span>
    </span>
  );
}

/** A date (with a clock badge once passed), or a days key's term: "+45 days" on screen, read out whole. */
function Expiry({ row }: { row: LedgerRow }) {
  // A deleted key expires never again: the expiry it had is shown muted as past ("was …"), so the Expires sort,
  // which orders by it, reads true, and nothing shows it as current.
  if (row.status === 'deleted') {
    return (
      <span className="muted" title={row.expiresAt ? `Expiry when deleted: ${row.expiresAt}` : undefined}>
        {row.expiresAt ? `was ${fmt.date(row.expiresAt)}` : row.daysKey === null ? '—' : `was +${fmt.count(row.daysKey, NOUNS.day)}`}
        <span className="visually-hidden"> (deleted)</span>
      </span>
    );
  }
  if (row.expiryStale) {
    // Extended on the service (or perhaps: no answer came), and the new expiry never came back: the date is the one
    // seen before, and says so.
    return (
      <NotReadBack
        shown={row.expiresAt ? fmt.date(row.expiresAt) : '—'}
        sentence={STALE_EXPIRY}
        before={`Expiry seen before: ${row.expiresAt ?? 'none'}`}
      />
    );
  }
  if (row.expiresAt) {
    // Plain text and CSS marks in the grid's rows: a keystroke re-renders every row on screen.
    return isExpired(row.expiresAt) ? (
      <span className="expired" title={`Expired: ${row.expiresAt}`}>
        {fmt.date(row.expiresAt)}
        <span className="visually-hidden"> (expired)</span>
      </span>
    ) : (
      <span title={row.expiresAt}>{fmt.date(row.expiresAt)}</span>
    );
  }
  if (row.daysKey === null) return '—';
  const days = fmt.number(row.daysKey);
  return (
    <span title={`${fmt.count(row.daysKey, NOUNS.day)} from activation`}>
      <span aria-hidden="true">+{fmt.count(row.daysKey, NOUNS.day)}</span>
      <span className="visually-hidden">{days} days from activation</span>
    </span>
  );
}

const STATUS_WORD: Record<LedgerRow['status'], string> = { generated: 'Generated', active: 'Active', deleted: 'Deleted' };

/** Picks a row: a plain click toggles it; with Shift, every loaded row from the last pick to this one. */
type Pick = (index: number, value: string, shift: boolean, selected: boolean) => void;

/**
 * One row. Only the row holding the table's Tab stop (`tabbable`) has a checkbox in the Tab order: the arrows move
 * between rows, Space ticks (Shift+Space a range), so a thousand rows are not a thousand Tab stops.
 */
function Row({
  row,
  index,
  top,
  onPick,
  tabbable,
}: {
  row: LedgerRow | undefined;
  index: number;
  top: number;
  onPick: Pick;
  tabbable: boolean;
}) {
  const selected = useKeydesk((s) => (row ? s.selectedAll !== null || s.selection.has(row.value) : false));
  return (
    <div role="row" aria-rowindex={index + 2} className="vrow" style={{ transform: `translateY(${top}px)` }} aria-selected={selected}>
      <div role="gridcell" className="vcell check">
        {row && (
          <input
            type="checkbox"
            aria-label={`Select ${row.value}`}
            data-row={index}
            tabIndex={tabbable ? 0 : -1}
            checked={selected}
            onChange={() => {
              // The click handler does the work: it alone sees the Shift key.
            }}
            onClick={(e) => {
              onPick(index, row.value, e.shiftKey, !selected);
            }}
          />
        )}
      </div>
      {row ? (
        <>
          <div role="gridcell" className="vcell mono">
            {row.value}
          </div>
          <div role="gridcell" className="vcell status">
            {row.statusStale ? (
              <NotReadBack
                shown={STATUS_WORD[row.status]}
                sentence={STALE_STATUS}
                before={`Status seen before: ${STATUS_WORD[row.status]}`}
              />
            ) : (
              <span className={`badge mark mark-${row.status}`}>{STATUS_WORD[row.status]}</span>
            )}
          </div>
          {/* The Premium filter's own words: a star is not the only mark. */}
          <div role="gridcell" className="vcell">
            {row.isPremium ? <span className="badge mark mark-premium">Premium</span> : <span className="muted">Standard</span>}
          </div>
          <div role="gridcell" className="vcell" title={row.note || undefined}>
            {row.note || <span className="muted">—</span>}
          </div>
          <div role="gridcell" className="vcell hwid" title={row.hwidStale ? undefined : (row.hwid ?? undefined)}>
            {row.hwid && row.hwidStale ? (
              <NotReadBack shown={row.hwid} sentence={STALE_HWID} before={`HWID seen before: ${row.hwid}`} />
            ) : row.hwid ? (
              <span className="bound">{row.hwid}</span>
            ) : (
              <span className="muted">—</span>
            )}
          </div>
          <div role="gridcell" className="vcell">
            <Expiry row={row} />
          </div>
          <div role="gridcell" className="vcell" title={row.createdAt ?? undefined}>
            {row.createdAt ? fmt.date(row.createdAt) : '—'}
          </div>
          <div role="gridcell" className="vcell" title={`Checked by Keydesk ${row.lastSeenAt}`}>
            {fmt.relative(row.lastSeenAt)}
          </div>
        </>
      ) : (
        <div role="gridcell" className="vcell muted">
          Loading…
        </div>
      )}
    </div>
  );
}

const n = (x: number) => x.toLocaleString();

/** Opens a key in Keys: its search, as the service answers it now, and its detail panel when it is found. */
async function openInKeys(value: string): Promise<void> {
  const { setDraft, setView, runLookup } = useKeydesk.getState();
  setDraft('lookup.term', value);
  setView('keys');
  await runLookup(value);
  const found = useKeydesk.getState().lookupResult;
  const key = found && [...found.active, ...found.generated].find((k) => k.value === value);
  if (key) useKeydesk.getState().selectKey(key);
}

function JobPanel({ job }: { job: JobSummary }) {
  const problems = useKeydesk((s) => s.jobProblems);
  const cancel = useKeydesk((s) => s.cancelBulk);
  const resume = useKeydesk((s) => s.resumeJob);
  const exportJob = useKeydesk((s) => s.exportJob);
  const dismiss = useKeydesk((s) => s.dismissJob);
  // Cancel asked, main not answered yet: said at once, and the button does not stay as if nothing happened.
  const cancelling = useKeydesk((s) => s.jobCancelling === job.id);
  const [confirmUnknown, setConfirmUnknown] = useState(false);
  const unknownCheck = useUnknownCheck(job);
  const statusRef = useRef<HTMLSpanElement>(null);
  // Sending, or cancelled with answers still to come: nothing to resume, dismiss or start yet.
  const running = isLive(job);
  return (
    <div className="bulk-progress">
      {/* No answer yet: a bar that moves without claiming how far, as the status line says. */}
      <JobProgress job={job} label="Bulk progress" />
      <span role="status" tabIndex={-1} ref={statusRef}>
        {cancelling ? (
          `${jobTitle(job)}, cancelling: no further request is sent; answers already on their way are still recorded.`
        ) : (
          <JobLine job={job} />
        )}
      </span>
      {job.pausedUntil && running && (
        <span className="muted"> The service asked to wait; paused until {new Date(job.pausedUntil).toLocaleTimeString()}.</span>
      )}
      {job.reason && <p className="error">{job.reason}</p>}
      <div className="inline">
        {canCancel(job) && !cancelling && <CancelJobButton status={statusRef} onCancel={cancel} />}
        {!running && job.counts.pending > 0 && <ResumeJobButton job={job} onResume={() => void resume(false, job.id)} />}
        {!running && job.counts.unknown > 0 && (
          <button
            type="button"
            onClick={() => {
              setConfirmUnknown(true);
            }}
          >
            Send the {n(job.counts.unknown)} unknown again…
          </button>
        )}
        <button type="button" onClick={() => void exportJob('csv', job.id)}>
          Export results CSV
        </button>
        <button type="button" onClick={() => void exportJob('json', job.id)}>
          Export results JSON
        </button>
        {!running && (
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        )}
        <OpenInJobs jobId={job.id} />
      </div>
      {!running && problems?.error && (
        <p role="alert" className="error">
          {problems.error}
        </p>
      )}
      {!running &&
        problems &&
        (['unknown', 'failed'] as const).map((state) =>
          problems[state].length === 0 ? null : (
            <details key={state}>
              <summary>
                {state === 'unknown'
                  ? `Sent with no answer: outcome unknown (${n(job.counts.unknown)}); check these keys before sending again`
                  : `Refused by the service (${n(job.counts.failed)})`}
                {job.counts[state] > problems[state].length ? `, first ${n(problems[state].length)} shown; export for all` : ''}
              </summary>
              <ul className="mono">
                {problems[state].map((item) => (
                  <li key={item.seq}>
                    {item.target}: {plain(item.message ?? 'The service gave no reason.')}
                  </li>
                ))}
              </ul>
            </details>
          ),
        )}
      {!running && problems?.stale && (
        <details>
          <summary>
            Extended, but the new expiry could not be read back ({n(problems.stale.total)}): these rows still show the expiry seen before;
            look the keys up to refresh them
            {problems.stale.total > problems.stale.items.length ? `, first ${n(problems.stale.items.length)} shown; export for all` : ''}
          </summary>
          <ul className="mono">
            {problems.stale.items.map((item) => (
              <li key={item.seq}>{item.target}</li>
            ))}
          </ul>
        </details>
      )}
      {!running && <UnknownCheckResult job={job} state={unknownCheck.state} />}
      <ConfirmDialog
        open={confirmUnknown}
        title={`Send ${fmt.count(job.counts.unknown, NOUNS.request)} again?`}
        body={`${sentOnceWords(job.counts.unknown)} ${job.action === 'extend' ? 'Sending an extension again extends the key again. ' : ''}${checkFirstWords(job)}`}
        other={{
          label: 'Check these keys first',
          onClick: () => {
            setConfirmUnknown(false);
            unknownCheck.run();
          },
        }}
        confirmLabel="Send again"
        destructive={job.action === 'extend' || job.action === 'generate'}
        onCancel={() => {
          setConfirmUnknown(false);
        }}
        onConfirm={() => {
          setConfirmUnknown(false);
          void resume(true, job.id);
        }}
      />
    </div>
  );
}

/** A bulk action waiting for the person's yes, with the days an extend would add. */
type Confirming = { action: BulkAction; days?: number };

function confirmTitle(c: Confirming | null, what: string): string {
  if (c?.action === 'delete') return `Delete ${what}?`;
  if (c?.action === 'extend') return `Extend ${what} by ${fmt.count(c.days ?? 0, NOUNS.day)}?`;
  return `Reset the HWID of ${what}?`;
}

/**
 * What the ledger says of the keys a reset is asked for: how many are active (and, when the rows are on screen,
 * how many of those are bound). Main sends the active ones only; null while not known.
 */
type Known = { active: number; bound: number | null; of: number } | null;

/** The rule a reset goes by, said honestly: the ledger's Status, as Keydesk last saw each key. */
const RESET_RULE =
  'Keydesk goes by the Status its ledger shows: a key a customer activated since Keydesk last saw it still shows as generated and is left out; look it up in Keys to refresh it, then reset it.';

/** `one`: the dialog is about a single key, and says "it", not "they" or "each". */
function confirmBody(c: Confirming | null, known: Known, one: boolean): string {
  if (c?.action === 'delete') return `${one ? 'It stops' : 'They stop'} working at once. This cannot be undone.`;
  if (c?.action === 'extend') {
    return `${one ? "The key's" : "Each key's"} expiry moves ${fmt.count(c.days ?? 0, NOUNS.day)} later. This cannot be undone.`;
  }
  // Only an active key has an HWID to reset: main sends the reset for those only; the service would refuse the rest.
  if (known === null) {
    return one
      ? `Only an active key has an HWID to reset: if this key shows as generated (never activated) or deleted, nothing is sent for it. If active, it will bind to the next machine that validates it. ${RESET_RULE}`
      : `Only an active key has an HWID to reset: keys shown as generated (never activated) or deleted are left out, and nothing is sent for them. Each active key will bind to the next machine that validates it. ${RESET_RULE}`;
  }
  if (known.of === 1) {
    if (known.active === 0) return `This key is not active: nothing to reset, and nothing will be sent. ${RESET_RULE}`;
    const boundNow = known.bound === null ? '' : known.bound === 1 ? ' (bound to a machine now)' : ' (bound to no machine now)';
    return `This key is active${boundNow}: the reset is sent for it, and it will bind to the next machine that validates it. ${RESET_RULE}`;
  }
  const these = known.of === 1 ? 'this key' : `these ${fmt.count(known.of, NOUNS.key)}`;
  if (known.active === 0) return `None of ${these} is active: nothing to reset, and nothing will be sent. ${RESET_RULE}`;
  const bound = known.bound === null ? '' : ` (${fmt.number(known.bound)} bound to a machine now)`;
  const rest = known.of - known.active;
  const leftOut =
    rest === 0
      ? ''
      : ` The other ${fmt.number(rest)} (generated or deleted) ${rest === 1 ? 'is' : 'are'} left out: nothing is sent for ${rest === 1 ? 'it' : 'them'}.`;
  return `${fmt.number(known.active)} of the ${fmt.count(known.of, NOUNS.key)} ${known.active === 1 ? 'is' : 'are'} active${bound}: the reset is sent for ${known.active === 1 ? 'that one only, and it' : `those ${fmt.number(known.active)} only, and each`} will bind to the next machine that validates it.${leftOut} ${RESET_RULE}`;
}

/** Counts the picked keys' statuses from the pages loaded, when every one of them is there (else null: not known). */
function knownOf(values: ReadonlySet<string>, pages: ReadonlyMap<number, LedgerRow[]>): Known {
  if (values.size === 0) return null;
  let active = 0;
  let bound = 0;
  let found = 0;
  for (const rows of pages.values()) {
    for (const r of rows) {
      if (!values.has(r.value)) continue;
      found++;
      if (r.status === 'active') {
        active++;
        if (r.hwid) bound++;
      }
    }
  }
  return found === values.size ? { active, bound, of: values.size } : null;
}

function BulkBar() {
  const picked = useKeydesk((s) => s.selection.size);
  const selectedAll = useKeydesk((s) => s.selectedAll !== null);
  const total = useKeydesk((s) => s.ledgerTotal);
  const totalCapped = useKeydesk((s) => s.ledgerTotalCapped);
  const targets = useKeydesk((s) => s.ledgerTargets);
  // Any job main runs for this profile (one at a time); the panel shows All keys' own, the latest bulk job.
  const job = useKeydesk(selectJob);
  const bulkJob = useKeydesk(selectBulkJob);
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const run = useKeydesk((s) => s.runBulk);
  const starting = useKeydesk((s) => s.jobStarting);
  const clear = useKeydesk((s) => s.clearSelection);
  const [days, setDays] = useDraft('bulk.days');
  const [daysError, setDaysError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirming | null>(null);
  const countExactly = useKeydesk((s) => s.countLedgerExactly);
  const countActive = useKeydesk((s) => s.countActive);
  // "All matching" keys the ledger shows as active, counted when a reset is asked about (main sends those only).
  const [activeOfAll, setActiveOfAll] = useState<{ filter: object; active: number } | null>(null);
  // A job asked for and not yet answered counts as running: no second one can be asked meanwhile.
  const running = (job !== null && isLive(job)) || starting !== null;
  const selection = useKeydesk((s) => s.selection);
  const pages = useKeydesk((s) => s.ledgerPages);
  const filter = useKeydesk((s) => s.selectedAll);
  // "All matching" is what the job will act on: the matches less known deleted keys, unless the filter asks for them.
  const count = selectedAll ? (targets?.count ?? total ?? 0) : picked;
  const capped = selectedAll && (targets?.capped ?? totalCapped);
  const none = count === 0 || running;
  // Past the count's cap the number is a lower bound: say so; main resolves the filter, so the job gets them all.
  const allMatching = capped ? `more than ${n(count)}` : n(count);
  // One key is "the 1 matching key" / "1 key", never "all 1 matching keys" (walk9 P5).
  const one = count === 1 && !capped;
  const what = selectedAll ? (one ? 'the 1 matching key' : `all ${allMatching} matching keys`) : fmt.count(count, NOUNS.key);
  // An action that cannot be undone names its exact number: past the cap, the keys are counted first.
  const ask = (next: Confirming) => {
    if (capped)
      void countExactly().then(() => {
        setConfirm(next);
      });
    else setConfirm(next);
  };
  // Read only while the reset dialog is open. "All matching" generated or deleted keys: none is active.
  const known: Known =
    confirm?.action !== 'resetHwid'
      ? null
      : filter
        ? capped
          ? null
          : filter.status === 'generated' || filter.status === 'deleted'
            ? { active: 0, bound: 0, of: count }
            : filter.status === 'active'
              ? { active: count, bound: null, of: count }
              : activeOfAll?.filter === filter
                ? { active: activeOfAll.active, bound: null, of: count }
                : null
        : knownOf(selection, pages);
  const resetAsked = confirm?.action === 'resetHwid';
  useEffect(() => {
    if (!resetAsked || !filter || filter.status !== undefined) return;
    let live = true;
    void countActive(filter).then((active) => {
      if (live && active !== null) setActiveOfAll({ filter, active });
    });
    return () => {
      live = false;
    };
  }, [resetAsked, filter, countActive]);
  // Nothing to reset: the dialog says so and offers no Reset.
  const nothingToReset = resetAsked && known?.active === 0;

  return (
    <div className="card bulk" aria-label="Bulk actions" role="region">
      <p>
        <strong>{selectedAll ? (one ? 'The 1 matching key' : `All ${allMatching} matching`) : n(count)}</strong> selected{' '}
        <button type="button" disabled={count === 0 || running} onClick={clear}>
          Clear selection
        </button>
      </p>
      <div className="inline">
        <button
          type="button"
          className="danger"
          disabled={none}
          onClick={() => {
            ask({ action: 'delete' });
          }}
        >
          Delete selected
        </button>
        <button
          type="button"
          disabled={none}
          onClick={() => {
            ask({ action: 'resetHwid' });
          }}
        >
          Reset HWID of selected
        </button>
        <Field
          label="Days"
          inputMode="numeric"
          value={days}
          error={daysError}
          onChange={(e) => {
            setDays(e.target.value);
            setDaysError(null);
          }}
        />
        <button
          type="button"
          disabled={none}
          onClick={() => {
            // The Generate form's and the key panel's rule: digits only ("1e3" is not 1,000), one sentence for any bad value.
            const parsed = schemas.days.safeParse(parseWhole(days));
            setDaysError(parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter days.'));
            if (parsed.success) ask({ action: 'extend', days: parsed.data });
          }}
        >
          Extend selected
        </button>
      </div>
      {running && count > 0 && (
        <p className="muted">One job at a time per service: these actions come back when the job below ends (or once you cancel it).</p>
      )}
      {starting ? (
        <p role="status" className="bulk-progress">
          <progress aria-label="Bulk progress" />
          <StartingLine starting={starting} />
        </p>
      ) : (
        <>
          {job && job.action === 'generate' && isLive(job) && (
            // Keys follows it; said here too, since its keys keep arriving in this table while it runs.
            <p role="status" className="muted">
              {keydeskGone
                ? 'A generate job was running for this profile: '
                : 'A generate job is running for this profile (follow or cancel it in Keys): '}
              <JobLine job={job} />
            </p>
          )}
          {bulkJob && <JobPanel job={bulkJob} />}
        </>
      )}
      <JobElsewhere />
      <ConfirmDialog
        open={confirm !== null}
        title={confirmTitle(confirm, what)}
        body={confirmBody(confirm, confirm?.action === 'resetHwid' ? known : null, one)}
        confirmLabel={confirm?.action === 'delete' ? 'Delete' : confirm?.action === 'extend' ? 'Extend' : 'Reset'}
        {...(nothingToReset ? { cancelLabel: 'Close', confirmable: false } : {})}
        destructive={confirm?.action === 'delete' || confirm?.action === 'extend'}
        onCancel={() => {
          setConfirm(null);
        }}
        onConfirm={() => {
          if (confirm) void run(confirm.action, confirm.days);
          setConfirm(null);
        }}
      />
    </div>
  );
}

/** A filter as it selects: a term without its surrounding spaces (as main gets it), nothing blank or unset. */
function trimmed(f: LedgerFilter): string {
  return JSON.stringify([f.text?.trim() ?? '', f.status ?? null, f.premium ?? null]);
}

export function AllKeys() {
  const total = useKeydesk((s) => s.ledgerTotal);
  const capped = useKeydesk((s) => s.ledgerTotalCapped);
  const targets = useKeydesk((s) => s.ledgerTargets);
  const counting = useKeydesk((s) => s.ledgerCounting);
  const countExactly = useKeydesk((s) => s.countLedgerExactly);
  const fresh = useKeydesk((s) => s.ledgerPages);
  const stale = useKeydesk((s) => s.ledgerStale);
  const error = useKeydesk((s) => s.ledgerError);
  const recording = useKeydesk((s) => s.ledgerRecording);
  const recordingFailed = useKeydesk((s) => s.ledgerRecordingFailed);
  // Keys a running generate job has yet to ask for: not on their way to the ledger yet, so not in "Recording N".
  const toRequest = useKeydesk((s) => {
    const job = selectJob(s);
    return job?.action === 'generate' && job.state === 'running' ? job.counts.pending + job.counts.sent : 0;
  });
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const notify = useKeydesk((s) => s.notify);
  const sort = useKeydesk((s) => s.ledgerSort);
  const filter = useKeydesk((s) => s.ledgerFilter);
  const setLedgerFilter = useKeydesk((s) => s.setLedgerFilter);
  const setLedgerSort = useKeydesk((s) => s.setLedgerSort);
  const loadPage = useKeydesk((s) => s.loadLedgerPage);
  const selectAll = useKeydesk((s) => s.selectAllMatching);
  const exportLedger = useKeydesk((s) => s.exportLedger);
  const generation = useKeydesk((s) => s.ledgerGeneration);
  const attachJobs = useKeydesk((s) => s.attachJobs);
  const selection = useKeydesk((s) => s.selection);
  const selectedAll = useKeydesk((s) => s.selectedAll !== null);
  const setSelected = useKeydesk((s) => s.setSelected);
  const clear = useKeydesk((s) => s.clearSelection);
  const anchor = useRef<number | null>(null);
  const profileId = useKeydesk((s) => s.activeProfileId);
  // A job main is running for this profile (started before a reload, say) shows here with its progress.
  useEffect(() => {
    void attachJobs();
  }, [attachJobs, profileId]);
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  // A new filter or sort starts at the top; a refresh after a bulk action keeps the place.
  // The row holding the table's one Tab stop; arrows move it, and focus follows once that row is rendered.
  const [cursor, setCursor] = useState(0);
  const focusCursor = useRef(false);
  const toTop = () => {
    if (viewport.current) viewport.current.scrollTop = 0;
    setScrollTop(0);
    setCursor(0);
  };
  const setFilter = (next: typeof filter) => {
    setLedgerFilter(next);
    toTop();
  };
  const setSort = (field: LedgerSortField) => {
    setLedgerSort(field);
    toTop();
  };

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => {
      setHeight(el.clientHeight);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => {
      ro.disconnect();
    };
  }, []);

  // While a new filter loads, the old rows stay (dimmed) rather than the table flashing empty; when it is refused,
  // they stay dimmed beside the reason, and nothing says "Loading…" that is not.
  const failed = total === null && error !== null;
  const loading = total === null && !failed;
  const count = total ?? stale?.total ?? 0;
  // The rows kept are this filter's own when only a re-read (after a job, say) failed: say that, not "another filter's".
  const staleSameFilter = stale?.filter !== undefined && trimmed(stale.filter) === trimmed(filter);
  const staleSameQuery = staleSameFilter && stale.sort?.field === sort.field && stale.sort.dir === sort.dir;
  const pages = total === null && stale ? stale.pages : fresh;
  // With a capped count the table spans the cap, and one page past the furthest full page loaded: it grows as
  // the user scrolls, until a short page gives the end.
  let rowCount = count;
  if (capped) for (const [p, r] of fresh) if (r.length === LEDGER_PAGE) rowCount = Math.max(rowCount, (p + 2) * LEDGER_PAGE);
  // Select all names what a job will act on: deleted keys stay out unless the filter is for deleted keys.
  const all = targets ?? { count, capped };
  const leftOut = !capped && !all.capped && count > all.count ? ` (${fmt.number(count - all.count)} deleted left out)` : '';
  // One key is "the 1 key", not "all 1"; none offers no select-all at all (matches that are all deleted say so).
  const canSelectAll = all.count > 0 || all.capped;
  const allDeleted = !canSelectAll && count > 0;
  const selectAllText = all.capped
    ? `Select all matching (more than ${fmt.number(all.count)})`
    : all.count === 1
      ? `Select the 1 key${leftOut}`
      : `Select all ${fmt.number(all.count)}${leftOut}`;
  const selectAllOffer = all.capped
    ? selectAllText
    : all.count === 1
      ? `Select the 1 matching key${leftOut}`
      : `Select all ${fmt.number(all.count)} matching${leftOut}`;
  // The filter's answer is in and matches nothing: said in the table, and there is nothing to export.
  const nothing = total === 0;
  const filtered = filter.text !== undefined || filter.status !== undefined || filter.premium !== undefined;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const visible = Math.min(MAX_DOM_ROWS, Math.ceil(height / ROW_HEIGHT) + 2 * OVERSCAN);
  const last = Math.min(rowCount, first + visible);

  useEffect(() => {
    if (total === null) {
      void loadPage(0);
      return;
    }
    for (let p = Math.floor(first / LEDGER_PAGE); p <= Math.floor(Math.max(first, last - 1) / LEDGER_PAGE); p++) void loadPage(p);
  }, [first, last, total, generation, loadPage]);

  const rowAt = (i: number): LedgerRow | undefined => pages.get(Math.floor(i / LEDGER_PAGE))?.[i % LEDGER_PAGE];
  // The header checkbox speaks for the rows on screen (not the overscan above and below).
  const shownFirst = Math.min(rowCount, Math.floor(scrollTop / ROW_HEIGHT));
  const shownLast = Math.min(rowCount, Math.ceil((scrollTop + height) / ROW_HEIGHT));
  const shownValues: string[] = [];
  for (let i = shownFirst; i < shownLast; i++) {
    const r = rowAt(i);
    if (r) shownValues.push(r.value);
  }
  const shownPicked = selectedAll ? shownValues.length : shownValues.filter((v) => selection.has(v)).length;
  const shownState = shownValues.length === 0 || shownPicked === 0 ? 'none' : shownPicked === shownValues.length ? 'all' : 'some';
  const onPick = useCallback<Pick>(
    (index, value, shift, selected) => {
      if (shift && anchor.current !== null) {
        const [a, b] = anchor.current < index ? [anchor.current, index] : [index, anchor.current];
        const values: string[] = [];
        for (let i = a; i <= b; i++) {
          const r = pages.get(Math.floor(i / LEDGER_PAGE))?.[i % LEDGER_PAGE];
          if (r) values.push(r.value);
        }
        setSelected(values, selected);
      } else setSelected([value], selected);
      anchor.current = index;
      setCursor(index);
    },
    [pages, setSelected],
  );

  const rows = [];
  // The Tab stop stays on the cursor row while it is rendered, else on the first row shown (the table scrolled away).
  const stop = cursor >= first && cursor < last && rowAt(cursor) ? cursor : shownFirst;
  for (let i = first; i < last; i++)
    rows.push(<Row key={i} index={i} top={i * ROW_HEIGHT} row={rowAt(i)} onPick={onPick} tabbable={i === stop} />);
  const rowTotal = rowCount;
  useEffect(() => {
    if (!focusCursor.current) return;
    const box = viewport.current?.querySelector<HTMLInputElement>(`input[data-row="${String(cursor)}"]`);
    if (box) {
      focusCursor.current = false;
      box.focus({ preventScroll: true });
    }
  });
  /** Arrow keys, Page Up/Down, Home and End move between rows; the row scrolls into view and takes focus. */
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = Number((e.target as HTMLElement).dataset.row ?? Number.NaN);
    if (Number.isNaN(from)) return;
    // Enter opens the focused row's key in Keys: looked up on the service, with its detail panel (its actions).
    if (e.key === 'Enter') {
      const focused = rowAt(from);
      if (!focused) return;
      e.preventDefault();
      void openInKeys(focused.value);
      return;
    }
    // Ctrl/Cmd+C copies the focused row's key (with Shift: its HWID), as a spreadsheet copies its cell.
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') {
      const focused = rowAt(from);
      if (!focused) return;
      e.preventDefault();
      const what = e.shiftKey ? focused.hwid : focused.value;
      const asked = e.shiftKey ? `Copy the HWID of key ${focused.value}` : `Copy key ${focused.value}`;
      if (what === null) {
        notify('error', `${asked}: it is not bound to a machine, so there is no HWID to copy.`);
        return;
      }
      void copyToClipboard(what, asked, `Copied ${e.shiftKey ? 'the HWID of ' : ''}${focused.value}.`, notify);
      return;
    }
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: rowTotal - 1,
    };
    const to = moves[e.key];
    if (to === undefined || rowTotal === 0) return;
    e.preventDefault();
    const next = Math.min(rowTotal - 1, Math.max(0, to));
    const el = viewport.current;
    if (el) {
      const top = next * ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
      setScrollTop(el.scrollTop);
    }
    focusCursor.current = true;
    setCursor(next);
  };

  return (
    <section aria-labelledby="ledger-title" className="ledger">
      <h1 id="ledger-title">All keys</h1>
      <p className="muted">Every key this app generated or has seen for this service, kept current by every lookup and action.</p>
      <div className="inline">
        <Field
          label="Filter (key, note or HWID)"
          type="search"
          value={filter.text ?? ''}
          // Spaces alone filter nothing: they are no filter, not a search that matches no key.
          onChange={(e) => {
            setFilter({ ...filter, text: e.target.value.trim() === '' ? undefined : e.target.value });
          }}
        />
        <label>
          Status{' '}
          <select
            value={filter.status ?? ''}
            onChange={(e) => {
              setFilter({ ...filter, status: (e.target.value || undefined) as typeof filter.status });
            }}
          >
            <option value="">Any</option>
            <option value="generated">Generated</option>
            <option value="active">Active</option>
            <option value="deleted">Deleted</option>
          </select>
        </label>
        <label>
          Premium{' '}
          <select
            value={filter.premium === undefined ? '' : String(filter.premium)}
            onChange={(e) => {
              setFilter({ ...filter, premium: e.target.value === '' ? undefined : e.target.value === 'true' });
            }}
          >
            <option value="">Any</option>
            <option value="true">Premium</option>
            <option value="false">Standard</option>
          </select>
        </label>
        {canSelectAll && (
          <button type="button" disabled={total === null} onClick={selectAll}>
            {selectAllText}
          </button>
        )}
        {allDeleted && total !== null && (
          <span className="muted">
            No select-all:{' '}
            {capped
              ? `every matching key (more than ${fmt.number(count)}) is deleted`
              : count === 1
                ? 'the matching key is deleted'
                : `all ${fmt.number(count)} matching keys are deleted`}
            .
          </span>
        )}
        <button type="button" disabled={nothing} aria-describedby="ledger-export-note" onClick={() => void exportLedger('csv')}>
          Export CSV
        </button>
        <button type="button" disabled={nothing} aria-describedby="ledger-export-note" onClick={() => void exportLedger('json')}>
          Export JSON
        </button>
      </div>
      <p id="ledger-export-note" className="muted">
        {nothing ? 'Nothing to export: no key matches.' : 'Exports hold every matching key, in the order shown.'}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {recordingFailed && (
        <p role="alert" className="error">
          {plain(recordingFailed)}
        </p>
      )}
      {recording > 0 && (
        <p role="status" className="muted">
          Recording {fmt.count(recording, NOUNS.key)} in the ledger… The list refreshes when they are all in.
        </p>
      )}
      {toRequest > 0 && (
        <p role="status" className="muted">
          {keydeskGone ? (
            <>
              A generate job had {fmt.count(toRequest, NOUNS.key)} left to request when Keydesk stopped answering: what it made since is not
              known here.
            </>
          ) : (
            <>A generate job still has {fmt.count(toRequest, NOUNS.key)} to request (see Keys): they come into this list after that.</>
          )}
        </p>
      )}
      <p role="status" className="muted">
        {failed
          ? stale
            ? staleSameQuery
              ? `Reading this filter again failed: still showing its results as read${stale.at ? ` at ${fmt.time(stale.at)}` : ' earlier'} (${fmt.count(count, NOUNS.key)}).`
              : `Still showing the earlier results (${fmt.count(count, NOUNS.key)}${stale.at ? `, read at ${fmt.time(stale.at)}` : ''}), not this ${staleSameFilter ? 'order' : "filter's"}.`
            : ''
          : loading
            ? 'Loading…'
            : nothing
              ? filtered
                ? 'No key matches these filters.'
                : 'No keys yet: the keys this app generates or looks up are listed here.'
              : capped
                ? `More than ${fmt.count(count, NOUNS.key)} match`
                : fmt.count(count, NOUNS.key)}
        {capped && total !== null && (
          <>
            {' '}
            <button type="button" className="link" disabled={counting} onClick={() => void countExactly()}>
              {counting ? 'Counting…' : 'Count exactly'}
            </button>
          </>
        )}
      </p>
      {!selectedAll && canSelectAll && shownState === 'all' && count > shownValues.length && (
        <p className="select-all-offer">
          The {fmt.count(shownValues.length, NOUNS.key)} shown {shownValues.length === 1 ? 'is' : 'are'} selected.{' '}
          <button type="button" className="link" onClick={selectAll}>
            {selectAllOffer}
          </button>
        </p>
      )}
      {/* Above the table: in sight after "Select all", and next in the Tab order, whatever the table's length. */}
      <BulkBar />
      <p id="ledger-keys-hint" className="muted">
        <span className="sort-said">{sortWords(sort)}</span> In the table: arrows move, Space ticks (Shift+Space a range), Enter opens the
        key in Keys, Ctrl+C copies the key, Ctrl+Shift+C its HWID (Cmd on a Mac).
      </p>
      <div
        role="grid"
        aria-label="All keys"
        aria-describedby="ledger-keys-hint"
        aria-keyshortcuts="Enter Control+C Meta+C Control+Shift+C Meta+Shift+C"
        aria-rowcount={capped ? -1 : count + 1}
        aria-busy={loading}
        className={total === null ? 'vgrid stale' : 'vgrid'}
      >
        <div role="row" aria-rowindex={1} className="vhead">
          <div role="columnheader" className="vcell check">
            <HeaderCheckbox
              label="Select every row on screen"
              state={shownState}
              onChange={(all) => {
                if (!all && selectedAll) clear();
                else setSelected(shownValues, all);
                anchor.current = null;
              }}
            />
          </div>
          {COLUMNS.map((c) => (
            <div key={c.label} role="columnheader" className="vcell" title={c.title} aria-sort={ariaSort(sort, c.field ?? undefined)}>
              {c.field ? (
                <SortButton
                  label={c.label}
                  field={c.field}
                  sort={sort}
                  onSort={(f) => {
                    setSort(f as LedgerSortField);
                  }}
                />
              ) : (
                c.label
              )}
            </div>
          ))}
        </div>
        <div
          ref={viewport}
          className="vbody"
          role="rowgroup"
          // Focusable for scrolling only while no row holds the Tab stop (none loaded yet).
          tabIndex={rowAt(stop) ? -1 : 0}
          aria-label="Rows"
          onKeyDown={onGridKey}
          onScroll={(e) => {
            setScrollTop(e.currentTarget.scrollTop);
          }}
        >
          <div style={{ height: rowCount * ROW_HEIGHT, position: 'relative' }}>{rows}</div>
        </div>
      </div>
    </section>
  );
}

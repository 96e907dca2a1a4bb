// All keys' bulk actions: what is selected, Delete, Reset HWID and Extend with their confirmations, and the panel
// of the profile's latest bulk job with the items that need a decision.
import { useEffect, useState } from 'react';
import type { JobSummary } from '../../../../shared/domain.ts';
import { schemas } from '../../../../shared/rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/Field.tsx';
import { JobElsewhere } from '../../components/JobLinks.tsx';
import { JobPanel } from '../../components/JobPanel.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { JobLine, StartingLine } from '../../components/StartingLine.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { isLive } from '../../lib/jobs.ts';
import { parseWhole } from '../../lib/numbers.ts';
import { plain } from '../../lib/words.ts';
import { useDraft, useKeydesk } from '../../store/index.ts';
import { selectBulkJob, selectJob, selectJobElsewhere } from '../../store/job-selectors.ts';
import { RefreshResult } from './RefreshResult.tsx';
import { BulkEdit } from './BulkEdit.tsx';
import { confirmBody, confirmTitle, knownOf, type Confirming, type Known } from './wording.ts';

const n = (x: number) => x.toLocaleString();

/** The bulk job's panel, with its items that failed, are in doubt, or were extended without the expiry read back. */
function BulkJob({ job }: { job: JobSummary }) {
  const problems = useKeydesk((s) => s.jobProblems);
  return (
    <div className="bulk-progress">
      <JobPanel job={job} place="allKeys">
        {job.action === 'refresh' && !isLive(job) && <RefreshResult job={job} />}
        {!isLive(job) && (
          <>
            {problems?.error && (
              <p role="alert" className="error">
                {problems.error}
              </p>
            )}
            {problems &&
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
            {problems?.stale && (
              <details>
                <summary>
                  Extended, but the new expiry could not be read back ({n(problems.stale.total)}): these rows still show the expiry seen
                  before; look the keys up to refresh them
                  {problems.stale.total > problems.stale.items.length
                    ? `, first ${n(problems.stale.items.length)} shown; export for all`
                    : ''}
                </summary>
                <ul className="mono">
                  {problems.stale.items.map((item) => (
                    <li key={item.seq}>{item.target}</li>
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </JobPanel>
    </div>
  );
}

export function BulkBar() {
  const picked = useKeydesk((s) => s.selection.size);
  const selectedAll = useKeydesk((s) => s.selectedAll !== null);
  const total = useKeydesk((s) => s.ledgerTotal);
  const totalCapped = useKeydesk((s) => s.ledgerTotalCapped);
  const targets = useKeydesk((s) => s.ledgerTargets);
  // Any job main runs for this profile (one at a time); the panel shows All keys' own, the latest bulk job.
  const job = useKeydesk(selectJob);
  const bulkJob = useKeydesk(selectBulkJob);
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const elsewhere = useKeydesk((s) => selectJobElsewhere(s) !== null);
  const run = useKeydesk((s) => s.runBulk);
  const refresh = useKeydesk((s) => s.runRefresh);
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
  const waits = useServiceWait() !== null;
  const none = count === 0 || running || waits;
  // Past the count's cap the number is a lower bound: say so; main resolves the filter, so the job gets them all.
  const allMatching = capped ? `matching keys (more than ${n(count)})` : `${n(count)} matching keys`;
  // One key is "the 1 matching key" / "1 key", never "all 1 matching keys".
  const one = count === 1 && !capped;
  const what = selectedAll ? (one ? 'the 1 matching key' : `all ${allMatching}`) : fmt.count(count, NOUNS.key);
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

  const selected = selectedAll || picked > 0;
  const generating = job !== null && job.action === 'generate' && isLive(job);
  // Nothing selected and no job to follow: no empty bar above the table (the dialog, closed, takes no room).
  const shown = selected || starting !== null || generating || bulkJob !== null || elsewhere;
  return (
    <>
      {shown && (
        <div className="bulk" aria-label="Bulk actions" role="region">
          {selected && (
            <div className="bulk-bar">
              <span>
                <strong>{selectedAll ? (one ? 'The 1 matching key' : `All ${allMatching}`) : n(count)}</strong> selected
              </span>
              <button type="button" disabled={count === 0 || running} onClick={clear}>
                Clear selection
              </button>
              <button type="button" disabled={none} onClick={() => void refresh()} title="Reads the keys again: what changed elsewhere">
                Refresh selected
              </button>
              <button type="button" className="danger" disabled={none} onClick={() => ask({ action: 'delete' })}>
                Delete selected
              </button>
              <button type="button" disabled={none} onClick={() => ask({ action: 'resetHwid' })}>
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
              <BulkEdit disabled={none} ask={(edit) => ask({ action: 'edit', edit })} />
            </div>
          )}
          {count > 0 && <ServiceWait id="bulk-waits" what="Starting a bulk job" />}
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
              {generating && (
                // Keys follows it; said here too, since its keys keep arriving in this table while it runs.
                <p role="status" className="muted">
                  {keydeskGone
                    ? 'A generate job was running for this profile: '
                    : 'A generate job is running for this profile (follow or cancel it in Keys): '}
                  <JobLine job={job} />
                </p>
              )}
              {bulkJob && <BulkJob job={bulkJob} />}
            </>
          )}
          <JobElsewhere />
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirmTitle(confirm, what)}
        body={confirmBody(confirm, confirm?.action === 'resetHwid' ? known : null, one)}
        confirmLabel={
          confirm?.action === 'delete' ? 'Delete' : confirm?.action === 'extend' ? 'Extend' : confirm?.action === 'edit' ? 'Edit' : 'Reset'
        }
        {...(nothingToReset ? { cancelLabel: 'Close', confirmable: false } : {})}
        destructive={confirm?.action === 'delete' || confirm?.action === 'extend'}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) void run(confirm.action, confirm.days, confirm.edit);
          setConfirm(null);
        }}
      />
    </>
  );
}

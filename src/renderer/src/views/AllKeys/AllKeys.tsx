// All keys: every key this app generated or has seen for the service, filtered and sorted by main's ledger, with
// bulk actions on those selected. The parts: Toolbar, BulkBar, CutShortNotice, LedgerGrid (with Row); the words in
// wording.ts.
import { useEffect } from 'react';
import type { LedgerSortField } from '../../../../shared/domain.ts';
import { fmt, NOUNS } from '../../lib/format.ts';
import { plain } from '../../lib/words.ts';
import { useKeydesk } from '../../store/index.ts';
import { selectJob } from '../../store/job-selectors.ts';
import { LEDGER_PAGE } from '../../store/ledger.ts';
import type { LedgerFilter } from '../../store/types.ts';
import { BulkBar } from './BulkBar.tsx';
import { CutShortNotice } from './CutShortNotice.tsx';
import { gridWindow, LedgerGrid, useGridPlace } from './Grid.tsx';
import { Exports, Toolbar } from './Toolbar.tsx';
import { countLine, selectAllWords, sortWords, trimmed } from './wording.ts';

export { STALE_EXPIRY, STALE_HWID, STALE_STATUS } from './wording.ts';

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
  const recordingBusy = useKeydesk((s) => s.ledgerRecordingBusy);
  // Keys a running generate job has yet to ask for: not on their way to the ledger yet, so not in "Recording N".
  const toRequest = useKeydesk((s) => {
    const job = selectJob(s);
    return job?.action === 'generate' && job.state === 'running' ? job.counts.pending + job.counts.sent : 0;
  });
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const sort = useKeydesk((s) => s.ledgerSort);
  const filter = useKeydesk((s) => s.ledgerFilter);
  const setLedgerFilter = useKeydesk((s) => s.setLedgerFilter);
  const setLedgerSort = useKeydesk((s) => s.setLedgerSort);
  const loadPage = useKeydesk((s) => s.loadLedgerPage);
  const selectAll = useKeydesk((s) => s.selectAllMatching);
  const generation = useKeydesk((s) => s.ledgerGeneration);
  const attachJobs = useKeydesk((s) => s.attachJobs);
  const selection = useKeydesk((s) => s.selection);
  const selectedAll = useKeydesk((s) => s.selectedAll !== null);
  const profileId = useKeydesk((s) => s.activeProfileId);
  const setShortcutsOpen = useKeydesk((s) => s.setShortcutsOpen);
  // A job main is running for this profile (started before a reload, say) shows here with its progress.
  useEffect(() => void attachJobs(), [attachJobs, profileId]);
  const place = useGridPlace();
  const setFilter = (next: LedgerFilter) => {
    setLedgerFilter(next);
    place.toTop();
  };
  const setSort = (field: LedgerSortField) => {
    setLedgerSort(field);
    place.toTop();
  };

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
  const selectWords = selectAllWords(count, capped, targets);
  // The filter's answer is in and matches nothing: said in the table, and there is nothing to export.
  const nothing = total === 0;
  const filtered =
    filter.text !== undefined || filter.status !== undefined || filter.premium !== undefined || filter.customer !== undefined;
  const { first, last, shownFirst, shownLast } = gridWindow(place, rowCount);

  useEffect(() => {
    if (total === null) {
      void loadPage(0);
      return;
    }
    for (let p = Math.floor(first / LEDGER_PAGE); p <= Math.floor(Math.max(first, last - 1) / LEDGER_PAGE); p++) void loadPage(p);
  }, [first, last, total, generation, loadPage]);

  // Past the count's cap, the range ends one page past the rows read: reaching that end counts the matches exactly
  // (on a reader thread of its own), and the grid then spans them all.
  const atCappedEnd = capped && total !== null && rowCount > 0 && shownLast >= rowCount;
  useEffect(() => {
    if (atCappedEnd) void countExactly();
  }, [atCappedEnd, countExactly]);

  // The header checkbox speaks for the rows on screen (not the overscan above and below).
  const shownValues: string[] = [];
  for (let i = shownFirst; i < shownLast; i++) {
    const r = pages.get(Math.floor(i / LEDGER_PAGE))?.[i % LEDGER_PAGE];
    if (r) shownValues.push(r.value);
  }
  const shownPicked = selectedAll ? shownValues.length : shownValues.filter((v) => selection.has(v)).length;
  const shownState = shownValues.length === 0 || shownPicked === 0 ? 'none' : shownPicked === shownValues.length ? 'all' : 'some';

  return (
    <section aria-labelledby="ledger-title" className="ledger">
      <h1 id="ledger-title">All keys</h1>
      <Toolbar filter={filter} setFilter={setFilter} ready={total !== null} count={count} capped={capped} selectAll={selectWords} />
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
      <CutShortNotice />
      {recording > 0 && (
        <p role="status" className="muted">
          Recording {fmt.count(recording, NOUNS.key)} in the ledger…{' '}
          {recordingBusy
            ? 'Another program (a backup tool, the sqlite3 tool) holds keydesk.db locked: they go in once it lets go.'
            : 'The list refreshes when they are all in.'}
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
      <div className="ledger-line">
        <p role="status" className="muted">
          {countLine({
            failed,
            loading,
            count,
            capped,
            filtered,
            stale: stale ? { at: stale.at, sameFilter: staleSameFilter, sameQuery: staleSameQuery } : null,
          })}
          {capped && total !== null && (
            <>
              {' '}
              <button type="button" className="link" disabled={counting} onClick={() => void countExactly()}>
                {counting ? 'Counting…' : 'Count exactly'}
              </button>
            </>
          )}
        </p>
        <span id="ledger-sort" className="sort-said">
          {sortWords(sort)}
        </span>
        <Exports nothing={nothing} />
        <button type="button" className="link" aria-keyshortcuts="?" onClick={() => setShortcutsOpen(true)}>
          Shortcuts <kbd>?</kbd>
        </button>
      </div>
      {!selectedAll && selectWords.canSelectAll && shownState === 'all' && count > shownValues.length && (
        <p className="select-all-offer">
          The {fmt.count(shownValues.length, NOUNS.key)} shown {shownValues.length === 1 ? 'is' : 'are'} selected.{' '}
          <button type="button" className="link" onClick={selectAll}>
            {selectWords.offer}
          </button>
        </p>
      )}
      {/* Above the table: in sight after "Select all", and next in the Tab order, whatever the table's length. */}
      <BulkBar />
      <LedgerGrid
        place={place}
        pages={pages}
        rowCount={rowCount}
        ariaRowCount={capped ? -1 : count + 1}
        capped={capped}
        loading={loading}
        stale={total === null}
        sort={sort}
        onSort={setSort}
        shownValues={shownValues}
        shownState={shownState}
      />
    </section>
  );
}

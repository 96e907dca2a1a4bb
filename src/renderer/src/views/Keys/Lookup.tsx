import { useState, type CSSProperties, type SubmitEvent } from 'react';
import type { Key } from '../../../../shared/domain.ts';
import { KeyBadges } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { Field } from '../../components/Field.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { BLANK_SEARCH, shownText } from '../../lib/text.ts';
import { LOOKUP_PAGE, useDraft, useKeydesk } from '../../store/index.ts';
import { earlierBecause } from '../../store/keys.ts';
import type { Moment } from '../../store/request.ts';
import type { KeyChange } from '../../store/types.ts';
import { LedgerMatches, recordsAddMore } from './LedgerMatches.tsx';
import { CustomerMatches } from './CustomerMatches.tsx';

/** A row's mark when it is, or may be, an earlier answer; nothing when it is not known to be. */
function earlierMark(change: KeyChange | null) {
  if (!change) return null;
  return change.maybe ? (
    <span className="muted" title="Read before a bulk job in All keys that may include this key: search again to see it now.">
      ⚠ may be an earlier answer
    </span>
  ) : (
    <span className="muted" title="This row was read before a later change to the key: search again to see it now.">
      ⚠ earlier answer
    </span>
  );
}

/**
 * The fewest characters across (ch, monospace) that show `value` on at most `lines` lines, broken as the browser
 * breaks it: after a dash, or anywhere in a part longer than a line.
 */
export function keyLineWidth(value: string, lines: number): number {
  const parts = value.match(/[^-]*-|[^-]+$/g) ?? [value];
  const count = (across: number): number => {
    let used = 0;
    let n = 1;
    for (const part of parts) {
      if (used > 0 && used + part.length <= across) {
        used += part.length;
        continue;
      }
      if (used > 0) n++;
      // A part longer than a line is broken anywhere: whole lines of it, then what is left.
      n += Math.ceil(part.length / across) - 1;
      used = part.length - across * (Math.ceil(part.length / across) - 1);
    }
    return n;
  };
  for (let across = Math.max(1, Math.ceil(value.length / lines)); across < value.length; across++)
    if (count(across) <= lines) return across;
  return Math.max(1, value.length);
}

/** A key's expiry: its date, or a days key's term. */
export function KeyExpiry({ k }: { k: Pick<Key, 'expiresAt' | 'expiresByDaysKey' | 'daysKey' | 'unreported'> }) {
  if (k.expiresByDaysKey && !k.expiresAt)
    return <span>{k.daysKey === null ? 'Days after activation' : `${fmt.count(k.daysKey, NOUNS.day)} after activation`}</span>;
  // Without an expiry date a key is a days key not yet activated; the real dialect does not give its term.
  if (!k.expiresAt && k.unreported?.includes('daysKey')) return <span>From activation</span>;
  return <Time iso={k.expiresAt} mode="date" />;
}

const COLUMNS: Column<Key>[] = [
  { header: 'Status', cell: (k) => <KeyBadges status={k.status} isPremium={k.isPremium} expiresAt={k.expiresAt} hwid={k.hwid} /> },
  { header: 'Note', cell: (k) => (k.note ? <ServiceText text={k.note} /> : <span className="muted">—</span>) },
  {
    header: 'HWID',
    // Beside the key panel in a narrow window, the panel shows the open key's HWID; the column goes.
    className: 'mono optional',
    cell: (k) =>
      k.hwid ? (
        <span className="with-copy">
          <span className="truncate" title={shownText(k.hwid)}>
            <ServiceText text={k.hwid} more={false} />
          </span>
          <CopyButton value={k.hwid} label={`Copy HWID ${shownText(k.hwid)}`} />
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
  { header: 'Expires', cell: (k) => <KeyExpiry k={k} /> },
];

/** The search's rows in the order shown: active keys, then generated ones. */
const shownRows = (): Key[] => {
  const result = useKeydesk.getState().lookupResult;
  return result ? [...result.active, ...result.generated] : [];
};

/** The key shown after `value` in the results (or before it, at the end), to take the focus when it goes. */
export function rowAfter(value: string): string | null {
  const rows = shownRows();
  const at = rows.findIndex((k) => k.value === value);
  if (at < 0) return null;
  return (rows[at + 1] ?? rows[at - 1])?.value ?? null;
}

/** Puts the focus on a key's row in the results; with no such row, on the search box. */
export function focusKeyRow(value: string | null): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('button[data-key-row]');
  const row = [...buttons].find((b) => b.dataset.keyRow === value);
  (row ?? document.querySelector<HTMLInputElement>('[data-command-target="lookup"]'))?.focus();
}

/**
 * A term the service would match only in upper case (key values are upper case, compared exactly). HWIDs are
 * case-sensitive, so the upper-case search is offered, not made.
 */
export function upperKeyOffer(term: string): string | null {
  const upper = term.toUpperCase();
  return upper !== term && /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/.test(term) ? upper : null;
}

export function Lookup() {
  const runLookup = useKeydesk((s) => s.runLookup);
  const result = useKeydesk((s) => s.lookupResult);
  const request = useKeydesk((s) => s.lookupRequest);
  const { status, error } = request;
  const lookupTerm = useKeydesk((s) => s.lookupTerm);
  const selectKey = useKeydesk((s) => s.selectKey);
  const selected = useKeydesk((s) => s.selectedKey);
  const [term, setTerm] = useDraft('lookup.term');
  const [blankError, setBlankError] = useState<string | null>(null);
  const deletedHere = useKeydesk((s) => s.deletedHere);
  const keyChanges = useKeydesk((s) => s.keyChanges);
  const bulkOverFilter = useKeydesk((s) => s.bulkOverFilter);
  const waits = useServiceWait() !== null;
  const rows: Key[] = result ? [...result.active, ...result.generated] : [];
  const listed = rows.map((k) => k.value);
  /** Keydesk's records hold more than the service's answer: each answer is headed by where it comes from. */
  const twoSources = useKeydesk((s) => recordsAddMore(s, listed));
  /** A row read before a later change to its key, or a bulk job over a filter that may include it: it may be outdated. */
  const changeAfter = (k: Key): KeyChange | null =>
    earlierBecause({ keyChanges, bulkOverFilter }, k.value, k, result?.rowRead?.[k.value] ?? result?.read);
  const earlier = rows.flatMap((k) => {
    const c = changeAfter(k);
    return c ? [{ value: k.value, change: c }] : [];
  });
  /** Rows that may be earlier, told once per bulk job over a filter (its keys are not known one by one). */
  const maybeEarlier: { change: KeyChange; count: number }[] = [];
  for (const { change } of earlier) {
    if (!change.maybe) continue;
    const seen = maybeEarlier.find((g) => g.change === change);
    if (seen) seen.count += 1;
    else maybeEarlier.push({ change, count: 1 });
  }
  /** Rows read again after the search (a panel's action or Refresh): the count and term above them are older. */
  const reread = rows.filter((k) => (result?.rowRead?.[k.value]?.seq ?? 0) > (result?.read?.seq ?? 0)).length;
  const page = result?.page ?? 0;
  const totals = result?.totals;
  const known =
    totals && totals.active !== null && totals.generated !== null ? { active: totals.active, generated: totals.generated } : null;
  const total = known ? known.active + known.generated : null;
  const pages = known ? Math.max(1, Math.ceil(Math.max(known.active, known.generated) / LOOKUP_PAGE)) : 1;

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    // A blank search asks nothing: it says so beside the box, and the last answer keeps the term it answers.
    if (term.trim() === '') {
      setBlankError(BLANK_SEARCH);
      return;
    }
    setBlankError(null);
    void runLookup(term.trim());
  };
  return (
    <div className="card">
      <h2>Find keys</h2>
      <form role="search" className="inline" onSubmit={submit}>
        <Field
          label="Key value, note or HWID"
          data-command-target="lookup"
          type="search"
          value={term}
          error={blankError}
          onChange={(e) => {
            setTerm(e.target.value);
            setBlankError(null);
          }}
        />
        <button type="submit" disabled={waits} aria-describedby={waits ? 'lookup-waits' : undefined}>
          Search
        </button>
      </form>
      <ServiceWait id="lookup-waits" what="Searching" />
      {twoSources && <h3>On the service</h3>}
      {status === 'loading' && rows.length === 0 && <Skeleton label="Searching…" variant="rows" lines={3} />}
      {status === 'error' && error && (
        <>
          <RequestFailure
            request={request}
            what={<>Searching for “{lookupTerm}”</>}
            again={error.code === 'NETWORK' || error.code === 'TIMEOUT' ? 'search again to see the keys' : 'search again'}
          />
          <button type="button" disabled={waits} onClick={() => void runLookup(lookupTerm, page)}>
            Search again
          </button>
        </>
      )}
      {status === 'idle' && (
        <EmptyState title="Search this service’s keys">Type a key value or HWID, whole or in part, or part of a note.</EmptyState>
      )}
      {status === 'ready' && rows.length === 0 && (
        <NoMatch
          term={lookupTerm}
          deleted={deletedHere.includes(lookupTerm)}
          read={result?.read ?? null}
          onSearch={(upper) => {
            setTerm(upper);
            void runLookup(upper);
          }}
        />
      )}
      {rows.length > 0 && (
        <>
          <p className="muted" role="status">
            <span className="result-term">Results for “{lookupTerm}”: </span>
            {total === null
              ? 'This service returns its best match only, one active and one generated key at most. Search by an exact key value or HWID to reach a particular key.'
              : total > rows.length
                ? `Showing ${fmt.number(rows.length)} of ${fmt.count(total, NOUNS.match)} (page ${fmt.number(page + 1)} of ${fmt.number(pages)}).`
                : `${fmt.count(total, NOUNS.match)}.`}{' '}
            <span className="read-at">
              {result?.read && (
                <>
                  Read <Time iso={result.read.at} mode="relative" />.
                </>
              )}
              {reread > 0 &&
                ` ${reread === 1 ? '1 row was' : `${fmt.number(reread)} rows were`} read again since and may no longer match this search.`}
            </span>
          </p>
          {earlier.length > 0 && (
            <div className="warning" role="status">
              {earlier
                .filter(({ change }) => !change.maybe)
                .map(({ value, change }) => (
                  <p key={value}>
                    ⚠{' '}
                    <span className="mono">
                      <ServiceText text={value} />
                    </span>{' '}
                    {change.what} at <Time iso={change.at} mode="time" />: its row is from before.
                  </p>
                ))}
              {maybeEarlier.map(({ change, count }) => (
                <p key={change.seq}>
                  ⚠ A {change.what} ran at <Time iso={change.at} mode="time" />:{' '}
                  {count === 1
                    ? 'the row of 1 key shown may be from before.'
                    : `the rows of ${fmt.number(count)} keys shown may be from before.`}
                </p>
              ))}
              <button type="button" disabled={status === 'loading' || waits} onClick={() => void runLookup(lookupTerm, page)}>
                Search again
              </button>
            </div>
          )}
          <DataTable
            label="Matching keys"
            columns={[
              {
                header: 'Key',
                cell: (k) => (
                  <span className="with-copy key-cell">
                    <button
                      type="button"
                      className="link mono key-value"
                      data-key-row={k.value}
                      aria-expanded={selected?.value === k.value}
                      // Never narrower than two lines of it (three in a narrow window): a column of five-character
                      // scraps is not read as one key. Half a character spare: a line exactly as wide may not fit.
                      style={
                        {
                          '--key-2-lines': `${String(keyLineWidth(shownText(k.value), 2) + 0.5)}ch`,
                          '--key-3-lines': `${String(keyLineWidth(shownText(k.value), 3) + 0.5)}ch`,
                        } as CSSProperties
                      }
                      onClick={() => selectKey(k)}
                    >
                      <ServiceText text={k.value} more={false} />
                    </button>
                    <CopyButton value={k.value} label={`Copy key ${shownText(k.value)}`} />
                    {earlierMark(changeAfter(k))}
                  </span>
                ),
              },
              ...COLUMNS,
            ]}
            rows={rows}
            rowKey={(k) => k.value}
            isCurrent={(k) => selected?.value === k.value}
          />
          {pages > 1 && (
            <nav className="pager" aria-label="Result pages">
              <span className="muted">
                Page {fmt.number(page + 1)} of {fmt.number(pages)}
              </span>
              <button
                type="button"
                disabled={page === 0 || status === 'loading' || waits}
                onClick={() => void runLookup(lookupTerm, page - 1)}
              >
                Previous
              </button>
              <button
                type="button"
                disabled={page + 1 >= pages || status === 'loading' || waits}
                onClick={() => void runLookup(lookupTerm, page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
      <CustomerMatches term={lookupTerm} />
      <LedgerMatches term={lookupTerm} listed={listed} />
    </div>
  );
}

/** An empty answer in words that fit it: a key deleted here, a key typed in lower case, or nothing at all. */
function NoMatch({
  term,
  deleted,
  read,
  onSearch,
}: {
  term: string;
  deleted: boolean;
  read: Moment | null;
  onSearch: (upper: string) => void;
}) {
  if (deleted) {
    return (
      <EmptyState title="Key deleted.">{term} was deleted here: the service no longer has it. All keys lists it as Deleted.</EmptyState>
    );
  }
  const upper = upperKeyOffer(term);
  return (
    <EmptyState
      title="No key matches."
      action={
        upper && (
          <button type="button" onClick={() => onSearch(upper)}>
            Search for {upper}
          </button>
        )
      }
    >
      Nothing has this value or HWID, and no note contains “{term}”.
      {upper && ' Key values are upper case and matched exactly: this one may be the upper-case key.'}
      {read && (
        <span className="read-at">
          {' '}
          Read <Time iso={read.at} mode="relative" />.
        </span>
      )}
    </EmptyState>
  );
}

import { useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import type { KeylessEntry } from '../../../../shared/domain.ts';
import { Badge, ExpiredBadge, isExpired, PremiumBadge } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Time } from '../../components/Time.tsx';
import { backOnlineNote, FailureMessage } from '../../components/FailureMessage.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { Field } from '../../components/Field.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { parseWhole } from '../../lib/numbers.ts';
import { endsInWords, paddedWarning, shownText, typedShape } from '../../lib/text.ts';
import { useDraft, useKeydesk } from '../../store/index.ts';

const COLUMNS: Column<KeylessEntry>[] = [
  {
    header: 'HWID',
    className: 'mono wrap',
    cell: (e) => (
      <span className="with-copy">
        <span>
          <ServiceText text={e.hwid} />
        </span>
        <CopyButton value={e.hwid} label={`Copy HWID ${shownText(e.hwid)}`} />
      </span>
    ),
  },
  {
    header: 'Kind',
    cell: (e) => (
      <span className="badges">
        {e.isPremium ? <PremiumBadge /> : <Badge tone="neutral">Standard</Badge>}
        {isExpired(e.expiresAt) && <ExpiredBadge />}
      </span>
    ),
  },
  { header: 'Expires', cell: (e) => (e.expiresAt ? <Time iso={e.expiresAt} mode="date" /> : 'Never') },
  {
    header: 'Last used',
    cell: (e) =>
      e.lastUsedAt || !e.unreported?.includes('lastUsedAt') ? (
        <Time iso={e.lastUsedAt} mode="relative" />
      ) : (
        <span className="muted">not reported by this service</span>
      ),
  },
];

export function Keyless() {
  const result = useKeydesk((s) => s.keyless);
  const keylessRequest = useKeydesk((s) => s.keylessRequest);
  const { status, error } = keylessRequest;
  const deleteError = useKeydesk((s) => s.keylessDeleteRequest.error);
  const addError = useKeydesk((s) => s.keylessAddRequest.error);
  const online = useKeydesk((s) => s.online);
  const waits = useServiceWait() !== null;
  const lookup = useKeydesk((s) => s.lookupKeyless);
  const add = useKeydesk((s) => s.addKeyless);
  const remove = useKeydesk((s) => s.deleteKeyless);
  const [term, setTerm] = useDraft('keyless.term');
  const [hwid, setHwid] = useDraft('keyless.hwid');
  const [premium, setPremium] = useDraft('keyless.premium');
  const [days, setDays] = useDraft('keyless.days');
  const [fieldError, setFieldError] = useState<{ hwid?: string; days?: string }>({});
  const [blankSearch, setBlankSearch] = useState<string | null>(null);
  const searched = useKeydesk((s) => s.keylessTerm);
  /** A keyless validation that went through after the list was read: its "Last used" is older than that. */
  const validatedSince = useKeydesk((s) =>
    s.keylessValidated && s.keylessValidated.seq > (s.keyless?.read?.seq ?? 0) ? s.keylessValidated : null,
  );
  const [toDelete, setToDelete] = useState<string | null>(null);
  /** The padded HWID waiting for the person to say "add it as typed". */
  const [paddedToAdd, setPaddedToAdd] = useState<string | null>(null);
  /** The HWID the last add was sent for: its refusal shows only while the field still holds that HWID. */
  const [attempted, setAttempted] = useState<string | null>(null);
  const submitAdd = (asTyped: boolean) => {
    // The service trims nothing: blank is refused here, spaces at the ends are sent only once the person says so.
    const shape = typedShape(hwid);
    const h = shape === 'blank' ? null : schemas.hwid.safeParse(hwid);
    const d = days.trim() === '' ? null : schemas.days.safeParse(parseWhole(days));
    const problems = {
      hwid: shape === 'blank' ? 'HWID is required.' : h && !h.success ? h.error.issues[0]?.message : undefined,
      days: d && !d.success ? d.error.issues[0]?.message : undefined,
    };
    setFieldError(problems);
    if (!h?.success || (d && !d.success)) return;
    if (shape === 'padded' && !asTyped) {
      setPaddedToAdd(h.data);
      return;
    }
    setAttempted(h.data);
    void add({ hwid: h.data, isPremium: premium, ...(d ? { days: d.data } : {}) }).then((ok) => {
      if (ok) setHwid('');
    });
  };

  return (
    <section aria-labelledby="keyless-title">
      <h1 id="keyless-title">Keyless</h1>
      <p className="muted">HWIDs authorized without a key.</p>
      <div className="columns split-3-2">
        <div className="card">
          <h2>Find entries</h2>
          <form
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              // A blank search asks nothing: it says so beside the box; the list keeps naming the term it answers.
              if (term.trim() === '') {
                setBlankSearch('Type part of a HWID to search.');
                return;
              }
              setBlankSearch(null);
              void lookup(term.trim());
            }}
          >
            <Field
              label="HWID contains"
              type="search"
              value={term}
              error={blankSearch}
              onChange={(e) => {
                setTerm(e.target.value);
                setBlankSearch(null);
              }}
            />
            <button type="submit" disabled={waits} aria-describedby={waits ? 'keyless-waits' : undefined}>
              Search
            </button>
          </form>
          <ServiceWait id="keyless-waits" what="Searching and deleting" />
          {error &&
            (backOnlineNote(error, online) ? (
              <FailureMessage failure={error} stale={backOnlineNote(error, online)} />
            ) : (
              <RequestFailure request={keylessRequest} what="Reading the keyless entries" again="read them again" />
            ))}
          {deleteError && <FailureMessage failure={deleteError} stale={backOnlineNote(deleteError, online)} />}
          {status === 'loading' && <p role="status">Searching…</p>}
          {/* The first-visit prompt only for a first visit: not beside an error, nor under a term typed and not searched. */}
          {status === 'idle' && !result && !error && term.trim() === '' && (
            <EmptyState title="Find an authorized HWID">
              Machines listed here pass validation without a key. Search by part of a HWID, or add one with the form.
            </EmptyState>
          )}
          {status === 'idle' && !result && !error && term.trim() !== '' && (
            <p className="muted">Press Search to list the entries whose HWID contains “{term.trim()}”.</p>
          )}
          {status === 'ready' && result?.entries.length === 0 && (
            <EmptyState title="No keyless entry matches.">
              No authorized HWID contains “{searched ?? term.trim()}”. Add it with the form if it should pass without a key.
            </EmptyState>
          )}
          {status === 'ready' && result?.total === null && result.entries.length > 0 && (
            <p className="muted">
              This service returns its best match only. Search by a longer part of the HWID to reach a particular entry.
            </p>
          )}
          {result && result.entries.length > 0 && (
            <p className="muted result-term">
              {searched !== null
                ? `Results for “${searched}”.`
                : `Added here: ${fmt.count(result.entries.length, NOUNS.entry)} (no search yet; search to list every entry).`}{' '}
              {result.read && (
                <span className="read-at">
                  Read <Time iso={result.read.at} mode="relative" />.
                </span>
              )}
            </p>
          )}
          {result && result.entries.length > 0 && validatedSince && (
            <div className="warning" role="status">
              <p>
                A keyless validation went through at <Time iso={validatedSince.at} mode="time" />, after this list was read: “Last used” may
                be older.
              </p>
              {searched !== null && (
                <button type="button" disabled={status === 'loading' || waits} onClick={() => void lookup(searched)}>
                  Search again
                </button>
              )}
            </div>
          )}
          {result && result.entries.length > 0 && (
            <DataTable
              label="Keyless entries"
              columns={[
                ...COLUMNS,
                {
                  header: 'Actions',
                  hidden: true,
                  cell: (e) => (
                    <button
                      type="button"
                      className="danger"
                      disabled={waits}
                      aria-describedby={waits ? 'keyless-waits' : undefined}
                      aria-label={`Delete keyless entry ${shownText(e.hwid)}`}
                      onClick={() => setToDelete(e.hwid)}
                    >
                      Delete
                    </button>
                  ),
                },
              ]}
              rows={result.entries}
              rowKey={(e) => e.hwid}
            />
          )}
        </div>
        <form
          className="card"
          aria-labelledby="keyless-add-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submitAdd(false);
          }}
        >
          <h2 id="keyless-add-title">Add an entry</h2>
          <Field
            label="HWID"
            data-command-target="add-keyless"
            value={hwid}
            error={fieldError.hwid}
            hint={typedShape(hwid) === 'padded' ? paddedWarning('HWID') : undefined}
            onChange={(e) => {
              setHwid(e.target.value);
              setFieldError({ ...fieldError, hwid: undefined });
            }}
          />
          <Field label="Premium" type="checkbox" checked={premium} onChange={(e) => setPremium(e.target.checked)} />
          <Field
            label="Days (empty: no expiry)"
            inputMode="numeric"
            value={days}
            error={fieldError.days}
            onChange={(e) => {
              setDays(e.target.value);
              setFieldError({ ...fieldError, days: undefined });
            }}
          />
          {/* A refusal answers the HWID it was sent for, not another one typed since (nor a dialog about it). */}
          {addError && attempted === hwid && paddedToAdd === null && (
            <FailureMessage failure={addError} stale={backOnlineNote(addError, online)} />
          )}
          <button type="submit" className="primary" disabled={waits} aria-describedby={waits ? 'keyless-add-waits' : undefined}>
            Add
          </button>
          <ServiceWait id="keyless-add-waits" what="Adding" />
        </form>
      </div>
      <ConfirmDialog
        open={paddedToAdd !== null}
        title="Add the HWID with its spaces?"
        body={`The HWID “${(paddedToAdd ?? '').trim()}” has ${endsInWords(paddedToAdd ?? '')}. The service keeps it as typed: a machine reporting “${(paddedToAdd ?? '').trim()}” will not match this entry.`}
        confirmLabel="Add as typed"
        onCancel={() => setPaddedToAdd(null)}
        onConfirm={() => {
          setPaddedToAdd(null);
          submitAdd(true);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this keyless entry?"
        body={`${shownText(toDelete ?? '')} will no longer be authorized without a key.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) void remove(toDelete);
          setToDelete(null);
        }}
      />
    </section>
  );
}

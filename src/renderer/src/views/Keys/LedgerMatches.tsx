// Keys' search in Keydesk's records: the keys holding part of the term, when the service found no whole key or HWID.
import type { LedgerRow } from '../../../../shared/domain.ts';
import { PremiumBadge, StatusBadge } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { shownText } from '../../lib/text.ts';
import { useKeydesk, type KeydeskState } from '../../store/index.ts';

const COLUMNS: Column<LedgerRow>[] = [
  {
    header: 'Status',
    cell: (r) => (
      <>
        <StatusBadge status={r.status} />
        {r.isPremium && <PremiumBadge />}
      </>
    ),
  },
  { header: 'Note', cell: (r) => (r.note ? <ServiceText text={r.note} /> : <span className="muted">—</span>) },
  {
    header: 'HWID',
    className: 'mono',
    cell: (r) => (r.hwid ? <ServiceText text={r.hwid} more={false} /> : <span className="muted">—</span>),
  },
  {
    header: 'Expires',
    cell: (r) =>
      r.expiresAt ? (
        <Time iso={r.expiresAt} mode="date" />
      ) : r.daysKey === null ? (
        <span className="muted">—</span>
      ) : (
        `${fmt.count(r.daysKey, NOUNS.day)} after activation`
      ),
  },
];

/** How many keys hold the term, as the ledger counted them. */
function countWords(total: number | null, capped: boolean): string {
  if (total === null) return 'Keys';
  return capped ? `More than ${fmt.count(total, NOUNS.key)}` : fmt.count(total, NOUNS.key);
}

/** Whether Keydesk's records were searched and hold more than the service's answer `listed` (or are still read). */
export function recordsAddMore(s: Pick<KeydeskState, 'lookupLedger' | 'lookupLedgerRequest'>, listed: readonly string[]): boolean {
  const found = s.lookupLedger;
  if (s.lookupLedgerRequest.status === 'idle') return false;
  return !found || found.total !== found.rows.length || found.rows.some((r) => !listed.includes(r.value));
}

/** `listed`: the keys the service's answer shows above; they are not listed twice. */
export function LedgerMatches({ term, listed }: { term: string; listed: readonly string[] }) {
  const found = useKeydesk((s) => s.lookupLedger);
  const shown = useKeydesk((s) => recordsAddMore(s, listed));
  const request = useKeydesk((s) => s.lookupLedgerRequest);
  const openKey = useKeydesk((s) => s.openKey);
  const openInAllKeys = useKeydesk((s) => s.openInAllKeys);
  if (!shown) return null;
  const rows = found?.rows.filter((r) => !listed.includes(r.value)) ?? [];
  const twice = (found?.rows.length ?? 0) - rows.length;
  const one = found?.total === 1 && !found.capped;
  return (
    <section className="lookup-ledger" aria-labelledby="lookup-ledger-title">
      <h3 id="lookup-ledger-title">In Keydesk’s records (part of a value)</h3>
      {request.status === 'loading' && <Skeleton label="Searching Keydesk’s records…" lines={1} />}
      {request.error && <FailureMessage failure={request.error} />}
      {found && (
        <p className="muted" role="status">
          {found.total === 0
            ? `No key in Keydesk’s records holds “${term}”.`
            : `${countWords(found.total, found.capped)} ${one ? 'holds' : 'hold'} “${term}” in a value, note or HWID.`}
          {found.total !== null && found.total > found.rows.length && ` The newest ${fmt.number(found.rows.length)} are listed.`}
          {twice > 0 && ` ${twice === 1 ? '1 is' : `${fmt.number(twice)} are`} already listed above.`}{' '}
          <span className="read-at">
            Read <Time iso={found.read.at} mode="relative" />.
          </span>
        </p>
      )}
      {rows.length > 0 && (
        <DataTable
          label="Keys in Keydesk’s records"
          columns={[
            {
              header: 'Key',
              cell: (r) => (
                <span className="with-copy key-cell">
                  <button type="button" className="link mono key-value" onClick={() => void openKey(r.value)}>
                    <ServiceText text={r.value} more={false} />
                  </button>
                  <CopyButton value={r.value} label={`Copy key ${shownText(r.value)}`} />
                </span>
              ),
            },
            ...COLUMNS,
          ]}
          rows={rows}
          rowKey={(r) => r.value}
        />
      )}
      <p>
        <button type="button" onClick={() => openInAllKeys(term)}>
          Open “{term}” in All keys
        </button>
      </p>
    </section>
  );
}

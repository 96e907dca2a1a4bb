// What a failed start offers: the newest backup of keydesk.db (asked before it is put in place), a new start once a
// damaged file was moved aside, or else a new start once the cause is fixed.
import { useState } from 'react';
import { fmt } from '../lib/format.ts';
import { useKeydesk } from '../store/index.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

export function StartOffer() {
  const offer = useKeydesk((s) => s.startup?.offer);
  const startAgain = useKeydesk((s) => s.startAgain);
  const [confirming, setConfirming] = useState(false);
  const backup = offer?.backup ?? null;
  if (!offer || (backup === null && !offer.startAgain)) return <p>Quit Keydesk, and start it again once that is fixed.</p>;
  const when = backup ? fmt.dateTime(backup.takenAt) : '';
  return (
    <>
      <div className="actions">
        {backup && (
          <button type="button" className="primary" onClick={() => setConfirming(true)}>
            Restore the backup of {when}
          </button>
        )}
        {offer.startAgain && (
          <button type="button" onClick={() => void startAgain(null)}>
            {backup ? 'Start with an empty ledger' : 'Start again'}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Restore this backup?"
        body={`Keydesk's records go back to ${when}. ${offer.startAgain ? '' : 'The keydesk.db it refused is kept as keydesk-replaced-<time>.db. '}Keys made or changed since are still on the service: look them up in Keys to bring them back into the ledger.`}
        confirmLabel="Restore"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (backup) void startAgain(backup.name);
        }}
      />
    </>
  );
}

import type { RefObject } from 'react';
import { useKeydesk } from '../store/index.ts';

/** A running job's Cancel; it goes once main stops sending, so focus moves first to the job's status line. */
export function CancelJobButton({ status, onCancel }: { status: RefObject<HTMLElement | null>; onCancel: () => Promise<void> }) {
  // Keydesk itself stopped answering: a cancel cannot reach it (and the job may not run any more).
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  if (keydeskGone) return null;
  return (
    <button
      type="button"
      onClick={() => {
        status.current?.focus();
        void onCancel();
      }}
    >
      Cancel
    </button>
  );
}

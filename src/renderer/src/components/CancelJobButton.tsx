import type { RefObject } from 'react';

/**
 * A running job's Cancel. The button goes once main stops sending, so the focus moves first to the line that
 * says what the cancel did (the job's status), never to the page body or an unrelated button.
 */
export function CancelJobButton({ status, onCancel }: { status: RefObject<HTMLElement | null>; onCancel: () => Promise<void> }) {
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

// Every action that needs the service waits the same way while it does not answer: one reason, one "Check now".
import { useKeydesk } from '../store/index.ts';

/** What service actions wait for now ("until the service answers again"), or null while it answers. */
export function useServiceWait(): string | null {
  return useKeydesk((s) => (s.keydeskGone !== null ? 'until Keydesk answers again' : s.online ? null : 'until the service answers again'));
}

/** The reason beside a waiting action (its button points to `id`), and a way to ask the service again now. */
export function ServiceWait({ id, what }: { id: string; what: string }) {
  const until = useServiceWait();
  const checkService = useKeydesk((s) => s.checkService);
  if (until === null) return null;
  return (
    <p className="muted service-wait">
      <span id={id}>
        {what} waits {until}.
      </span>{' '}
      <button type="button" className="link" onClick={checkService}>
        Check now
      </button>
    </p>
  );
}

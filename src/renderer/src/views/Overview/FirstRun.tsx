// The first-run checklist on a profile with no keys: four steps, each ticked once done (main keeps them per
// profile), hidden once all are.
import { useEffect } from 'react';
import { FIRST_RUN_STEPS, type FirstRunStep } from '../../../../shared/domain.ts';
import { useKeydesk } from '../../store/index.ts';
import type { ViewName } from '../../views/registry.ts';

const STEPS: Record<FirstRunStep, { title: string; how: string; view: ViewName; go: string }> = {
  generate: { title: 'Generate keys', how: 'Make a few keys to try things with.', view: 'keys', go: 'Open Keys' },
  validate: { title: 'Validate one', how: 'Check a key the way your app will, on this machine.', view: 'validate', go: 'Open Validate' },
  snippet: { title: 'Copy a snippet', how: 'Take the code that checks a key into your app.', view: 'integration', go: 'Open Integration' },
  service: {
    title: 'Add your real service',
    how: 'Point Keydesk at the license service your app uses.',
    view: 'profiles',
    go: 'Open Profiles',
  },
};

export function FirstRun() {
  const done = useKeydesk((s) => s.firstRunDone);
  const total = useKeydesk((s) => s.figures?.total ?? null);
  const loadFirstRun = useKeydesk((s) => s.loadFirstRun);
  const setView = useKeydesk((s) => s.setView);
  const profileId = useKeydesk((s) => s.activeProfileId);

  useEffect(() => {
    void loadFirstRun();
  }, [loadFirstRun, profileId, total]);

  // Shown from a profile's start (no keys yet) until every step is done; read first, so it never flashes.
  if (done === null || done.length === FIRST_RUN_STEPS.length) return null;
  return (
    <div className="card first-run">
      <h2 id="first-run-title">Getting started</h2>
      <ol aria-labelledby="first-run-title" className="checklist">
        {FIRST_RUN_STEPS.map((step) => {
          const s = STEPS[step];
          const ticked = done.includes(step);
          return (
            <li key={step} data-done={ticked}>
              <span className="check" aria-hidden="true">
                {ticked ? '✓' : ''}
              </span>
              <span>
                <strong>{s.title}</strong>
                <span className="visually-hidden">{ticked ? ' (done)' : ' (not done yet)'}</span>
                <span className="muted"> {s.how}</span>
              </span>
              {!ticked && (
                <button type="button" onClick={() => setView(s.view)}>
                  {s.go}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

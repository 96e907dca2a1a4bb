import { useEffect } from 'react';
import { CommandPalette } from './components/CommandPalette.tsx';
import { Toasts } from './components/Toasts.tsx';
import { useKeydesk, type ViewName } from './store/index.ts';
import { Activity } from './views/Activity/Activity.tsx';
import { AllKeys } from './views/AllKeys/AllKeys.tsx';
import { Identifier } from './views/Identifier/Identifier.tsx';
import { Integration } from './views/Integration/Integration.tsx';
import { Keyless } from './views/Keyless/Keyless.tsx';
import { Keys } from './views/Keys/Keys.tsx';
import { Overview } from './views/Overview/Overview.tsx';
import { Profiles } from './views/Profiles/Profiles.tsx';
import { Validate } from './views/Validate/Validate.tsx';
import { VIEWS } from './views/registry.ts';

const VIEW_COMPONENTS: Record<ViewName, () => React.JSX.Element> = {
  overview: Overview,
  keys: Keys,
  ledger: AllKeys,
  keyless: Keyless,
  identifier: Identifier,
  validate: Validate,
  integration: Integration,
  profiles: Profiles,
  activity: Activity,
};

function ProfileSwitcher() {
  const profiles = useKeydesk((s) => s.profiles);
  const activeId = useKeydesk((s) => s.activeProfileId);
  const select = useKeydesk((s) => s.selectProfile);
  return (
    <label className="switcher">
      <span>Service</span>
      <select value={activeId ?? ''} onChange={(e) => void select(e.target.value)}>
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function App() {
  const session = useKeydesk((s) => s.session);
  const sessionError = useKeydesk((s) => s.sessionError);
  const online = useKeydesk((s) => s.online);
  const view = useKeydesk((s) => s.view);
  const setView = useKeydesk((s) => s.setView);
  const setPaletteOpen = useKeydesk((s) => s.setPaletteOpen);
  const loadSession = useKeydesk((s) => s.loadSession);
  const sandbox = useKeydesk((s) => s.appStatus?.sandbox);

  useEffect(() => {
    void loadSession();
  }, [loadSession]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [setPaletteOpen]);

  if (session === 'error') {
    return (
      <main className="center" data-app-state="error">
        <h1>Keydesk could not start</h1>
        <p role="alert">{sessionError}</p>
        <button type="button" onClick={() => void loadSession()}>
          Try again
        </button>
      </main>
    );
  }
  if (session !== 'ready') {
    return (
      <main className="center" data-app-state="loading">
        <p role="status">Starting Keydesk…</p>
      </main>
    );
  }
  const View = VIEW_COMPONENTS[view];
  return (
    <div className="shell" data-app-state="ready">
      <header className="topbar">
        <strong className="brand">Keydesk</strong>
        <ProfileSwitcher />
        <span className="muted">{sandbox?.running ? `Local sandbox at ${sandbox.url ?? ''}` : (sandbox?.error ?? '')}</span>
        <button type="button" className="palette-button" onClick={() => { setPaletteOpen(true); }} aria-keyshortcuts="Control+K Meta+K">
          Commands <kbd>Ctrl K</kbd>
        </button>
      </header>
      <nav aria-label="Views" className="sidebar">
        {VIEWS.map((v) => (
          <button key={v.view} type="button" aria-current={view === v.view ? 'page' : undefined} onClick={() => { setView(v.view); }}>
            {v.label}
          </button>
        ))}
      </nav>
      <main className="content">
        {!online && (
          <p role="alert" className="offline">
            The service is not answering. Your work is kept; actions will go through once it is back.
          </p>
        )}
        <View />
      </main>
      <Toasts />
      <CommandPalette />
    </div>
  );
}

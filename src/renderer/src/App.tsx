import { useEffect, useState } from 'react';
import { CommandPalette } from './components/CommandPalette.tsx';
import { ShortcutsSheet } from './components/ShortcutsSheet.tsx';
import { Toasts } from './components/Toasts.tsx';
import { Badge } from './components/Badge.tsx';
import { Icon, type IconName } from './components/Icon.tsx';
import { FailureMessage } from './components/FailureMessage.tsx';
import { StartOffer } from './components/StartOffer.tsx';
import { ViewBoundary } from './components/ViewBoundary.tsx';
import { useKeydesk, type ViewName } from './store/index.ts';
import { Activity } from './views/Activity/Activity.tsx';
import { AllKeys } from './views/AllKeys/AllKeys.tsx';
import { Customers } from './views/Customers/Customers.tsx';
import { Identifier } from './views/Identifier/Identifier.tsx';
import { Integration } from './views/Integration/Integration.tsx';
import { Import } from './views/Import/Import.tsx';
import { Jobs } from './views/Jobs/Jobs.tsx';
import { Keyless } from './views/Keyless/Keyless.tsx';
import { Keys } from './views/Keys/Keys.tsx';
import { Overview } from './views/Overview/Overview.tsx';
import { Profiles } from './views/Profiles/Profiles.tsx';
import { Settings } from './views/Settings/Settings.tsx';
import { Renewals } from './views/Renewals/Renewals.tsx';
import { Validate } from './views/Validate/Validate.tsx';
import { VIEWS } from './views/registry.ts';
import { offlineCause, offlineHeadline, unknownWords } from './lib/words.ts';
import { call, subscribe } from './lib/api.ts';
import { isLive } from './lib/jobs.ts';
import { KEYDESK_WATCH_MS } from './store/ui.ts';
import { shownJobs } from './store/job-selectors.ts';

const VIEW_COMPONENTS: Record<ViewName, () => React.JSX.Element> = {
  overview: Overview,
  keys: Keys,
  ledger: AllKeys,
  customers: Customers,
  import: Import,
  jobs: Jobs,
  renewals: Renewals,
  keyless: Keyless,
  identifier: Identifier,
  validate: Validate,
  integration: Integration,
  profiles: Profiles,
  activity: Activity,
  settings: Settings,
};

/** Each view's icon in the navigation, beside its name. */
const NAV_ICONS: Record<ViewName, IconName> = {
  overview: 'gauge',
  keys: 'key',
  ledger: 'rows',
  customers: 'people',
  import: 'upload',
  jobs: 'layers',
  renewals: 'clock',
  keyless: 'chip',
  identifier: 'tag',
  validate: 'shield',
  integration: 'code',
  profiles: 'server',
  activity: 'pulse',
  settings: 'sliders',
};

/** Each service by name, kind and address: which one every action goes to is never a guess. */
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
            {`${p.name} — ${p.kind} at ${p.baseUrl}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The active service's kind, marked while it is the sandbox (its data is test data), and the sandbox's trouble if any. */
function ActiveService() {
  const profile = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId));
  const sandbox = useKeydesk((s) => s.appStatus?.sandbox);
  if (!profile) return <span className="muted">No service selected</span>;
  const down = profile.kind === 'sandbox' && sandbox && !sandbox.running;
  return (
    <span className="active-service" aria-label="Active service">
      {profile.kind === 'sandbox' && (
        <Badge tone="info" icon="flask">
          Sandbox: test data
        </Badge>
      )}
      {down && <span className="error">Not running{sandbox.error ? `: ${sandbox.error}` : ''}</span>}
    </span>
  );
}

/** Keydesk's own core stopped answering (not the service): what happened meanwhile never reached us, so reload. */
function KeydeskGoneBanner() {
  const gone = useKeydesk((s) => s.keydeskGone);
  if (!gone) return null;
  if (gone.back) {
    return (
      <div role="alert" className="offline" data-cause="keydesk-back">
        <p>
          <strong>Keydesk is answering again.</strong> This window missed what happened while it was not (a job may have stopped or ended):
          reload it to see where things stand.
        </p>
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  return (
    <div role="alert" className="offline" data-cause="keydesk-gone">
      <p>
        <strong>Keydesk stopped answering.</strong> This window cannot reach Keydesk itself (not the service), so nothing it shows can be
        checked: a job shown as running may have stopped with it, and nothing can be sent from here. Keydesk is asked again every few
        seconds; this notice changes as soon as it answers.
      </p>
    </div>
  );
}

/** The last backup of keydesk.db failed (a full disk, say): said until one is made. */
function BackupProblem() {
  const problem = useKeydesk((s) => s.backupProblem);
  return problem === null ? null : (
    <p role="alert" className="error">
      {problem}
    </p>
  );
}

/** A job's end notification was clicked (main focused the window): open that job in Jobs. */
function OpenJobFromNotice() {
  const openJob = useKeydesk((s) => s.openJob);
  const setView = useKeydesk((s) => s.setView);
  useEffect(
    () =>
      subscribe('app.openJob', ({ jobId }) => {
        openJob(jobId);
        setView('jobs');
      }),
    [openJob, setView],
  );
  return null;
}

/** While a job shows as running, ask the core a light question every few seconds: progress events just stop if it dies. */
function KeydeskWatch() {
  const watching = useKeydesk((s) => s.keydeskGone === null && shownJobs(s).some(isLive));
  useEffect(() => {
    if (!watching) return;
    const timer = setInterval(() => void call('app.status', undefined), KEYDESK_WATCH_MS);
    return () => clearInterval(timer);
  }, [watching]);
  return null;
}

/** While the service does not answer: failed reads and refused changes were not done; lost answers may have taken effect. */
function OfflineBanner() {
  // Keydesk itself not answering says so instead (KeydeskGoneBanner): whether the service answers is not known then.
  const online = useKeydesk((s) => s.online || s.keydeskGone !== null);
  const reason = useKeydesk((s) => s.offlineReason);
  const unknown = useKeydesk((s) => s.unknownOutcomes);
  /** A job of this profile runs: its requests with no answer (timeouts, its checks one at a time) may have acted. */
  const jobRuns = useKeydesk((s) => shownJobs(s).some((j) => isLive(j) && j.profileId === s.activeProfileId));
  const name = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId)?.name ?? 'The service');
  const [networkUp, setNetworkUp] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setNetworkUp(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  if (online) return null;
  return (
    <div role="alert" className="offline" data-cause={offlineCause(reason, networkUp)}>
      <p>
        <strong>{offlineHeadline(offlineCause(reason, networkUp), name)}</strong>{' '}
        {unknown.length > 0 && `${unknownWords(unknown)} may or may not have taken effect: check before trying it again. `}
        {jobRuns && 'A running job’s requests that got no answer may or may not have taken effect: its line counts them as unknown. '}
        {unknown.length === 0 && !jobRuns
          ? 'What just failed was not done, and nothing is queued: try it again once the service is back.'
          : 'Anything else that failed was not done, and nothing is queued: try it again once the service is back.'}{' '}
        Keydesk checks every few seconds; this notice goes as soon as it answers.
      </p>
      {reason && (
        <details>
          <summary>Details</summary>
          <pre>{[reason.message, reason.detail].filter(Boolean).join('\n')}</pre>
        </details>
      )}
    </div>
  );
}

export function App() {
  const { status: session, error: sessionError } = useKeydesk((s) => s.sessionRequest);
  // Main's start failed for good (keydesk.db refused, say): asking again cannot help, only a new start once the
  // cause is fixed.
  const startFailed = useKeydesk((s) => s.startup?.state === 'failed');
  /** Main answered about its start at least once in this window. */
  const startupSeen = useKeydesk((s) => s.startup !== null);
  const view = useKeydesk((s) => s.view);
  const setView = useKeydesk((s) => s.setView);
  const setPaletteOpen = useKeydesk((s) => s.setPaletteOpen);
  const loadSession = useKeydesk((s) => s.loadSession);
  const activeProfileId = useKeydesk((s) => s.activeProfileId);
  const activeKind = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId)?.kind);

  useEffect(() => void loadSession(), [loadSession]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setPaletteOpen]);

  if (session === 'error') {
    // Main not answering at all (the harness's process gone, say) is not a start that failed: it may have been
    // starting when it stopped.
    const unanswered = sessionError?.code === 'NETWORK';
    return (
      <main className="center" data-app-state="error">
        <h1>{!unanswered ? 'Keydesk could not start' : startupSeen ? 'Keydesk stopped answering' : 'Keydesk is not answering'}</h1>
        {sessionError && <FailureMessage failure={sessionError} />}
        {startFailed ? (
          <StartOffer />
        ) : (
          <button type="button" onClick={() => void loadSession()}>
            Try again
          </button>
        )}
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
      <header className="topbar" data-kind={activeKind}>
        <strong className="brand">Keydesk</strong>
        <ProfileSwitcher />
        <ActiveService />
        <button type="button" className="palette-button" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+K Meta+K">
          Commands <kbd>Ctrl K</kbd>
        </button>
      </header>
      <nav aria-label="Views" className="sidebar">
        {VIEWS.map((v) => (
          <button key={v.view} type="button" aria-current={view === v.view ? 'page' : undefined} onClick={() => setView(v.view)}>
            <Icon name={NAV_ICONS[v.view]} /> {v.label}
          </button>
        ))}
      </nav>
      <main className="content">
        <KeydeskWatch />
        <OpenJobFromNotice />
        <KeydeskGoneBanner />
        <OfflineBanner />
        <BackupProblem />
        {/* Keyed by view and profile: leaving a failed view, or switching service, gives it a fresh start. */}
        <ViewBoundary key={`${view}:${activeProfileId ?? ''}`} name={VIEWS.find((v) => v.view === view)?.label ?? 'This view'}>
          <View />
        </ViewBoundary>
      </main>
      <Toasts />
      <CommandPalette />
      <ShortcutsSheet />
    </div>
  );
}

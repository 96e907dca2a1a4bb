// Settings: Keydesk's own preferences (theme, sampling, default bulk limit, log level), the local sandbox's port and
// the data folder. Main keeps them in settings.json; each applies as it is saved.
import { useEffect, useState } from 'react';
import {
  LOG_LEVELS,
  SANDBOX_PORT_MIN,
  SETTING_FIELDS,
  SETTINGS_DEFAULTS,
  THEMES,
  type Settings as Values,
  type SettingsState,
} from '../../../../shared/contract.ts';
import { Field } from '../../components/Field.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { useKeydesk } from '../../store/index.ts';

const THEME_WORDS: Record<Values['theme'], string> = { system: 'As the system', light: 'Light', dark: 'Dark' };
const LEVEL_WORDS: Record<Values['logLevel'], string> = {
  info: 'Everything (events, warnings, errors)',
  warn: 'Warnings and errors',
  error: 'Errors only',
};

type NumberField = 'sampleEverySeconds' | 'bulkLimit';

/** A whole-number setting with its own Save; a new saved value starts its form afresh. */
function NumberSetting(props: { field: NumberField; label: string; hint: string }) {
  const saved = useKeydesk((s) => s.settingsState?.settings[props.field] ?? SETTINGS_DEFAULTS[props.field]);
  return <NumberForm key={saved} saved={saved} {...props} />;
}

/** Checked by the shared schema before it is sent. */
function NumberForm({ field, label, hint, saved }: { field: NumberField; label: string; hint: string; saved: number }) {
  const change = useKeydesk((s) => s.changeSetting);
  const [draft, setDraft] = useState(String(saved));
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="settings-form"
      aria-label={label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = SETTING_FIELDS[field].safeParse(/^\d+$/.test(draft.trim()) ? Number(draft) : NaN);
        if (!parsed.success) {
          setError(
            parsed.error.issues[0]?.code === 'invalid_type' ? 'Enter a whole number.' : (parsed.error.issues[0]?.message ?? 'Invalid.'),
          );
          return;
        }
        setError(null);
        void change({ [field]: parsed.data });
      }}
    >
      <Field
        label={label}
        hint={`${hint} Default: ${SETTINGS_DEFAULTS[field]}.`}
        inputMode="numeric"
        value={draft}
        error={error}
        onChange={(e) => setDraft(e.target.value)}
      />
      <button type="submit" disabled={draft === String(saved)}>
        Save
      </button>
    </form>
  );
}

/** The local sandbox: where it listens, and its port; a new port starts the form afresh. */
function SandboxPort() {
  const sandbox = useKeydesk((s) => s.settingsState?.sandbox ?? null);
  // Where it listens now when no port is kept (a harness given --sandbox-port 0).
  const port = sandbox?.port ?? (sandbox?.url ? Number(new URL(sandbox.url).port) : null);
  return <SandboxPortForm key={port ?? ''} port={port} sandbox={sandbox} />;
}

/** A port from SANDBOX_PORT_MIN, or any free one: the sandbox moves at once and stays. */
function SandboxPortForm({ port, sandbox }: { port: number | null; sandbox: SettingsState['sandbox'] | null }) {
  const request = useKeydesk((s) => s.sandboxPortRequest);
  const setPort = useKeydesk((s) => s.setSandboxPort);
  const [draft, setDraft] = useState(port === null ? '' : String(port));
  const [error, setError] = useState<string | null>(null);
  const moving = request.status === 'loading';
  const move = (to: number | null) => {
    setError(null);
    void setPort(to);
  };
  return (
    <div className="card">
      <h2>Local sandbox</h2>
      <p role="status" aria-live="polite">
        {moving
          ? 'Restarting the local sandbox…'
          : sandbox?.running
            ? `Listening at ${sandbox.url ?? ''}.`
            : `Not running${sandbox?.error ? `: ${sandbox.error}` : '.'}`}
      </p>
      <form
        className="settings-form"
        aria-label="Local sandbox port"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const n = /^\d+$/.test(draft.trim()) ? Number(draft) : NaN;
          if (!Number.isSafeInteger(n) || n < SANDBOX_PORT_MIN || n > 65_535) {
            setError(`Enter a port from ${SANDBOX_PORT_MIN} to 65535.`);
            return;
          }
          move(n);
        }}
      >
        <Field
          label="Port"
          data-command-target="sandbox-port"
          hint="Takes effect at once: the sandbox restarts there (on the next free port if it is taken) and stays there after restarts. Apps pointed at the old address must be pointed at the new one."
          inputMode="numeric"
          value={draft}
          error={error}
          onChange={(e) => setDraft(e.target.value)}
        />
        <div className="actions">
          <button type="submit" disabled={moving}>
            Move the sandbox
          </button>
          <button type="button" disabled={moving} onClick={() => move(null)}>
            Any free port
          </button>
        </div>
      </form>
      <RequestFailure request={request} what="Moving the local sandbox" again="try again" />
    </div>
  );
}

export function Settings() {
  const state = useKeydesk((s) => s.settingsState);
  const request = useKeydesk((s) => s.settingsRequest);
  const load = useKeydesk((s) => s.loadSettings);
  const change = useKeydesk((s) => s.changeSetting);
  const openDataFolder = useKeydesk((s) => s.openDataFolder);
  useEffect(() => void load(), [load]);
  const settings = state?.settings ?? SETTINGS_DEFAULTS;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <p className="muted">Keydesk&apos;s own settings, for every service. Each takes effect as it is saved and is kept across restarts.</p>
      {state?.problem && (
        <p role="alert" className="error">
          {state.problem}
        </p>
      )}
      <RequestFailure request={request} what="Saving the settings" again="try again" />
      <div className="card">
        <h2>Appearance</h2>
        <fieldset className="segmented">
          <legend>Theme</legend>
          {THEMES.map((theme) => (
            <label key={theme}>
              <input
                type="radio"
                name="theme"
                value={theme}
                checked={settings.theme === theme}
                data-command-target={settings.theme === theme ? 'theme' : undefined}
                onChange={() => void change({ theme })}
              />
              <span>{THEME_WORDS[theme]}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <SandboxPort />
      <div className="card">
        <h2>Jobs and sampling</h2>
        <NumberSetting
          field="sampleEverySeconds"
          label="Read the execution count every (seconds)"
          hint="While Keydesk runs, for Overview's history."
        />
        <NumberSetting
          field="bulkLimit"
          label="Default bulk limit"
          hint="Requests a bulk job keeps in flight on a service without a limit of its own; a service's own limit (Profiles) overrides it."
        />
      </div>
      <div className="card">
        <h2>Logs and data</h2>
        <div className="field">
          <label htmlFor="settings-log-level">Log level</label>
          <select
            id="settings-log-level"
            value={settings.logLevel}
            onChange={(e) => {
              const level = LOG_LEVELS.find((l) => l === e.target.value);
              if (level) void change({ logLevel: level });
            }}
          >
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {LEVEL_WORDS[level]}
              </option>
            ))}
          </select>
          <small className="hint">What Keydesk writes to main.log (Help → Open logs folder). Never an API key.</small>
        </div>
        <p>
          Data folder: <code>{state?.dataFolder ?? '…'}</code>
        </p>
        <button type="button" onClick={() => void openDataFolder()}>
          Open data folder
        </button>
      </div>
    </section>
  );
}

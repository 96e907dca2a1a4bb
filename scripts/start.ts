// `npm start`: installs Electron's binary if missing, then builds and opens the app with `electron-vite preview`.
// Without the binary it prints one short message, no stack, and exits 1.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classifyDownloadFailure, electronInstalled, ensureElectron, failureMessage } from './electron-binary.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');
const version = (JSON.parse(readFileSync(join(ELECTRON_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs node_modules/electron/install.js (Electron's own downloader and extractor); null when it succeeded. */
function runInstaller(): Promise<string | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ELECTRON_DIR, 'install.js')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', (error) => {
      done(`the installer could not run (${(error as NodeJS.ErrnoException).code ?? error.name})`);
    });
    child.on('exit', (code) => {
      done(code === 0 ? null : output || `the installer exited with ${code ?? 'a signal'}`);
    });
  });
}

/** One request to where the installer downloads from, to tell offline from blocked: an error code or a status. */
async function probe(): Promise<{ host: string; code: string | null; status: number | null }> {
  const base = process.env.ELECTRON_MIRROR ?? 'https://github.com/electron/electron/releases/download/';
  let host = 'github.com';
  try {
    host = new URL(base).host;
    const res = await fetch(new URL(`v${version}/SHASUMS256.txt`, base.endsWith('/') ? base : `${base}/`), {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    return { host, code: null, status: res.status };
  } catch (error) {
    const e = error as { name?: string; cause?: { code?: unknown } };
    const code = typeof e.cause?.code === 'string' ? e.cause.code : e.name === 'TimeoutError' ? 'ETIMEDOUT' : 'EUNKNOWN';
    return { host, code, status: null };
  }
}

const outcome = await ensureElectron({
  isInstalled: () => electronInstalled(ELECTRON_DIR),
  download: runInstaller,
  diagnose: async (output) => classifyDownloadFailure(output, await probe(), process.env),
  say: (line) => {
    console.log(line);
  },
});
if (!outcome.ok) {
  console.error(failureMessage(outcome.failure, version));
  process.exit(1);
}

// Build and open the app; signals go to electron-vite, and its exit code is ours.
const child = spawn(
  process.execPath,
  [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'preview', ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});

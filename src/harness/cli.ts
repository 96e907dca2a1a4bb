// `npm run harness -- [--port P] [--user-data DIR] [--sandbox-port P]`: the app in any browser, backed by the real core.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Core } from '../main/core.ts';
import { openLog } from '../main/log.ts';
import { openSecretStore } from '../main/secrets/keytar-store.ts';
import { Startup } from '../main/startup.ts';
import { startHarness } from './server.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'user-data': { type: 'string' }, 'sandbox-port': { type: 'string' } },
});
const rendererDir = join(root, 'out/renderer');
if (!existsSync(join(rendererDir, 'index.html'))) {
  process.stderr.write('keydesk harness: out/renderer is missing; run `npm run build` first.\n');
  process.exit(1);
}
function portFlag(flag: string, value: string): number {
  const n = Number(value);
  if (/^[0-9]+$/.test(value) && n <= 65_535) return n;
  process.stderr.write(`keydesk harness: --${flag} must be a whole number from 0 to 65535.\n`);
  process.exit(2);
}
const port = portFlag('port', values.port);
// Without it the sandbox is where the app keeps it (8787 or the next free); tests pass 0 to run side by side.
const sandboxPort = values['sandbox-port'] === undefined ? undefined : portFlag('sandbox-port', values['sandbox-port']);
const userDataDir = values['user-data'] ?? mkdtempSync(join(tmpdir(), 'keydesk-harness-'));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
openLog(userDataDir, `start: Keydesk ${version} harness on ${process.platform}, Node ${process.versions.node}`);
const secrets = await openSecretStore();
process.stderr.write(
  secrets.fallbackReason
    ? `keydesk harness: apiKeys are kept in memory for this run only. ${secrets.fallbackReason}\n`
    : 'keydesk harness: apiKeys are kept in the OS keychain.\n',
);
process.stderr.write(`keydesk harness: user data in ${userDataDir}\n`);

// A signal during start-up is remembered and honoured once there is something to stop, or at once after a start
// that failed (the page then offers a restore or a new start).
const early = { signalled: false, failed: false };
let stop = (): void => {
  early.signalled = true;
  if (early.failed) process.exit(1);
};
process.on('SIGINT', () => {
  stop();
});
process.on('SIGTERM', () => {
  stop();
});

const exportsDir = join(userDataDir, 'exports');
// The page is served while the core starts (Startup answers it meanwhile).
const startup = new Startup();
startup.on('app.startup', ({ state, failure, offer }) => {
  early.failed = state === 'failed';
  if (early.failed) process.stderr.write(`keydesk harness: Keydesk could not start: ${failure ?? ''}\n`);
  // A damaged file waits for the page's choice (restore or start again); any other failure ends the harness.
  if (early.failed && (early.signalled || offer === undefined)) process.exit(1);
});
const harness = await startHarness({ startup, rendererDir, port });
process.stdout.write(`Keydesk harness on ${harness.url}\n`);
const core = await startup.run((restore) =>
  Core.start({
    userDataDir,
    restore,
    secrets: secrets.store,
    secretsFallbackReason: secrets.fallbackReason,
    sandboxPort,
    version,
    // No native dialog in a browser: exports go to <user data>/exports, and the path is shown.
    askSavePath: (name) => {
      mkdirSync(exportsDir, { recursive: true });
      return Promise.resolve(join(exportsDir, name));
    },
  }),
);
stop = () => {
  void harness
    .close()
    .then(() => core.close())
    .then(() => process.exit(0));
};
if (early.signalled) stop();

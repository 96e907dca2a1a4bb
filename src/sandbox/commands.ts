// The sandbox's commands, serve and create-service, loaded by cli.ts once it knows node:sqlite is there.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { isIdentifier, LIMITS, slugIdentifier } from '../shared/rules.ts';
import { WireError } from './errors.ts';
import { keydeskUserDataDir, SANDBOX_DB_FILE } from './paths.ts';
import { startSandboxServer, type RunningSandbox } from './server.ts';
import { SandboxStore } from './store.ts';

class UsageError extends Error {}

function openStore(db: string | undefined): SandboxStore {
  const file = db ?? join(keydeskUserDataDir(), SANDBOX_DB_FILE);
  mkdirSync(dirname(file), { recursive: true });
  return new SandboxStore(file);
}

function wholeNumber(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) > max) throw new UsageError(`--${flag} must be a whole number from 0 to ${max}.`);
  return Number(value);
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      db: { type: 'string' },
      'hwid-reset-cooldown': { type: 'string' },
      'hwid-reset-limit': { type: 'string' },
      'rate-limit': { type: 'string' },
      // Answer like the hosted service: the Keydesk-Detail header is ignored.
      'real-only': { type: 'boolean', default: false },
      'allow-host': { type: 'string', multiple: true, default: [] },
    },
    strict: true,
  });
  const port = wholeNumber('port', values.port, 8787, 65_535);
  const hwidResetCooldownMinutes = wholeNumber('hwid-reset-cooldown', values['hwid-reset-cooldown'], 0, 525_600);
  const hwidResetLimit = wholeNumber('hwid-reset-limit', values['hwid-reset-limit'], 0, 1_000_000);
  const rateLimitPerSecond = wholeNumber('rate-limit', values['rate-limit'], 0, 1_000_000);
  const allowHosts = hostNames([...(process.env.KEYDESK_SANDBOX_ALLOW_HOSTS ?? '').split(','), ...values['allow-host']]);
  const store = openStore(values.db);
  if (store.serviceCount() === 0) {
    const { service, apiKey } = store.createService('Demo', 'demo');
    // stderr: stdout carries exactly one line, the ready line.
    process.stderr.write(
      `Created service "${service.name}" (identifier ${service.identifier}) in ${store.file}.\n` +
        `Its apiKey, shown only this once: ${apiKey}\n`,
    );
  }
  // Handlers go in before the ready line is printed: whoever reads that line may signal at once.
  let sandbox: RunningSandbox | null = null;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void (sandbox?.close(4_000) ?? Promise.resolve()).then(() => {
      store.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  sandbox = await startSandboxServer({
    store,
    host: values.host,
    port,
    limits: { hwidResetCooldownMinutes, hwidResetLimit, rateLimitPerSecond },
    realOnly: values['real-only'],
    allowHosts,
    onInternalError: (error) =>
      process.stderr.write(`Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    onNotice: (line) => process.stderr.write(`${line}\n`),
  });
  if (sandbox.exposure !== null) process.stderr.write(`${sandbox.exposure}\n`);
  process.stdout.write(`Keydesk sandbox listening on ${sandbox.url}\n`);
}

/** Host names for --allow-host, without their port (the bound one is added); blanks from the variable are dropped. */
function hostNames(given: string[]): string[] {
  const names = given.map((n) => n.trim()).filter((n) => n !== '');
  for (const name of names) {
    if (!/^([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(name)) {
      throw new UsageError(`--allow-host takes a host name without a port, such as localhost or sandbox; "${name}" is not one.`);
    }
  }
  return names;
}

function createService(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: { db: { type: 'string' }, name: { type: 'string' }, identifier: { type: 'string' } },
    strict: true,
  });
  const name = values.name?.trim();
  if (!name) throw new UsageError('--name is required.');
  if (name.length > LIMITS.serviceNameMaxChars) throw new UsageError(`--name must be at most ${LIMITS.serviceNameMaxChars} characters.`);
  const identifier = values.identifier ?? slugIdentifier(name);
  if (!isIdentifier(identifier)) {
    throw new UsageError(
      values.identifier === undefined
        ? `No identifier can be made from "${name}"; pass --identifier (1 to 64 of A-Z a-z 0-9 . _ -).`
        : '--identifier must be 1 to 64 letters, digits, dots, underscores or hyphens.',
    );
  }
  const store = openStore(values.db);
  try {
    const { service, apiKey } = store.createService(name, identifier);
    process.stdout.write(JSON.stringify({ name: service.name, identifier: service.identifier, apiKey }) + '\n');
  } finally {
    store.close();
  }
}

/** Runs a command; -1 for serve (it runs until a signal), else the exit code. `usage` is shown with a usage error. */
export async function main(argv: string[], usage: string): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'serve') {
      await serve(rest);
      return -1;
    }
    if (command === 'create-service') {
      createService(rest);
      return 0;
    }
    throw new UsageError(command === undefined ? 'A command is required.' : `Unknown command "${command}".`);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`${error.message}\n${usage}\n`);
      return 2;
    }
    if (error instanceof WireError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const e = error as NodeJS.ErrnoException;
    process.stderr.write(`keydesk sandbox: ${e.code === 'EADDRINUSE' ? 'that port is in use' : e.message}\n`);
    return 1;
  }
}

// The harness page's bridge script, bundled when the harness starts (bundle-bridge.ts, in a child process).
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export { BRIDGE_PATH, EVENTS_PATH, RPC_PREFIX, TOKEN_HEADER, TOKEN_META } from './loopback-bridge.ts';

export function buildBridgeScript(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'bundle-bridge.ts')],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`Bundling the harness bridge script failed: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
}

// What the sandbox CLI says before it loads anything: its usage, its version and the Node it needs. Free of
// node:sqlite, so an old Node gets one line rather than a stack.

/** keydesk-sandbox's version: packages/sandbox/package.json's (test/package checks they agree). */
export const SANDBOX_VERSION = '0.1.0';

export const USAGE = `Usage (installed: keydesk-sandbox; from a clone of Keydesk: npm run sandbox --):
  keydesk-sandbox serve [--host 127.0.0.1] [--port 8787] [--db FILE] [--allow-host NAME]... [--hwid-reset-cooldown MINUTES] [--hwid-reset-limit N] [--rate-limit PER_SECOND] [--real-only]
  keydesk-sandbox create-service [--db FILE] --name NAME [--identifier ID]
  keydesk-sandbox --help | --version

--allow-host NAME (repeatable, or KEYDESK_SANDBOX_ALLOW_HOSTS=a,b) also answers Host NAME:PORT, e.g. localhost in a container.
--hwid-reset-limit N allows at most N HWID resets of one key in any 30 days.
GET /health answers {"status":"ok"}; GET /openapi.json is the API's OpenAPI 3.1 document.`;

/** The oldest Node whose node:sqlite the sandbox runs on, as packages/sandbox/package.json's engines says. */
export const MIN_NODE = [22, 19, 0] as const;

/** One line naming the Node needed, or null when `version` (process.versions.node) is new enough. */
export function nodeProblem(version: string): string | null {
  const have = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (const [i, need] of MIN_NODE.entries()) {
    const part = have[i] ?? 0;
    if (part > need) return null;
    if (part < need) {
      return `keydesk-sandbox needs Node.js ${MIN_NODE.join('.')} or newer (for node:sqlite); this is Node.js ${version}.`;
    }
  }
  return null;
}

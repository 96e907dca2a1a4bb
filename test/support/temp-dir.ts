// Temporary directories for tests, each removed when it is no longer needed, whether the test passed or failed:
// one made inside a test (or its beforeEach) when that test ends, after its afterEach hooks; one made outside a
// test (at a file's top level, in beforeAll) when the file's tests are done, after its own afterAll hooks. Whatever
// a test's child processes wrote in it (a killed harness's or sandbox's files) goes with it. A core or a harness
// holding up to a few hundred MB each, leaked ones filled the disk.
// Test files only: it registers vitest hooks (bench scripts use sandbox-process.ts's plain tempDir).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** Directories made outside any test, removed once the file's tests are done. */
const fileDirs = new Set<string>();

// Registered as this module is first imported, while the test file is collected: its afterAll, which runs after
// the file's own (hooks after a run go in reverse order), so a harness stopped there has exited first.
afterAll(() => {
  for (const dir of fileDirs) remove(dir);
  fileDirs.clear();
});

function remove(dir: string): void {
  // maxRetries: a child that was just killed may still be closing its files.
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A new directory under the OS temp dir, named `prefix` and a random suffix, removed when its test or file ends. */
export function tempDir(prefix = 'keydesk-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => {
      remove(dir);
    });
  } catch (error) {
    // Not inside a test (vitest says so by throwing): the file's end removes it.
    if (!(error instanceof Error && error.message.includes('inside a test'))) throw error;
    fileDirs.add(dir);
  }
  return dir;
}

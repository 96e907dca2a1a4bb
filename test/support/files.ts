import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below a directory, recursively. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

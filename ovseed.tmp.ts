import { seed } from './bench/cases/overview.ts';
import { LocalDb } from './src/main/store/local-db.ts';
import { existsSync } from 'node:fs';
const path = '/tmp/ov1m/overview.db';
if (!existsSync(path)) seed(path);
const db = new LocalDb(path, { readOnly: true });
for (let round = 0; round < 3; round++) {
  const f: number[] = [], a: number[] = [];
  for (let i = 0; i < 20; i++) {
    let t = performance.now(); db.overviewFigures('bench'); f.push(performance.now() - t);
    t = performance.now(); db.keyActivity('bench', 30); a.push(performance.now() - t);
  }
  f.sort((x, y) => x - y); a.sort((x, y) => x - y);
  console.log('figures min/med/p95', f[0]!.toFixed(1), f[10]!.toFixed(1), f[18]!.toFixed(1), 'activity', a[0]!.toFixed(1), a[10]!.toFixed(1), a[18]!.toFixed(1));
}

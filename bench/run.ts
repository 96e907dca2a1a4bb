// `npm run bench [-- --only throughput,generate,search]`: Keydesk's performance figures, each a ratio to a
// baseline measured in the same run on loopback, so a noisy machine moves both sides together.
// Bounded: every load phase runs for a fixed time against 127.0.0.1 and stops by itself. One file per case in cases/.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchBulk } from './cases/bulk.ts';
import { benchCancel } from './cases/cancel.ts';
import { benchCore } from './cases/core.ts';
import { benchCustomers } from './cases/customers.ts';
import { benchGenerateCore } from './cases/generate-core.ts';
import { benchGenerate } from './cases/generate.ts';
import { benchHistory } from './cases/history.ts';
import { benchImport } from './cases/import.ts';
import { benchLedgerHwid } from './cases/ledger-hwid.ts';
import { benchLedgerScale } from './cases/ledger-scale.ts';
import { benchLedger } from './cases/ledger.ts';
import { benchMillion } from './cases/million.ts';
import { benchOverview } from './cases/overview.ts';
import { benchRateLimit } from './cases/ratelimit.ts';
import { benchRemoteBulk } from './cases/remote-bulk.ts';
import { benchRenderer } from './cases/renderer.ts';
import { benchRenewals } from './cases/renewals.ts';
import { benchRss } from './cases/rss.ts';
import { benchSearch } from './cases/search.ts';
import { benchStall } from './cases/stall.ts';
import { benchThroughput } from './cases/throughput.ts';
import { benchWal } from './cases/wal.ts';
import type { BenchOptions } from './lib/options.ts';
import { printTable } from './lib/table.ts';

/** Every case by its `--only` name, in the order a run takes them (the table's order). */
const CASES: Record<string, (o: BenchOptions) => void | Promise<void>> = {
  throughput: benchThroughput,
  generate: benchGenerate,
  wal: benchWal,
  search: benchSearch,
  customers: benchCustomers,
  core: benchCore,
  ledger: benchLedger,
  history: benchHistory,
  overview: benchOverview,
  'ledger-hwid': benchLedgerHwid,
  'ledger-scale': benchLedgerScale,
  renewals: benchRenewals,
  bulk: benchBulk,
  cancel: benchCancel,
  ratelimit: benchRateLimit,
  remote: benchRemoteBulk,
  import: benchImport,
  'generate-core': benchGenerateCore,
  million: benchMillion,
  rss: benchRss,
  stall: benchStall,
  renderer: benchRenderer,
};

const { values: args } = parseArgs({
  options: {
    // Subsets by name, e.g. `--only bulk,ratelimit` (the whole run takes several minutes).
    only: { type: 'string' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'search-keys': { type: 'string', default: '1000000' },
    // The rss figure against another checkout of Keydesk (a git worktree of the code before a change, built), its
    // rounds alternating with this tree's in one run: `--only rss --rss-against ../before --rss-rounds 4`.
    'rss-against': { type: 'string' },
    'rss-rounds': { type: 'string' },
  },
});
const only = args.only?.split(',') ?? Object.keys(CASES);
const unknown = only.filter((name) => !(name in CASES));
if (unknown.length > 0) {
  console.error(`bench: no case named ${unknown.join(', ')}; the cases are ${Object.keys(CASES).join(', ')}.`);
  process.exit(2);
}
const rssAgainst = args['rss-against'] === undefined ? null : resolve(args['rss-against']);
const options: BenchOptions = {
  seconds: Number(args.seconds),
  connections: Number(args.connections),
  searchKeys: Number(args['search-keys']),
  rssAgainst,
  rssRounds: Number(args['rss-rounds'] ?? (rssAgainst === null ? 1 : 4)),
};

for (const [name, run] of Object.entries(CASES)) if (only.includes(name)) await run(options);
process.exit(printTable() ? 0 : 1);

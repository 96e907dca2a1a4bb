// The app's own records in node:sqlite (userData/keydesk.db), behind one façade: the ledger of keys this app
// generated or has seen, bulk jobs, execution samples and the audit log. No secrets. Each room is its own file.
import { AuditLog } from './audit.ts';
import { Connection } from './connection.ts';
import { Customers } from './customers.ts';
import { JobsStore } from './jobs-store.ts';
import { LedgerAnchors } from './ledger-anchors.ts';
import { LedgerFilters, PAGING, type LedgerPaging } from './ledger-filter.ts';
import { LedgerQueries } from './ledger-query.ts';
import { LedgerWarming } from './ledger-warming.ts';
import { LedgerWrites } from './ledger-writes.ts';
import { Overview } from './overview.ts';
import { Renewals } from './renewals.ts';
import { Samples } from './samples.ts';
import { ServiceFacts } from './service-facts.ts';

export { inTransaction } from './connection.ts';
export { LOCAL_DB_VERSION } from './schema.ts';
export { SAMPLE_RETENTION, type SampleWindow } from './samples.ts';
export type { AuditFilter } from './audit.ts';
export type { CustomerQuery } from './customers.ts';
export type { NewHwidEvent } from './service-facts.ts';
export type { LedgerCursor, LedgerFilter, LedgerPaging } from './ledger-filter.ts';
export type { LedgerPage } from './ledger-query.ts';
export type { StaleMark } from './ledger-writes.ts';
export type { ClaimedJobItem, ItemSettlement, RunEndRecord, SendLogRecord, SettleBatch, StoredJob } from './jobs-store.ts';

export class LocalDb {
  /** The file this connection opened (':memory:' for none): a job's send log lives beside it (send-log.ts). */
  readonly file: string;
  private readonly conn: Connection;
  private readonly filters: LedgerFilters;
  private readonly anchors: LedgerAnchors;
  private readonly query: LedgerQueries;
  private readonly warming: LedgerWarming;
  private readonly writes: LedgerWrites;
  private readonly jobStore: JobsStore;
  private readonly samples: Samples;
  private readonly auditLog: AuditLog;
  private readonly overview: Overview;
  private readonly renewals: Renewals;
  private readonly book: Customers;
  private readonly facts: ServiceFacts;

  /**
   * `cacheKiB`: the connection's page cache (default 32 MiB: a 100,000-key ledger's pages stay in memory between
   * keystrokes); the writer thread's connection takes less. `paging`: how deep pages are found (see LedgerPaging).
   * `background`: after the ledger is read, the anchors of every sort of that profile are found ahead of need, in
   * short slices on this thread's event loop (the ledger reader's connection; see prepareLedger). `readOnly`: main's
   * and the readers', on a file made already (':memory:' cannot be). `busyMs`: how long a statement waits for another
   * program's lock. `deferText`: new rows' text entries wait for indexText (the writer thread's idle time); without
   * it, they go in with the rows.
   */
  constructor(
    file: string,
    options: {
      cacheKiB?: number;
      paging?: Partial<LedgerPaging>;
      background?: boolean;
      readOnly?: boolean;
      busyMs?: number;
      deferText?: boolean;
    } = {},
  ) {
    this.file = file;
    const paging = { ...PAGING, ...options.paging };
    this.conn = new Connection(file, options.cacheKiB ?? 32_768, options.readOnly === true, options.busyMs);
    this.filters = new LedgerFilters(this.conn, paging, () => {
      this.anchors.logMoved();
    });
    this.anchors = new LedgerAnchors(this.conn, this.filters, paging);
    this.query = new LedgerQueries(this.conn, this.filters, this.anchors);
    this.warming = new LedgerWarming(options.background === true, {
      isOpen: () => this.conn.db.isOpen,
      logHead: () => (this.conn.statement('SELECT max(seq) AS head FROM ledger_log').get() as { head: number | null }).head ?? 0,
      prepare: (profileId, budgetMs) => this.prepareLedger(profileId, budgetMs),
      release: () => {
        this.releaseMemory();
      },
    });
    this.writes = new LedgerWrites(
      this.conn,
      () => {
        this.filters.ledgerCaches(true);
      },
      options.deferText === true,
    );
    this.jobStore = new JobsStore(this.conn, this.filters, this.writes);
    this.samples = new Samples(this.conn.db);
    this.auditLog = new AuditLog(this.conn.db, (jobId) => this.jobStore.jobCounts(jobId));
    this.overview = new Overview(this.conn.db);
    this.renewals = new Renewals(this.conn.db);
    this.book = new Customers(this.conn.db);
    this.facts = new ServiceFacts(this.conn.db);
  }

  close(): void {
    this.warming.stop();
    this.conn.close();
  }

  /**
   * Runs `fn` in one read transaction on a connection of its own: an export streamed across awaits on main's
   * connection would pin main's snapshot and hide later commits from main's other reads.
   */
  async withReader<T>(fn: (db: LocalDb) => Promise<T>): Promise<T> {
    if (this.file === ':memory:') return fn(this);
    const db = new LocalDb(this.file, { cacheKiB: 2_048, readOnly: true });
    try {
      db.conn.db.exec('BEGIN');
      return await fn(db);
    } finally {
      db.close();
    }
  }

  /** Runs `fn` in one write transaction: every write in it lands, or none. */
  readonly transaction: Connection['tx'] = (fn) => this.conn.tx(fn);

  readonly releaseMemory: Connection['releaseMemory'] = () => {
    this.conn.releaseMemory();
  };

  // The ledger: writes (ledger-writes.ts), queries (ledger-query.ts), deep pages (ledger-anchors.ts); a page read
  // has the anchors found ahead of need with `background` (ledger-warming.ts).
  readonly recordKeys: LedgerWrites['recordKeys'] = (...a) => {
    this.writes.recordKeys(...a);
  };
  readonly recordShared: LedgerWrites['recordShared'] = (...a) => this.writes.recordShared(...a);
  readonly indexText: LedgerWrites['indexText'] = (...a) => this.writes.indexText(...a);
  readonly droppedIndexes: LedgerWrites['droppedIndexes'] = () => this.writes.droppedIndexes();
  readonly dropIndexes: LedgerWrites['dropIndexes'] = (...a) => this.writes.dropIndexes(...a);
  readonly buildIndex: LedgerWrites['buildIndex'] = () => this.writes.buildIndex();
  readonly checkpointDue = (): boolean => this.writes.checkpointDue;
  readonly checkpoint: LedgerWrites['checkpoint'] = () => {
    this.writes.checkpoint();
  };
  readonly unindexed: LedgerFilters['unindexed'] = () => this.filters.unindexed();
  readonly recordReportedFields: LedgerWrites['recordReportedFields'] = (...a) => {
    this.writes.recordReportedFields(...a);
  };
  readonly markStale: LedgerWrites['markStale'] = (...a) => {
    this.writes.markStale(...a);
  };
  readonly markHwidCleared: LedgerWrites['markHwidCleared'] = (...a) => {
    this.writes.markHwidCleared(...a);
  };
  readonly markDeleted: LedgerWrites['markDeleted'] = (...a) => {
    this.writes.markDeleted(...a);
  };
  readonly ledgerSize: LedgerFilters['ledgerSize'] = (...a) => this.filters.ledgerSize(...a);
  readonly queryLedger: LedgerQueries['queryLedger'] = (...a) => {
    const page = this.query.queryLedger(...a);
    this.warming.soon(a[0]);
    return page;
  };
  readonly seekLedger: LedgerQueries['seekLedger'] = (...a) => {
    const rows = this.query.seekLedger(...a);
    this.warming.soon(a[0]);
    return rows;
  };
  readonly ledgerValues: LedgerQueries['ledgerValues'] = (...a) => this.query.ledgerValues(...a);
  readonly iterateLedgerKeys: LedgerQueries['iterateLedgerKeys'] = (...a) => this.query.iterateLedgerKeys(...a);
  readonly iterateLedger: LedgerQueries['iterateLedger'] = (...a) => this.query.iterateLedger(...a);
  readonly prepareLedger: LedgerAnchors['prepareLedger'] = (...a) => this.anchors.prepareLedger(...a);
  /** The ledger writer committed: with `background`, the anchors follow its changes soon (ledger-warming.ts). */
  readonly ledgerWritten = (): void => {
    this.warming.written();
  };

  // Jobs (jobs-store.ts).
  readonly createJob: JobsStore['createJob'] = (...a) => this.jobStore.createJob(...a);
  readonly job: JobsStore['job'] = (...a) => this.jobStore.job(...a);
  readonly jobs: JobsStore['jobs'] = (...a) => this.jobStore.jobs(...a);
  readonly forgetJob: JobsStore['forgetJob'] = (...a) => this.jobStore.forgetJob(...a);
  readonly jobTotal: JobsStore['jobTotal'] = (...a) => this.jobStore.jobTotal(...a);
  readonly setJobState: JobsStore['setJobState'] = (...a) => {
    this.jobStore.setJobState(...a);
  };
  readonly beginJobRun: JobsStore['beginJobRun'] = (...a) => {
    this.jobStore.beginJobRun(...a);
  };
  readonly jobCounts: JobsStore['jobCounts'] = (...a) => this.jobStore.jobCounts(...a);
  readonly claimJobItems: JobsStore['claimJobItems'] = (...a) => this.jobStore.claimJobItems(...a);
  readonly jobStep: JobsStore['jobStep'] = (...a) => this.jobStore.jobStep(...a);
  readonly settleJobItems: JobsStore['settleJobItems'] = (...a) => {
    this.jobStore.settleJobItems(...a);
  };
  readonly approveUnknownJobItems: JobsStore['approveUnknownJobItems'] = (...a) => this.jobStore.approveUnknownJobItems(...a);
  readonly endJobRun: JobsStore['endJobRun'] = (...a) => {
    this.jobStore.endJobRun(...a);
  };
  readonly interruptRunningJobs: JobsStore['interruptRunningJobs'] = (...a) => this.jobStore.interruptRunningJobs(...a);
  readonly settleLeftoverClaims: JobsStore['settleLeftoverClaims'] = (...a) => {
    this.jobStore.settleLeftoverClaims(...a);
  };
  readonly jobItems: JobsStore['jobItems'] = (...a) => this.jobStore.jobItems(...a);
  readonly iterateJobItems: JobsStore['iterateJobItems'] = (...a) => this.jobStore.iterateJobItems(...a);
  readonly iterateJobResults: JobsStore['iterateJobResults'] = (...a) => this.jobStore.iterateJobResults(...a);
  readonly jobKeyCount: JobsStore['jobKeyCount'] = (...a) => this.jobStore.jobKeyCount(...a);
  readonly iterateJobKeys: JobsStore['iterateJobKeys'] = (...a) => this.jobStore.iterateJobKeys(...a);
  readonly bulkCeiling: JobsStore['bulkCeiling'] = (...a) => this.jobStore.bulkCeiling(...a);
  readonly setBulkCeiling: JobsStore['setBulkCeiling'] = (...a) => {
    this.jobStore.setBulkCeiling(...a);
  };

  // Renewals (renewals.ts).
  readonly expiryWeeks: Renewals['expiryWeeks'] = (...a) => this.conn.read(() => this.renewals.expiryWeeks(...a));
  readonly renewalTemplate: Renewals['renewalTemplate'] = (...a) => this.renewals.renewalTemplate(...a);
  readonly setRenewalTemplate: Renewals['setRenewalTemplate'] = (...a) => {
    this.renewals.setRenewalTemplate(...a);
  };

  // Execution samples (samples.ts).
  readonly recordSample: Samples['recordSample'] = (...a) => {
    this.samples.recordSample(...a);
  };
  readonly latestSample: Samples['latestSample'] = (...a) => this.samples.latestSample(...a);
  readonly history: Samples['history'] = (...a) => this.samples.history(...a);
  readonly sampleThinningWindows: Samples['sampleThinningWindows'] = (...a) => this.samples.sampleThinningWindows(...a);
  readonly thinSampleWindow: Samples['thinSampleWindow'] = (...a) => this.samples.thinSampleWindow(...a);
  readonly thinSamples: Samples['thinSamples'] = (...a) => this.samples.thinSamples(...a);

  // The audit log (audit.ts).
  readonly audit: AuditLog['audit'] = (...a) => this.auditLog.audit(...a);
  readonly settleAudit: AuditLog['settleAudit'] = (...a) => {
    this.auditLog.settleAudit(...a);
  };
  readonly listAudit: AuditLog['listAudit'] = (...a) => this.auditLog.listAudit(...a);
  readonly iterateAudit: AuditLog['iterateAudit'] = (...a) => this.auditLog.iterateAudit(...a);

  // Overview (overview.ts): figures from the ledger, keys per day, Keydesk's runs, first-run steps.
  readonly overviewFigures: Overview['overviewFigures'] = (...a) => this.overview.overviewFigures(...a);
  readonly keyActivity: Overview['keyActivity'] = (...a) => this.overview.keyActivity(...a);
  readonly runAlive: Overview['runAlive'] = (...a) => {
    this.overview.runAlive(...a);
  };
  readonly closedSpans: Overview['closedSpans'] = (...a) => this.overview.closedSpans(...a);
  readonly firstRunSteps: Overview['firstRunSteps'] = (...a) => this.overview.firstRunSteps(...a);
  readonly markFirstRunStep: Overview['markFirstRunStep'] = (...a) => {
    this.overview.markFirstRunStep(...a);
  };

  // The vendor's book (customers.ts): changed on the writer's thread, read anywhere.
  readonly changeCustomers: Customers['change'] = (...a) => this.book.change(...a);
  readonly customer: Customers['customer'] = (...a) => this.book.customer(...a);
  readonly findCustomerByContact: Customers['findByContact'] = (...a) => this.book.findByContact(...a);
  readonly listCustomers: Customers['listCustomers'] = (...a) => this.book.listCustomers(...a);
  readonly matchingCustomerIds: Customers['matchingIds'] = (...a) => this.book.matchingIds(...a);
  readonly iterateCustomers: Customers['iterateCustomers'] = (...a) => this.book.iterateCustomers(...a);
  readonly customerKeys: Customers['customerKeys'] = (...a) => this.book.customerKeys(...a);
  readonly customersOfKeys: Customers['customersOfKeys'] = (...a) => this.book.customersOfKeys(...a);
  readonly unlinkedNotes: Customers['unlinkedNotes'] = (...a) => this.book.unlinkedNotes(...a);
  readonly noteTemplate: Customers['noteTemplate'] = (...a) => this.book.noteTemplate(...a);
  readonly customerCount: Customers['customerCount'] = (...a) => this.book.customerCount(...a);

  // What each service can do, and each key's HWID history (service-facts.ts).
  readonly capabilities: ServiceFacts['capabilities'] = (...a) => this.facts.capabilities(...a);
  readonly setCapabilities: ServiceFacts['setCapabilities'] = (...a) => {
    this.facts.setCapabilities(...a);
  };
  readonly recordHwidEvents: ServiceFacts['recordHwidEvents'] = (...a) => {
    this.facts.recordHwidEvents(...a);
  };
  readonly hwidHistory: ServiceFacts['hwidHistory'] = (...a) => this.facts.hwidHistory(...a);
}

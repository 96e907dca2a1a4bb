// The ledger slice: the All keys table's pages, filter, sort, selection and bulk jobs. Pages are fetched on
// demand and cached until the filter or sort changes, so 100,000 rows never sit in memory at once.
import type { JobAction, JobItem, JobSummary, LedgerRow, LedgerSortField } from '../../../shared/domain.ts';
import { call, subscribe } from '../lib/api.ts';
import { isLive, jobTitle, settledOf, withPace, type PaceBase } from '../lib/jobs.ts';
import type { LedgerFilter, LedgerSlice, StoreContext } from './types.ts';

export const LEDGER_PAGE = 200;
/** All keys' order until the person picks another, for a profile with no kept place. */
export const DEFAULT_LEDGER_SORT: LedgerSlice['ledgerSort'] = { field: 'createdAt', dir: 'desc' };

/** A row's place in the current sort, for seeking the page next to it. */
const cursorOf = (row: LedgerRow, field: LedgerSortField) => ({ key: row[field], value: row.value });

/** Jobs the user put away (Dismiss): a reload does not bring them back. The last few ids, per window's storage. */
const DISMISSED_KEY = 'keydesk.dismissedJobs';
function dismissed(): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
function remember(jobId: string): void {
  try {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify([jobId, ...dismissed().filter((id) => id !== jobId)].slice(0, 50)));
  } catch {
    // Storage refused: the job only comes back after a reload.
  }
}

const plural = (n: number, one: string): string => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;

export function createLedgerSlice(ctx: StoreContext): LedgerSlice {
  const { set, get } = ctx;
  const inFlight = new Set<string>();
  /** An export's answer in a toast; the path written, or null (refused, or the person chose no path). */
  const saved = (r: Awaited<ReturnType<typeof call<'jobs.export'>>>): string | null => {
    if (!r.ok) {
      get().notifyFailure('jobs.export', r);
      return null;
    }
    if (r.data.path) get().notify('success', `Saved to ${r.data.path}.`);
    return r.data.path;
  };
  /** A job this window knows of (a panel's, or one in the Jobs list), as last described. */
  const known = (jobId: string): JobSummary | null => {
    const { job, bulkJob, generateJob, jobList } = get();
    // The newest word on it: a panel and the list may each hold a summary of the same job.
    return [job, bulkJob, generateJob, ...jobList].reduce<JobSummary | null>(
      (best, j) => (j?.id === jobId && (best === null || j.version > best.version) ? j : best),
      null,
    );
  };
  /** The keys of bulk jobs this window started from a selection, until each ends. */
  const bulkTargets = new Map<string, { action: Exclude<JobAction, 'generate'>; values: ReadonlySet<string> }>();
  /** Bulk jobs whose keys this window does not know: the filter of one started here, or null (a job resumed here). */
  const filterTargets = new Map<string, { action: Exclude<JobAction, 'generate'>; filter: LedgerFilter | null }>();
  let unsubscribe: (() => void) | null = null;
  let unsubscribeLedger: (() => void) | null = null;
  /** Main's ledger writer changed for a profile: the active one's count is shown, and its end refreshes the table. */
  const onLedgerChanged = (e: { profileId: string; recording: number; failure: string | null }) => {
    const { activeProfileId, ledgerRecording, ledgerRecordingFailed } = get();
    if (e.profileId !== activeProfileId) return;
    set({ ledgerRecording: e.recording, ledgerRecordingFailed: e.failure });
    if (e.failure !== null && e.failure !== ledgerRecordingFailed) get().notify('error', e.failure);
    if (ledgerRecording > 0 && e.recording === 0) reset({});
  };
  const loadProblems = async (job: JobSummary) => {
    let error: string | null = null;
    const page = async (state: 'failed' | 'unknown') => {
      if (job.counts[state] === 0) return [];
      const r = await call('jobs.items', { jobId: job.id, state, offset: 0, limit: 100 });
      if (r.ok) return r.data.items;
      // Never an empty list under "5 unknown": say the items could not be read.
      error ??= `The job's ${state} items could not be read: ${r.message}`;
      return [];
    };
    const [failed, unknown] = [await page('failed'), await page('unknown')];
    // An extend done without the key read back leaves its row with the expiry seen before: say which keys.
    let stale: { items: JobItem[]; total: number } | undefined;
    if (job.action === 'extend' && job.counts.done > 0) {
      const r = await call('jobs.items', { jobId: job.id, state: 'done', noted: true, offset: 0, limit: 100 });
      if (r.ok) stale = r.data.total > 0 ? r.data : undefined;
      else error ??= `The job's done items could not be read: ${r.message}`;
    }
    if (get().bulkJob?.id === job.id) set({ jobProblems: { failed, unknown, error, ...(stale ? { stale } : {}) } });
  };
  /** Per job, where this window first saw it running; its own rate runs from there (see withPace). */
  const paceBases = new Map<string, PaceBase>();
  const paced = (p: JobSummary): JobSummary => {
    if (p.state !== 'running') {
      paceBases.delete(p.id);
      return p;
    }
    const now = Date.now();
    const base = paceBases.get(p.id);
    if (!base) {
      paceBases.set(p.id, { id: p.id, at: now, settled: settledOf(p) });
      return p;
    }
    return withPace(p, base, now);
  };
  /**
   * A job's progress from main: shown only for the active profile. A job has ended when main records its end
   * (finishedAt): a cancel's own summary comes while answers are still on the wire. The end refreshes the table.
   */
  const onProgress = (summary: JobSummary) => {
    const p = paced(summary);
    // Words about the job as it was ("already running") no longer hold once it has ended.
    if (p.finishedAt !== null) get().dismissAboutJob(p.id);
    const { job, activeProfileId, jobElsewhere } = get();
    if (p.profileId !== activeProfileId) {
      // Not shown as this profile's job, but never invisible while it runs.
      if (p.finishedAt === null) set({ jobElsewhere: p });
      else if (jobElsewhere?.id === p.id) set({ jobElsewhere: null });
      return;
    }
    if (jobElsewhere?.id === p.id) set({ jobElsewhere: null });
    const generating = get().generateJob;
    if (p.action === 'generate' && (generating?.id !== p.id || p.version > generating.version)) set({ generateJob: p });
    // All keys' own job: the problems listed under it belong to it, and go only when another bulk job takes its place.
    const bulk = get().bulkJob;
    if (p.action !== 'generate' && (bulk?.id !== p.id || p.version > bulk.version))
      set({ bulkJob: p, ...(bulk?.id === p.id ? {} : { jobProblems: null }) });
    if (job !== null && job.id !== p.id && isLive(job)) return;
    // Answers and events race: an older summary of the job shown never replaces a newer one.
    if (job?.id === p.id && p.version <= job.version) return;
    const ended = p.finishedAt !== null && !(job?.id === p.id && job.finishedAt !== null);
    set({ job: p });
    if (ended) {
      const targets = bulkTargets.get(p.id);
      if (targets) {
        bulkTargets.delete(p.id);
        get().noteKeysInBulk(targets.values, targets.action);
      }
      // Kept past the end (a filter is small): a resume of the job acts on the same filter again.
      const over = filterTargets.get(p.id);
      if (over) get().noteFilterInBulk(over.filter, over.action);
      reset({});
      if (p.action !== 'generate') void loadProblems(p);
      const { done, failed, unknown, pending, sent } = p.counts;
      const parts = [`${done.toLocaleString()} of ${p.total.toLocaleString()} done`];
      if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
      if (unknown > 0) parts.push(`${plural(unknown, 'outcome')} unknown`);
      if (sent > 0) parts.push(`${sent.toLocaleString()} sent, no answer recorded`);
      if (pending > 0) parts.push(`${pending.toLocaleString()} not sent (${p.state})`);
      // Named, so a toast is not taken for another job's; a cancel the person asked for, with nothing failed or
      // in doubt, is not an error.
      const clean = failed === 0 && unknown === 0 && sent === 0 && (done === p.total || p.state === 'cancelled');
      get().notifyJobEnd(clean ? 'success' : 'error', `${jobTitle(p)}: ${parts.join(', ')}.`, p.id);
    }
  };
  /** Main's word on a job, from an event or an action's answer: every place that shows jobs hears it. */
  const heard = (summary: JobSummary) => {
    onProgress(summary);
    get().noteJobProgress(summary);
  };
  /**
   * The filter as main gets it: a term's surrounding spaces (a key pasted from mail or a spreadsheet) are not part
   * of the term, as they are not part of any key. The box keeps what was typed, so spaces between words survive.
   */
  const sent = (f: LedgerFilter): LedgerFilter => (f.text === undefined ? f : { ...f, text: f.text.trim() });
  /** Starts a new generation of pages; the rows shown so far stay as stale unless the patch says otherwise. */
  const reset = (patch: Pick<Partial<LedgerSlice>, 'ledgerFilter' | 'ledgerSort' | 'selection' | 'ledgerStale'>) => {
    inFlight.clear();
    set((s) => ({
      ledgerStale:
        s.ledgerTotal === null
          ? s.ledgerStale
          : { total: s.ledgerTotal, pages: s.ledgerPages, filter: s.ledgerFilter, sort: s.ledgerSort, at: s.ledgerReadAt },
      ledgerReadAt: null,
      ledgerTotal: null,
      ledgerTotalCapped: false,
      ledgerTargets: null,
      ledgerCounting: false,
      ledgerPages: new Map(),
      ledgerGeneration: s.ledgerGeneration + 1,
      ledgerError: null,
      ...patch,
    }));
  };
  return {
    ledgerFilter: {},
    ledgerSort: DEFAULT_LEDGER_SORT,
    ledgerTotal: null,
    ledgerTotalCapped: false,
    ledgerTargets: null,
    ledgerCounting: false,
    ledgerPages: new Map(),
    ledgerStale: null,
    ledgerReadAt: null,
    ledgerGeneration: 0,
    ledgerError: null,
    ledgerRecording: 0,
    ledgerRecordingFailed: null,
    selection: new Set(),
    selectedAll: null,
    job: null,
    generateJob: null,
    bulkJob: null,
    jobStarting: null,
    jobCancelling: null,
    jobElsewhere: null,
    jobProblems: null,
    setLedgerFilter: (ledgerFilter) => {
      // "All matching" meant the old filter; it does not carry over to a new one.
      set({ selectedAll: null });
      reset({ ledgerFilter });
    },
    clearLedger: () => {
      // Another profile: its jobs are not this one's, and neither is what was selected. The filter and sort are
      // that profile's own: activate() sets them (the defaults, or its kept place through lib/place.ts) with the
      // profile itself, so they are not touched here.
      set({
        selectedAll: null,
        job: null,
        generateJob: null,
        bulkJob: null,
        jobCancelling: null,
        jobProblems: null,
        ledgerRecording: 0,
        ledgerRecordingFailed: null,
      });
      reset({ selection: new Set(), ledgerStale: null });
    },
    setLedgerSort: (field) => {
      const { ledgerSort } = get();
      reset({ ledgerSort: { field, dir: ledgerSort.field === field && ledgerSort.dir === 'asc' ? 'desc' : 'asc' } });
    },
    loadLedgerPage: async (page) => {
      const { ledgerFilter, ledgerSort, ledgerGeneration, ledgerPages } = get();
      const key = `${ledgerGeneration}:${page}`;
      if (ledgerPages.has(page) || inFlight.has(key)) return;
      inFlight.add(key);
      // Next to a page already loaded, seek from its edge row (cheap at any depth); a jump asks by offset.
      const prev = ledgerPages.get(page - 1);
      const next = ledgerPages.get(page + 1);
      const edge = prev?.length === LEDGER_PAGE ? prev.at(-1) : next?.[0];
      const cursor =
        edge && (edge === prev?.at(-1) ? { after: cursorOf(edge, ledgerSort.field) } : { before: cursorOf(edge, ledgerSort.field) });
      const r = await call('ledger.query', {
        filter: sent(ledgerFilter),
        sort: ledgerSort,
        offset: page * LEDGER_PAGE,
        limit: LEDGER_PAGE,
        ...(cursor ? { cursor } : {}),
      });
      inFlight.delete(key);
      if (get().ledgerGeneration !== ledgerGeneration) return;
      if (!r.ok) {
        // The rows shown before stay, marked stale by the view, beside the reason this filter was refused.
        set({ ledgerError: r.message });
        return;
      }
      set((s) => {
        let total = r.data.total ?? s.ledgerTotal;
        let capped = r.data.total === null ? s.ledgerTotalCapped : r.data.totalCapped;
        // Past a capped count, a short page is the end of the matches: the count is exact from here.
        const end = page * LEDGER_PAGE + r.data.rows.length;
        if (
          capped &&
          total !== null &&
          r.data.rows.length < LEDGER_PAGE &&
          (r.data.rows.length > 0 || s.ledgerPages.get(page - 1)?.length === LEDGER_PAGE) &&
          end > total
        ) {
          total = end;
          capped = false;
        }
        return {
          ledgerTotal: total,
          ledgerTotalCapped: capped,
          ledgerPages: new Map(s.ledgerPages).set(page, r.data.rows),
          ledgerStale: null,
          ledgerError: null,
          ledgerReadAt: s.ledgerReadAt ?? new Date().toISOString(),
          ...(r.data.targets === undefined ? {} : { ledgerTargets: { count: r.data.targets, capped: r.data.targetsCapped ?? false } }),
          ledgerRecording: r.data.recording ?? 0,
          ledgerRecordingFailed: r.data.recordingFailed ?? null,
        };
      });
    },
    countLedgerExactly: async () => {
      const { ledgerFilter, ledgerSort, ledgerGeneration, ledgerTotalCapped, ledgerCounting } = get();
      if (!ledgerTotalCapped || ledgerCounting) return;
      set({ ledgerCounting: true });
      const r = await call('ledger.query', { filter: sent(ledgerFilter), sort: ledgerSort, offset: 0, limit: 1, exactCount: true });
      if (get().ledgerGeneration !== ledgerGeneration) return;
      if (!r.ok) {
        set({ ledgerCounting: false });
        get().notifyFailure('ledger.query', r);
        return;
      }
      set({
        ledgerCounting: false,
        ledgerTotal: r.data.total,
        ledgerTotalCapped: r.data.totalCapped,
        ...(r.data.targets === undefined ? {} : { ledgerTargets: { count: r.data.targets, capped: r.data.targetsCapped ?? false } }),
      });
    },
    toggleSelected: (value) => {
      set((s) => {
        // Picking one row leaves "all matching" for a selection of rows.
        const next = new Set(s.selectedAll ? [] : s.selection);
        if (!next.delete(value)) next.add(value);
        return { selection: next, selectedAll: null };
      });
    },
    setSelected: (values, selected) => {
      set((s) => {
        const next = new Set(s.selectedAll ? [] : s.selection);
        for (const v of values) {
          if (selected) next.add(v);
          else next.delete(v);
        }
        return { selection: next, selectedAll: null };
      });
    },
    selectAllMatching: () => {
      set((s) => ({ selectedAll: sent(s.ledgerFilter), selection: new Set() }));
    },
    clearSelection: () => {
      set({ selection: new Set(), selectedAll: null });
    },
    runBulk: async (action, days) => {
      const { selection, selectedAll, jobStarting, job } = get();
      if (selectedAll === null && selection.size === 0) return;
      // A start already asked for (a confirmation accepted twice), or a job main still runs: never a second one.
      if (jobStarting !== null || (job !== null && isLive(job))) return;
      const target = selectedAll ? { filter: selectedAll } : { keyValues: [...selection] };
      set({ jobStarting: { action, days: action === 'extend' ? (days ?? 0) : null, since: Date.now(), resume: false } });
      const r = await call('jobs.start', action === 'extend' ? { action, target, days: days ?? 0 } : { action, target }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('jobs.start', r, { resolves: 'start' });
        return;
      }
      get().dismissResolved('start');
      set({ selection: new Set(), selectedAll: null, jobProblems: null });
      // Keys picked one by one are known here: Keys and Validate say an answer about one of them is an earlier
      // one, from the start (the job may change it any moment) and again at its end. A job on a filter is not
      // resolved to keys here: every answer shown that may match the filter says it may be an earlier one.
      if (!selectedAll) {
        bulkTargets.set(r.data.id, { action, values: new Set(selection) });
        get().noteKeysInBulk(selection, action);
      } else {
        filterTargets.set(r.data.id, { action, filter: selectedAll });
        get().noteFilterInBulk(selectedAll, action);
      }
      heard(r.data);
    },
    cancelBulk: async (jobId) => {
      const job = jobId === undefined ? get().job : known(jobId);
      if (job?.state !== 'running' || get().jobCancelling === job.id) return;
      set({ jobCancelling: job.id });
      const r = await call('jobs.cancel', { jobId: job.id }).finally(() => {
        if (get().jobCancelling === job.id) set({ jobCancelling: null });
      });
      if (!r.ok) get().notifyFailure('jobs.cancel', r);
      else heard(r.data);
    },
    resumeJob: async (retryUnknown, jobId) => {
      const { job: shown, jobStarting } = get();
      const job = jobId === undefined ? shown : known(jobId);
      if (!job || isLive(job) || jobStarting !== null) return;
      if (shown && shown.id !== job.id && isLive(shown)) {
        get().notifyFailure(
          'jobs.resume',
          { code: 'CONFLICT', message: 'A job is already running for this profile; wait for it to end or cancel it first.' },
          { jobId: shown.id },
        );
        return;
      }
      set({ jobStarting: { action: job.action, days: job.days, since: Date.now(), resume: true } });
      const r = await call('jobs.resume', { jobId: job.id, retryUnknown }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        // Refused because main already runs it (another window's Resume, a reload while it started): the screen
        // shows main's word on the job now, and the toast goes when the job ends, instead of staying beside it.
        const now = await call('jobs.get', { jobId: job.id });
        const running = r.code === 'CONFLICT' && now.ok && isLive(now.data);
        // Otherwise it holds until a resume of the job is under way ("No apiKey …": entered since, and resumed).
        get().notifyFailure('jobs.resume', r, running ? { jobId: job.id } : { resolves: `resume:${job.id}` });
        if (now.ok) heard(now.data);
        return;
      }
      get().dismissResolved(`resume:${job.id}`);
      // A bulk job resumed changes keys again; which, this window no longer knows (its filter, if it started it).
      if (job.action !== 'generate' && r.data.profileId === get().activeProfileId) {
        const over = { action: job.action, filter: filterTargets.get(job.id)?.filter ?? null };
        filterTargets.set(job.id, over);
        get().noteFilterInBulk(over.filter, over.action);
      }
      // A generate resumed is the latest generate: an earlier batch no longer reads as the form's result.
      set({ jobProblems: null, ...(job.action === 'generate' ? { lastGenerated: [] } : {}) });
      heard(r.data);
      if (!isLive(r.data)) void loadProblems(r.data);
    },
    exportJob: async (format, jobId) => {
      const job = jobId === undefined ? get().bulkJob : known(jobId);
      if (!job) return null;
      return saved(await call('jobs.export', { jobId: job.id, format }));
    },
    startGenerateJob: async (input) => {
      const { job: running, jobStarting } = get();
      if ((running && isLive(running)) || jobStarting !== null) {
        const busy = running && isLive(running) ? { jobId: running.id } : {};
        get().notifyFailure(
          'jobs.start',
          { code: 'CONFLICT', message: 'A job is already running for this profile; wait for it to end or cancel it first.' },
          busy,
        );
        return false;
      }
      set({ jobStarting: { action: 'generate', days: null, since: Date.now(), resume: false } });
      const r = await call('jobs.start', { action: 'generate', ...input }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('jobs.start', r, { resolves: 'start' });
        return false;
      }
      get().dismissResolved('start');
      // The earlier batch under this job would read as its result: it goes, as before a new single generate.
      set({ jobProblems: null, lastGenerated: [] });
      heard(r.data);
      return true;
    },
    exportJobKeys: async (format, jobId) => {
      const job = jobId === undefined ? get().generateJob : known(jobId);
      if (!job) return null;
      return saved(await call('jobs.export', { jobId: job.id, format, what: 'keys' }));
    },
    followJobs: () => {
      unsubscribe ??= subscribe('jobs.progress', heard);
      unsubscribeLedger ??= subscribe('ledger.changed', onLedgerChanged);
    },
    attachJobs: async () => {
      get().followJobs();
      const profileId = get().activeProfileId;
      const r = await call('jobs.list', undefined);
      if (!r.ok || get().activeProfileId !== profileId) return;
      // Another profile's running job is known from progress events only once one arrives: after a reload or a
      // profile switch, main's list says so at once.
      set({ jobElsewhere: r.data.elsewhere[0] ?? null });
      // A running job first; else the latest one if it stopped with work left (interrupted or cancelled).
      // Running, or cancelled with answers still to come: main is not done with it.
      const running = r.data.jobs.find(isLive);
      const latest = r.data.jobs[0];
      const show =
        running ?? (latest && latest.state !== 'finished' && latest.counts.pending + latest.counts.unknown > 0 ? latest : undefined);
      // The latest generate job, for the Generate form, if main is not done with it or it left work to resume.
      // A finished one too while its keys can be exported and the user has not put it away: a reload must not
      // lose the only place its keys are exported from.
      const gen = r.data.jobs.find((j) => j.action === 'generate');
      if (
        gen &&
        !dismissed().includes(gen.id) &&
        (isLive(gen) || gen.counts.pending + gen.counts.unknown + gen.counts.done > 0) &&
        get().generateJob?.id !== gen.id
      )
        set({ generateJob: gen });
      // All keys' latest bulk job, the same way: running, or stopped with work left, and not put away.
      const bulk = r.data.jobs.find((j) => j.action !== 'generate');
      if (
        bulk &&
        !dismissed().includes(bulk.id) &&
        (isLive(bulk) || bulk.counts.pending + bulk.counts.unknown > 0) &&
        get().bulkJob?.id !== bulk.id
      ) {
        set({ bulkJob: bulk, jobProblems: null });
        if (!isLive(bulk)) void loadProblems(bulk);
      }
      if (!show) return;
      const current = get().job;
      if (current && current.id !== show.id && isLive(current)) return;
      set({ job: show });
    },
    loadCeiling: async (profileId) => {
      const r = await call('jobs.getCeiling', { profileId });
      return r.ok ? r.data : null;
    },
    saveCeiling: async (profileId, ceiling) => {
      const r = await call('jobs.setCeiling', { profileId, ceiling });
      if (!r.ok) {
        get().notifyFailure('jobs.setCeiling', r);
        return null;
      }
      const n = r.data.ceiling;
      get().notify(
        'success',
        `Bulk jobs send at most ${n.toLocaleString()} ${n === 1 ? 'request' : 'requests'} at a time${r.data.isDefault ? ' (the default)' : ''}.`,
      );
      return r.data;
    },
    dismissJob: () => {
      const { job, bulkJob } = get();
      if (!bulkJob || isLive(bulkJob)) return;
      remember(bulkJob.id);
      set({ bulkJob: null, jobProblems: null, ...(job?.id === bulkJob.id ? { job: null } : {}) });
    },
    dismissGenerateJob: () => {
      const { generateJob, job } = get();
      if (!generateJob || isLive(generateJob)) return;
      remember(generateJob.id);
      set({ generateJob: null, ...(job?.id === generateJob.id ? { job: null, jobProblems: null } : {}) });
    },
    countActive: async (filter) => {
      const r = await call('ledger.query', {
        filter: { ...filter, status: 'active' },
        sort: get().ledgerSort,
        offset: 0,
        limit: 1,
        exactCount: true,
      });
      if (!r.ok) {
        get().notifyFailure('ledger.query', r);
        return null;
      }
      return r.data.total;
    },
    exportLedger: async (format) => {
      const r = await call('ledger.export', { filter: sent(get().ledgerFilter), sort: get().ledgerSort, format });
      if (!r.ok) {
        get().notifyFailure('ledger.export', r);
        return null;
      }
      if (r.data.path) get().notify('success', `Saved to ${r.data.path}.`);
      return r.data.path;
    },
  };
}

// Import and refresh: read-only jobs that look keys up on the service and record in the ledger what they find.
import { IMPORT_FOUND, IMPORT_FOUND_WORDS, REFRESH_CHANGES, type ImportFound, type RefreshChange } from '../../shared/job-words.ts';
import type { OperationName } from '../../shared/contract.ts';
import { importLinks } from '../../shared/key-import.ts';
import { fail, ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { needsKey, needsProfile, type Handlers } from './types.ts';

/** A lookup item's code as its export's outcome: what an import found, or what a refresh found changed. */
export function lookupOutcome(action: 'import' | 'refresh', code: string | null): string {
  if (action === 'import') return IMPORT_FOUND.includes(code as ImportFound) ? IMPORT_FOUND_WORDS[code as ImportFound] : 'looked up';
  return code === null ? 'unchanged' : code.split(',').join(', ');
}

export const lookupHandlers = (core: Core): Pick<Handlers, Extract<OperationName, `import.${string}` | `refresh.${string}`>> => ({
  // The ledger writes queued before the click go in first, as for every job: the lookups then overwrite them. The
  // customers the rows name are linked once the job exists (local only), whatever the lookups find.
  'import.start': needsKey(core, async ({ source, rows }, a) => {
    await core.writer.flushed();
    const started = await core.jobs.start(a.profile.id, { action: 'import', source, target: { keyValues: rows.map((r) => r.value) } });
    const links = importLinks(rows);
    if (started.ok && links.length > 0) {
      const change = {
        op: 'link' as const,
        profileId: a.profile.id,
        links: links.map((l) => ({ customer: { fields: l.fields }, values: l.values })),
        at: new Date().toISOString(),
      };
      // The lookups run whatever becomes of the links: a refused write is said in main's log, not as the import failing.
      await core.writer.run('customers', { change }).catch((error: unknown) => {
        console.error("keydesk: an import's customers could not be linked:", error);
      });
    }
    return started;
  }),

  'import.customers': needsProfile(core, ({ customers }, p) =>
    ok({
      known: customers.map((c) => {
        const found = core.db.findCustomerByContact(p.id, c);
        return found === null ? null : { id: found.id, name: found.name };
      }),
    }),
  ),

  'refresh.start': needsKey(core, async ({ target }, a) => {
    await core.writer.flushed();
    return core.jobs.start(a.profile.id, { action: 'refresh', target });
  }),

  'refresh.changes': needsProfile(core, ({ jobId }, p) => {
    const job = core.jobs.get(p.id, jobId);
    if (!job || job.action !== 'refresh') return fail('NOT_FOUND', 'That refresh was not found for this profile.');
    const counts = Object.fromEntries(REFRESH_CHANGES.map((c) => [c, 0])) as Record<RefreshChange, number>;
    for (const item of core.db.iterateJobItems(jobId)) {
      if (item.state !== 'done' || item.code === null) continue;
      for (const c of item.code.split(',')) if (c in counts) counts[c as RefreshChange]++;
    }
    return ok({ counts });
  }),
});

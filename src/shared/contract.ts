// The one contract: every operation the renderer can ask of main, with its input schema, result type and a
// trust note (what the renderer may supply). Main, the preload and the renderer's types are all built from it.
import { z } from 'zod';
import type {
  AppStatus,
  StartupStatus,
  AuditEntry,
  CutShortGenerate,
  HistoryBucket,
  HwidEvent,
  HwidReading,
  JobItem,
  JobSummary,
  Key,
  KeylessEntry,
  LedgerRow,
  Profile,
  SandboxState,
  ServiceCapabilities,
  ValidationReport,
  DriftStatus,
} from './domain.ts';
import { HWID_METHODS, JOB_ITEM_STATES } from './domain.ts';
import { FIRST_RUN_STEPS, type FirstRunStep, type KeyActivityDay, type OverviewFigures } from './domain.ts';
import type { Customer, CustomerSummary, NoteLinkProposal } from './customers.ts';
import type { EventName, OperationName } from './operations.ts';
import type { KeyBatch } from './key-batch.ts';
import { RENEWAL_TEMPLATE_MAX, type ExpiryWeek } from './renewals.ts';
import type { Result } from './result.ts';
import { JOB_CEILING_MAX, SANDBOX_PORT_MIN, SETTING_FIELDS, type SettingsState } from './settings.ts';
import type { RefreshChange } from './job-words.ts';
import { IMPORT_MAX_KEYS } from './key-import.ts';
import { keyValueList, LIMITS, schemas } from './rules.ts';

export interface OperationSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly trust: string;
  /** Phantom: carries the output type; never set at run time. */
  readonly output?: O;
}
const op =
  <O>() =>
  <I extends z.ZodType>(input: I, trust: string): OperationSpec<I, O> => ({ input, trust });

const none = z.undefined();
const httpUrl = z
  .string()
  .max(2_048)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
      } catch {
        return false;
      }
    },
    { error: 'Enter a full http(s) address without credentials, e.g. https://api.example.com.' },
  );
/** The origin of a validation URL on another host than the base URL's, as the user confirmed it in Profiles. */
const confirmValidationOrigin = z.string().max(2_048).optional();
const profileId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Unknown profile id.' });
const cutShortId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'Unknown generate.' });
const apiKey = z.string().min(1, { error: 'The API key is required.' }).max(LIMITS.textMaxChars);
const page = { limit: schemas.pageLimit.optional(), offset: schemas.pageOffset.optional() };
const pagedSearch = z.strictObject({ term: schemas.searchTerm, ...page });
const exportFormat = z.enum(['csv', 'json']);
const ledgerFilter = z.strictObject({
  text: z.string().max(LIMITS.textMaxChars).optional(),
  status: z.enum(['generated', 'active', 'deleted']).optional(),
  premium: z.boolean().optional(),
  // Overview's figures opened in All keys: keys whose expiry or activation lies in [from, to) (ISO instants); an
  // expiry span leaves deleted keys out unless a status is asked for.
  span: z
    .strictObject({ of: z.enum(['expiresAt', 'activatedAt']), from: z.iso.datetime().optional(), to: z.iso.datetime().optional() })
    .optional(),
  // Expiry and creation: expired by now; expiring from now within N days; expiry and creation between two UTC days
  // (both included); days keys not activated yet (no expiry until they are).
  expired: z.literal(true).optional(),
  expiresWithin: schemas.days.optional(),
  expiresFrom: schemas.date.optional(),
  expiresTo: schemas.date.optional(),
  createdFrom: schemas.date.optional(),
  createdTo: schemas.date.optional(),
  unactivated: z.literal(true).optional(),
  /** One customer's keys (customers.ts), or the keys of the customers whose name, email, Discord ID… hold every word. */
  customerId: z.int().min(1).optional(),
  customer: z.string().max(LIMITS.textMaxChars).optional(),
});
/** All keys' sort: a column and a direction; rows that tie are ordered by key value in the same direction. */
const ledgerSort = z.strictObject({
  field: z.enum(['createdAt', 'expiresAt', 'value', 'note', 'status', 'lastSeenAt']),
  dir: z.enum(['asc', 'desc']),
});
const ledgerCursor = z.strictObject({ key: z.string().max(LIMITS.noteMaxChars).nullable(), value: schemas.keyValue });
const auditFilter = z.strictObject({
  text: z.string().max(LIMITS.textMaxChars).optional(),
  outcome: z.enum(['ok', 'failed', 'unknown']).optional(),
  action: z.string().max(64).optional(),
  /** One service's acts (a removed service's too); left out, every service's. */
  profileId: profileId.optional(),
  /** A customer's entries: about it, its keys, and jobs over its keys. */
  customerId: z.int().min(1).optional(),
});

/** The most keys one generate job takes: ten requests of the service's 100,000. */
export const JOB_GENERATE_MAX = 10 * LIMITS.countMax;
/** The most jobs one jobs.list answer lists beside the running and interrupted ones. */
export const JOBS_LIST_MAX = 1_000;
const jobTarget = z.union([z.strictObject({ keyValues: keyValueList(LIMITS.countMax) }), z.strictObject({ filter: ledgerFilter })]);

/** What a job acts on, in words, as its maker names it ("imported from keys.csv"); left out, main words its target. */
const jobLabel = z.string().min(1).max(200).optional();

const importText = z.string().max(LIMITS.textMaxChars);
const importRow = z.strictObject({
  /** The row of the file it came from (the preview's); main does not use it. */
  row: z.int().min(1).optional(),
  value: schemas.keyValue,
  name: importText.optional(),
  email: importText.optional(),
  discord: importText.optional(),
  reference: importText.optional(),
  note: schemas.note.optional(),
});

export const generateInput = z
  .strictObject({
    expire: schemas.date,
    count: schemas.count,
    isPremium: z.boolean(),
    note: schemas.note.optional(),
    expiresByDaysKey: z.boolean().optional(),
    daysKey: schemas.days.optional(),
    /** Works on any machine: sent only where the service may have it (wire.md, "Seen in vendors' code"). */
    noHwidValidation: z.boolean().optional(),
  })
  .refine((v) => !v.expiresByDaysKey || v.daysKey !== undefined, {
    error: 'Days is required when the key expires by days.',
    path: ['daysKey'],
  });

export * from './settings.ts';

/** The most a customer's field holds: a name, a reference, a tag; and how many tags. */
export const CUSTOMER_LIMITS = { nameMaxChars: 200, emailMaxChars: 254, referenceMaxChars: 256, tagMaxChars: 50, tagsMax: 20 } as const;
const customerId = z.int({ error: 'Unknown customer.' }).min(1, { error: 'Unknown customer.' });
export const customerFields = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: 'A customer needs a name.' })
    .max(CUSTOMER_LIMITS.nameMaxChars, { error: `Name must be at most ${CUSTOMER_LIMITS.nameMaxChars} characters.` }),
  email: z.union([
    z.literal(''),
    z.email({ error: 'Enter an email address like ann@example.com, or leave it empty.' }).max(CUSTOMER_LIMITS.emailMaxChars),
  ]),
  discordId: z.string().regex(/^(\d{17,20})?$/, { error: 'A Discord ID is 17 to 20 digits (Discord: Copy User ID).' }),
  reference: z
    .string()
    .max(CUSTOMER_LIMITS.referenceMaxChars, { error: `Reference must be at most ${CUSTOMER_LIMITS.referenceMaxChars} characters.` }),
  tags: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(CUSTOMER_LIMITS.tagMaxChars, { error: `A tag is at most ${CUSTOMER_LIMITS.tagMaxChars} characters.` }),
    )
    .max(CUSTOMER_LIMITS.tagsMax, { error: `At most ${CUSTOMER_LIMITS.tagsMax} tags.` }),
  note: schemas.note,
});
const customerRef = z.union([z.strictObject({ id: customerId }), z.strictObject({ fields: customerFields })]);
const keyValues = keyValueList(LIMITS.countMax);

/** What an edit may change (wire.md, "Seen in vendors' code"): at least one field; the term of a generated key only. */
export const editInput = z
  .strictObject({
    keyValue: schemas.keyValue,
    state: z.enum(['generated', 'active']),
    note: schemas.note.optional(),
    isPremium: z.boolean().optional(),
    noHwidValidation: z.boolean().optional(),
    expiresByDaysKey: z.boolean().optional(),
    daysKey: schemas.days.optional(),
  })
  .refine((v) => [v.note, v.isPremium, v.noHwidValidation, v.expiresByDaysKey, v.daysKey].some((f) => f !== undefined), {
    error: 'Change at least one field.',
  })
  .refine((v) => !v.expiresByDaysKey || v.daysKey !== undefined, {
    error: 'Days is required when the key expires by days.',
    path: ['daysKey'],
  })
  .refine((v) => v.state === 'generated' || (v.expiresByDaysKey === undefined && v.daysKey === undefined), {
    error: "An active key's term is changed by extending it.",
    path: ['daysKey'],
  });

/** What a bulk edit changes on every key: the term is each key's own, so it is edited one key at a time. */
const bulkEdit = z
  .strictObject({ note: schemas.note.optional(), isPremium: z.boolean().optional(), noHwidValidation: z.boolean().optional() })
  .refine((v) => v.note !== undefined || v.isPremium !== undefined || v.noHwidValidation !== undefined, {
    error: 'Change at least one field.',
  });

export const contract = {
  // Answered from the moment the window opens, before the rest can be.
  'app.startup': op<StartupStatus>()(none, 'Nothing.'),
  // Answered only after a failed start; null starts again as things are.
  'app.startAgain': op<null>()(
    z.strictObject({
      restore: z
        .string()
        .regex(/^keydesk-[\dT.Z-]{1,40}\.db$/)
        .nullable(),
    }),
    'Names one of the backups the failed start offered (main checks it is in the backups folder), or none.',
  ),
  'app.status': op<AppStatus>()(none, 'Nothing.'),

  'profiles.list': op<{ profiles: Profile[]; activeProfileId: string | null }>()(none, 'Nothing.'),
  'profiles.add': op<Profile>()(
    z.strictObject({
      name: z.string().min(1).max(LIMITS.serviceNameMaxChars),
      baseUrl: httpUrl,
      apiKey,
      validationUrl: httpUrl.optional(),
      confirmValidationOrigin,
      serviceIdentifier: schemas.identifier.optional(),
    }),
    'Supplies a new apiKey once; main checks it against the service before storing it in the keychain.',
  ),
  'profiles.update': op<Profile>()(
    z.strictObject({
      id: profileId,
      name: z.string().min(1).max(LIMITS.serviceNameMaxChars).optional(),
      baseUrl: httpUrl.optional(),
      apiKey: apiKey.optional(),
      validationUrl: httpUrl.optional(),
      confirmValidationOrigin,
      serviceIdentifier: schemas.identifier.nullable().optional(),
    }),
    'May replace the apiKey; main re-checks it when the key or base URL changes.',
  ),
  'profiles.remove': op<null>()(z.strictObject({ id: profileId }), 'Names a profile; the sandbox profile is refused.'),
  'profiles.select': op<Profile>()(z.strictObject({ id: profileId }), 'Names a profile.'),

  'executions.get': op<{ executionCount: number; sampledAt: string }>()(none, 'Nothing.'),
  // executionCount: null when the push was done but the new total could not be read back. sampledAt: when that
  // total was read (the push's answer, or the read after it), null with it.
  'executions.push': op<{ executionCount: number | null; sampledAt: string | null }>()(none, 'Nothing; mutating, sent once.'),
  // latest: the profile's newest sample whatever the range (null: none), shown as earlier while the service is silent.
  // closed: the spans in the range when Keydesk was not running (no samples could be taken), oldest first.
  'executions.history': op<{
    buckets: HistoryBucket[];
    samples: number;
    latest: { count: number; at: string } | null;
    closed?: { from: string; to: string }[];
  }>()(
    z.strictObject({
      range: z.enum(['1h', '24h', '7d', '30d', 'all']),
      /** How many buckets the chart can show (its width); main groups the samples into at most this many. */
      points: z.int().min(2).max(LIMITS.historyPointsMax).optional(),
    }),
    'A range name and how many points the chart draws; main downsamples to that (min and max per bucket).',
  ),

  // A compact batch (key-batch.ts): 100,000 key objects would cost main's heap and the IPC far more.
  'keys.generate': op<{ generated: KeyBatch }>()(generateInput, 'Generation parameters, checked by the shared rules.'),
  // bestMatchOnly: the service sent its single best match per state, not every match (the real dialect).
  'keys.lookup': op<{ active: Key[]; generated: Key[]; bestMatchOnly?: boolean }>()(
    z.strictObject({ term: schemas.searchTerm }),
    'A search term.',
  ),
  // total: null when the service does not report one (the real dialect sends its best match only).
  'keys.fetchActive': op<{ keys: Key[]; total: number | null }>()(pagedSearch, 'A search term and paging.'),
  'keys.fetchGenerated': op<{ keys: Key[]; total: number | null }>()(pagedSearch, 'A search term and paging.'),
  'keys.delete': op<{ deletedKey: string }>()(
    z.strictObject({ keyValue: schemas.keyValue, state: z.enum(['generated', 'active']).optional() }),
    'A key value; destructive, the renderer confirms first.',
  ),
  // key: null when the service did it but neither described the key nor let Keydesk re-fetch it.
  'keys.extend': op<{ key: Key | null }>()(
    z.strictObject({ keyValue: schemas.keyValue, days: schemas.days }),
    'A key value and a day count.',
  ),
  'keys.resetHwid': op<{ key: Key | null }>()(z.strictObject({ keyValue: schemas.keyValue }), 'A key value.'),
  'keys.export': op<{ path: string | null }>()(
    z.strictObject({ keyValues: keyValueList(LIMITS.countMax), format: exportFormat }),
    'Key values; main writes their ledger rows to the path the user picks.',
  ),

  // totalCapped: the count stopped at LEDGER_COUNT_CAP. recording / recordingFailed / recordingBusy: keys not yet
  // written, the last failed write in words, and whether they wait for keydesk.db (another program holds its lock).
  // targets: how many matches a bulk job over "all matching" acts on (no cursor page).
  'ledger.query': op<{
    rows: LedgerRow[];
    total: number | null;
    totalCapped: boolean;
    targets?: number;
    targetsCapped?: boolean;
    recording?: number;
    recordingFailed?: string;
    recordingBusy?: boolean;
  }>()(
    z.strictObject({
      filter: ledgerFilter,
      sort: ledgerSort,
      offset: schemas.pageOffset,
      limit: schemas.pageLimit,
      // The row next to the page wanted, from a page already shown: seek paging, cheap at any depth.
      cursor: z.union([z.strictObject({ after: ledgerCursor }), z.strictObject({ before: ledgerCursor })]).optional(),
      exactCount: z.boolean().optional(),
    }),
    'Filter, sort and paging (an offset, or a cursor row) over the local ledger; total is null on a cursor page, and past 10,000 matches only a lower bound (totalCapped) unless exactCount.',
  ),
  // The file keeps the sort All keys shows, so what was read on screen is found there.
  'ledger.export': op<{ path: string | null }>()(
    z.strictObject({ filter: ledgerFilter, sort: ledgerSort, format: exportFormat }),
    'A filter, the sort shown and a format; main asks the user for the path.',
  ),
  // Generates whose keys an earlier session stopped recording (store/generate-marks.ts), for All keys' notice.
  'ledger.cutShort': op<{ generates: CutShortGenerate[] }>()(none, 'Nothing; the selected profile.'),
  // found: keys the lookups by note found and recorded; bestMatchOnly: the service sent its best match per state only.
  'ledger.findCutShort': op<{ found: number; bestMatchOnly?: boolean }>()(
    z.strictObject({ id: cutShortId }),
    'Names a cut-short generate; main looks its keys up by their note, records them, then forgets it (unless best matches only).',
  ),
  'ledger.dismissCutShort': op<null>()(z.strictObject({ id: cutShortId }), 'Names a cut-short generate; main forgets it.'),
  'identifier.check': op<{ exists: boolean; service: string | null }>()(
    z.strictObject({ identifier: schemas.identifier }),
    'An identifier.',
  ),

  // total: null when the service sent its best match only.
  'keyless.lookup': op<{ entries: KeylessEntry[]; total: number | null }>()(pagedSearch, 'A HWID search term.'),
  'keyless.add': op<{ entry: KeylessEntry }>()(
    z.strictObject({ hwid: schemas.hwid, isPremium: z.boolean().optional(), days: schemas.days.optional() }),
    'A HWID and options.',
  ),
  'keyless.delete': op<null>()(z.strictObject({ hwid: schemas.hwid }), 'A HWID; destructive, confirmed first.'),

  'hwid.read': op<{ readings: HwidReading[] }>()(none, 'Nothing.'),
  'validation.run': op<ValidationReport>()(
    z
      .strictObject({
        mode: z.enum(['key', 'keyless']),
        keyValue: schemas.keyValue.optional(),
        service: schemas.identifier.optional(),
        hwid: z.union([z.strictObject({ method: z.enum(HWID_METHODS) }), z.strictObject({ custom: schemas.hwid })]),
        dryRun: z.boolean().optional(),
        confirmActivation: z.boolean().optional(),
      })
      .refine((v) => v.mode === 'keyless' || v.keyValue !== undefined, {
        error: 'A key is required unless validating keyless.',
        path: ['keyValue'],
      }),
    'Key, service and HWID choice; a real validation on a remote service needs confirmActivation.',
  ),

  'audit.list': op<{ entries: AuditEntry[]; total: number }>()(
    z.strictObject({ filter: auditFilter, offset: schemas.pageOffset, limit: schemas.pageLimit }),
    'Filter and paging.',
  ),
  'audit.export': op<{ path: string | null }>()(
    z.strictObject({ filter: auditFilter, format: exportFormat }),
    'A filter and a format; main asks the user for the path.',
  ),

  'jobs.start': op<JobSummary>()(
    z.discriminatedUnion('action', [
      z.strictObject({ action: z.enum(['delete', 'resetHwid']), target: jobTarget, label: jobLabel }),
      z.strictObject({ action: z.literal('extend'), target: jobTarget, days: schemas.days, label: jobLabel }),
      z.strictObject({ action: z.literal('edit'), target: jobTarget, edit: bulkEdit, label: jobLabel }),
      z.strictObject({
        action: z.literal('generate'),
        label: jobLabel,
        expire: schemas.date,
        count: z
          .int()
          .min(LIMITS.countMin)
          .max(JOB_GENERATE_MAX, { error: `At most ${JOB_GENERATE_MAX.toLocaleString('en-US')} keys in one job.` }),
        isPremium: z.boolean(),
        note: schemas.note.optional(),
        expiresByDaysKey: z.boolean().optional(),
        daysKey: schemas.days.optional(),
        noHwidValidation: z.boolean().optional(),
        /** The customer its keys go to, as each request's keys are recorded. */
        customer: customerRef.optional(),
      }),
    ]),
    'An action and its keys (values, or a ledger filter main resolves), and words for them; main runs it as a job on the active profile.',
  ),
  // unlisted: older jobs of the profile left out; next: the `recent` that lists the next 20 of them.
  'jobs.list': op<{ jobs: JobSummary[]; elsewhere: JobSummary[]; unlisted?: number; next?: number }>()(
    z.strictObject({ recent: z.int().min(1).max(JOBS_LIST_MAX) }).optional(),
    "Nothing, or how many of the newest jobs to list (20 by default); the active profile's jobs, and the jobs running now for other profiles (they keep sending unseen).",
  ),
  'jobs.get': op<JobSummary>()(z.strictObject({ jobId: z.uuid() }), "A job id; another profile's job is not found."),
  'jobs.items': op<{ items: JobItem[]; total: number }>()(
    z.strictObject({
      jobId: z.uuid(),
      state: z.enum(JOB_ITEM_STATES).optional(),
      noted: z.boolean().optional(),
      offset: schemas.pageOffset,
      limit: schemas.pageLimit,
    }),
    'A job id, an item state, noted: only items with words attached (a done item the ledger could not refresh), and paging.',
  ),
  'jobs.cancel': op<JobSummary>()(z.strictObject({ jobId: z.uuid() }), 'A job id; stops sending at once.'),
  'jobs.resume': op<JobSummary>()(
    z.strictObject({ jobId: z.uuid(), retryUnknown: z.boolean().optional() }),
    'A job id; retryUnknown is the user choosing to send again items whose outcome is unknown.',
  ),
  'jobs.export': op<{ path: string | null }>()(
    z.strictObject({ jobId: z.uuid(), format: exportFormat, what: z.enum(['items', 'keys']).optional() }),
    "A job id and a format; main writes every item's outcome (or, with what: 'keys', a generate job's keys) to the path the user picks.",
  ),
  'jobs.forget': op<null>()(
    z.strictObject({ jobId: z.uuid() }),
    "A job id; main removes a stopped job's record (its items, its list of keys made); the keys and the audit log stay.",
  ),
  'jobs.getCeiling': op<{ ceiling: number; isDefault: boolean }>()(z.strictObject({ profileId }), 'A profile id.'),
  'jobs.setCeiling': op<{ ceiling: number; isDefault: boolean }>()(
    z.strictObject({ profileId, ceiling: z.int().min(1).max(JOB_CEILING_MAX).nullable() }),
    'A profile id and the most requests a job may keep in flight there (null: the default).',
  ),

  // Settings: main keeps them in <user data>/settings.json (src/main/settings.ts); the sandbox's port in profiles.json.
  'settings.get': op<SettingsState>()(none, 'Nothing.'),
  'settings.set': op<SettingsState>()(
    z.strictObject({
      theme: SETTING_FIELDS.theme.optional(),
      sampleEverySeconds: SETTING_FIELDS.sampleEverySeconds.optional(),
      bulkLimit: SETTING_FIELDS.bulkLimit.optional(),
      logLevel: SETTING_FIELDS.logLevel.optional(),
    }),
    'Any of the settings, each checked by its schema; main writes settings.json.',
  ),
  'settings.setSandboxPort': op<SettingsState>()(
    z.strictObject({
      port: z
        .int({ error: 'Enter a whole number.' })
        .min(SANDBOX_PORT_MIN, { error: `Enter a port from ${SANDBOX_PORT_MIN} to 65535.` })
        .max(65_535, { error: `Enter a port from ${SANDBOX_PORT_MIN} to 65535.` })
        .nullable(),
    }),
    'A port (or null: any free port); main restarts the local sandbox there and keeps it.',
  ),
  'settings.openDataFolder': op<null>()(none, "Nothing; main opens its own data folder in the system's file manager."),
  // The drift watch (remote profiles): the last check's findings, and a check now (read-only requests).
  'drift.status': op<DriftStatus>()(z.strictObject({ profileId }), 'A profile id.'),
  'drift.check': op<DriftStatus>()(
    z.strictObject({ profileId }),
    "A remote profile's id; main reads the execution count, a key it knows and an identifier, changing nothing.",
  ),
  // Overview (home): figures from the ledger, keys per day, and the first-run checklist (steps done, per profile).
  'overview.figures': op<OverviewFigures>()(none, 'Nothing; the selected profile.'),
  'overview.activity': op<{ days: KeyActivityDay[] }>()(
    z.strictObject({ days: z.int().min(1).max(366) }),
    'How many days back from today (UTC days, today included).',
  ),
  // done: the steps done, or null when the checklist is not this profile's (it held keys before the checklist began);
  // main notes "generate" once the ledger holds a key, "service" once a remote service exists.
  'overview.firstRun': op<{ done: FirstRunStep[] | null }>()(none, 'Nothing; the selected profile.'),
  'overview.markStep': op<{ done: FirstRunStep[] | null }>()(
    z.strictObject({ step: z.enum(FIRST_RUN_STEPS) }),
    'A first-run step the renderer saw done (a snippet copied); main notes it for the selected profile.',
  ),

  // Renewals: keys expiring per week (this one first, renewals.ts), and the profile's renewal message template.
  'renewals.weeks': op<{ weeks: ExpiryWeek[] }>()(none, 'Nothing; the selected profile.'),
  'renewals.getTemplate': op<{ template: string; isDefault: boolean }>()(none, 'Nothing; the selected profile.'),
  'renewals.setTemplate': op<{ template: string; isDefault: boolean }>()(
    z.strictObject({ template: z.string().min(1).max(RENEWAL_TEMPLATE_MAX).nullable() }),
    'A message template for the selected profile (null: the default); only ever filled in and copied, never sent.',
  ),
  // The vendor's book (store/customers.ts): local to keydesk.db, per profile, never sent to the service.
  // noteTemplate: the profile's own, or the default; isDefault says which.
  'customers.list': op<{ customers: CustomerSummary[]; total: number; noteTemplate: string; isDefault: boolean }>()(
    z.strictObject({ search: z.string().max(LIMITS.textMaxChars).optional(), ...page }),
    "Search words and paging over the active profile's customers.",
  ),
  'customers.get': op<CustomerSummary>()(z.strictObject({ id: customerId }), "A customer id; another profile's is not found."),
  'customers.create': op<Customer>()(customerFields, "A customer's fields, checked here."),
  'customers.update': op<Customer>()(z.strictObject({ id: customerId, fields: customerFields }), 'A customer id and its new fields.'),
  'customers.merge': op<{ customer: Customer; keys: number }>()(
    z.strictObject({ into: customerId, from: z.array(customerId).min(1).max(1_000) }),
    'The customer kept and those merged into it (removed); destructive, the renderer confirms first.',
  ),
  'customers.remove': op<{ keys: number }>()(
    z.strictObject({ id: customerId }),
    'A customer id; its keys stay, held by no one; destructive, the renderer confirms first.',
  ),
  'customers.link': op<{ keys: number; created: number; customer: Customer | null }>()(
    z.strictObject({
      links: z
        .array(z.strictObject({ customer: customerRef, keyValues }))
        .min(1)
        .max(LIMITS.countMax),
    }),
    'Keys and the customer each goes to (by id, or fields: the one with that Discord ID or email, else a new one); a key leaves its former customer.',
  ),
  'customers.unlink': op<{ keys: number }>()(z.strictObject({ keyValues }), 'Key values; their customers keep the rest.'),
  // The ledger's unlinked keys whose notes name someone (shared/note-links.ts), grouped by who, for the user to review.
  'customers.proposeLinks': op<{ proposals: NoteLinkProposal[]; keys: number }>()(none, 'Nothing; the active profile.'),
  'customers.setTemplate': op<{ noteTemplate: string; isDefault: boolean }>()(
    z.strictObject({ template: schemas.note.nullable() }),
    'The note new keys of a customer start from ({name}, {email}, {discordId}, {reference}); null: the default.',
  ),
  'customers.export': op<{ path: string | null }>()(
    z.strictObject({ format: exportFormat }),
    'A format; main writes every customer with their keys to the path the user picks.',
  ),

  // Import and refresh: read-only jobs that look keys up and record in the ledger what they find.
  'import.start': op<JobSummary>()(
    z.strictObject({
      source: z.string().min(1).max(LIMITS.textMaxChars),
      rows: z.array(importRow).min(1).max(IMPORT_MAX_KEYS),
    }),
    'The file\'s name (or "pasted keys") and the preview\'s rows (parseImport); main looks each key up as a job on the active profile.',
  ),
  // The preview's customers as the book has them: each the customer an import would link its keys to, or null (new).
  'import.customers': op<{ known: ({ id: number; name: string } | null)[] }>()(
    z.strictObject({
      customers: z.array(z.strictObject({ name: importText, email: importText, discordId: importText })).max(IMPORT_MAX_KEYS),
    }),
    "The customers an import's rows name (importLinks); main finds each in the active profile's book as the import would.",
  ),
  'refresh.start': op<JobSummary>()(
    z.strictObject({ target: jobTarget }),
    'Keys (values, or a ledger filter main resolves); main reads each again as a job and records what changed elsewhere.',
  ),
  'refresh.changes': op<{ counts: Record<RefreshChange, number> }>()(
    z.strictObject({ jobId: z.uuid() }),
    "A refresh job's id; its keys per change found (the keys themselves: jobs.items with noted).",
  ),

  // What each service can do, key edits and HWID history.
  'service.capabilities': op<{ capabilities: ServiceCapabilities }>()(
    z.strictObject({ profileId }),
    "A profile id; main answers what the last capability check found (the sandbox's is checked when first asked).",
  ),
  'service.checkCapabilities': op<{ capabilities: ServiceCapabilities }>()(
    z.strictObject({ profileId }),
    'A profile id; main asks the service about each optional endpoint, changing nothing, and records the answers.',
  ),
  // key: null when the service did it but neither described the key nor let Keydesk re-fetch it.
  'keys.edit': op<{ key: Key | null }>()(
    editInput,
    'A key value and the fields to change; sent once, only where the service may have the endpoint.',
  ),
  'keys.hwidHistory': op<{ events: HwidEvent[] }>()(
    z.strictObject({ keyValue: schemas.keyValue }),
    "A key value; main answers what Keydesk saw of its HWID (and, for the sandbox, the sandbox's own reset log).",
  ),
} as const satisfies { readonly [N in OperationName]: OperationSpec<z.ZodType, unknown> }; // exactly the names, no more

export type Contract = typeof contract;
export type { EventName, OperationName };
export { EVENT_NAMES, OPERATION_NAMES } from './operations.ts';
export type OperationInput<N extends OperationName> = z.input<Contract[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<Contract[N]['input']>;
export type OperationOutput<N extends OperationName> = Contract[N] extends OperationSpec<z.ZodType, infer O> ? O : never;
export type OperationResult<N extends OperationName> = Result<OperationOutput<N>>;

/** Events main sends to the renderer. */
export interface EventMap {
  /** Keydesk's start ended: ready, or failed. */
  'app.startup': StartupStatus;
  'jobs.progress': JobSummary;
  'sandbox.stateChanged': SandboxState;
  'executions.sampled': { profileId: string; at: string; count: number };
  /**
   * A profile's queued ledger writes changed: `recording` keys still to write; `failure` the last write that failed,
   * in words; `busy`: they wait for keydesk.db, another program holding its lock.
   */
  'ledger.changed': { profileId: string; recording: number; failure: string | null; busy?: boolean };
  /** A backup of keydesk.db was tried: `problem` says why it failed (a full disk, its folder and the room needed), null when it was made. */
  'backup.changed': { problem: string | null };
  /** The user clicked the notification of a job's end: the window opens that job in Jobs. */
  'app.openJob': { jobId: string };
}
// EventMap must name exactly the events of operations.ts: a missing or extra event does not compile.
type EventMapIsExact = keyof EventMap extends EventName ? (EventName extends keyof EventMap ? true : never) : never;
export const EVENT_MAP_IS_EXACT: EventMapIsExact = true;

/** What the preload exposes as `window.keydesk`: exactly one function per operation, plus `on`. */
export type KeydeskBridge = {
  readonly [N in OperationName]: (input: OperationInput<N>) => Promise<OperationResult<N>>;
} & {
  readonly on: <E extends EventName>(event: E, listener: (payload: EventMap[E]) => void) => () => void;
};

// Jobs in words: what main says of a job (why it stopped, why it was refused, its export's outcomes) and the labels
// the renderer's job lines use. One module, so main and the screen say the same thing.
import type { JobAction, JobItemState, JobState } from './domain.ts';
import { keyCount } from './operation-words.ts';
import { HUNG_AFTER_PROBES } from './rules.ts';

const n = (v: number): string => v.toLocaleString('en-US');

/** A job's action as a title: the screen's job lines, main's refusals and profile notices. */
export const JOB_ACTION_WORDS: Readonly<Record<JobAction, string>> = {
  delete: 'Delete',
  extend: 'Extend',
  resetHwid: 'Reset HWID',
  generate: 'Generate',
  import: 'Import',
  refresh: 'Refresh',
  edit: 'Edit',
};

export const JOB_STATE_WORDS: Readonly<Record<JobState, string>> = {
  running: 'Running',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
  finished: 'Finished',
};

/** What a job does: "Extend by 7 days", "Reset HWID". `days` writes a count of days (the screen in its locale). */
export function jobTitle(
  j: { action: JobAction; days: number | null; source?: string },
  days: (count: number) => string = (d) => `${n(d)} ${d === 1 ? 'day' : 'days'}`,
): string {
  if (j.action === 'import' && j.source !== undefined) return `Keys imported from ${j.source}`;
  return j.action === 'extend' && j.days !== null ? `Extend by ${days(j.days)}` : JOB_ACTION_WORDS[j.action];
}

/** While the service does not answer, the rule a running job follows (concurrency.ts limitAt and hung). */
export const NOT_ANSWERING_RULE = `until it answers, at most one request at a time is sent, to check (it may take effect), and the job stops once ${HUNG_AFTER_PROBES} of those in a row get no answer`;

// ---- an item's outcome in a job's export ------------------------------------------------------------------

export const ITEM_DONE_WORDS: Readonly<Record<JobAction, string>> = {
  extend: 'extended',
  delete: 'deleted',
  resetHwid: 'HWID reset',
  generate: 'generated',
  import: 'looked up',
  refresh: 'read again',
  edit: 'edited',
};
export const ITEM_OUTCOME_WORDS: Readonly<Record<Exclude<JobItemState, 'done'>, string>> = {
  failed: 'refused',
  unknown: 'unknown: sent, no answer came back',
  pending: 'not sent',
  sent: 'sent, no answer yet',
};
export const EXPIRY_UNREAD = 'Extended, but the new expiry could not be read back: look the key up to see it.';
/** An extend answered without the key, which could not be read back either. */
export const EXTENDED_UNREAD =
  'Extended. The service did not describe the key and it could not be read back: All keys still shows the expiry seen before, marked as not read back. Look the key up to refresh it.';

// ---- what a lookup found (import and refresh jobs) ---------------------------------------------------------

/** What an import found of a key: its item's code. */
export const IMPORT_FOUND = ['active', 'generated', 'absent'] as const;
export type ImportFound = (typeof IMPORT_FOUND)[number];
export const IMPORT_FOUND_WORDS: Readonly<Record<ImportFound, string>> = {
  active: 'found active',
  generated: 'found generated',
  absent: 'not on the service',
};

/** What a refresh found changed since the ledger last saw a key: its item's code lists them, comma-separated. */
export const REFRESH_CHANGES = ['activated', 'hwidChanged', 'hwidCleared', 'extended', 'deleted'] as const;
export type RefreshChange = (typeof REFRESH_CHANGES)[number];
export const REFRESH_CHANGE_WORDS: Readonly<Record<RefreshChange, { one: string; count: (k: number) => string }>> = {
  activated: { one: 'newly active', count: (k) => `${n(k)} newly active` },
  hwidChanged: { one: 'HWID changed', count: (k) => `${n(k)} ${k === 1 ? 'HWID' : 'HWIDs'} changed` },
  hwidCleared: { one: 'HWID cleared', count: (k) => `${n(k)} ${k === 1 ? 'HWID' : 'HWIDs'} cleared` },
  extended: { one: 'extended', count: (k) => `${n(k)} extended` },
  deleted: { one: 'deleted elsewhere', count: (k) => `${n(k)} deleted elsewhere` },
};

/** A refresh's result in counts: "12 newly active, 3 HWIDs changed, 1 deleted elsewhere", or "Nothing changed". */
export function refreshCountsWords(counts: Readonly<Record<RefreshChange, number>>): string {
  const said = REFRESH_CHANGES.filter((c) => counts[c] > 0).map((c) => REFRESH_CHANGE_WORDS[c].count(counts[c]));
  return said.length === 0 ? 'Nothing changed elsewhere' : said.join(', ');
}

/** One key's changes in words ("newly active, HWID changed"), from its item's code. */
export function refreshItemWords(changes: readonly RefreshChange[]): string {
  const words = changes.map((c) => REFRESH_CHANGE_WORDS[c].one).join(', ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---- why a job stopped --------------------------------------------------------------------------------------

export const STOPPED_WHILE_RUNNING = 'Keydesk stopped while this job ran.';
export const QUIT_WHILE_RUNNING = 'Keydesk quit while this job ran.';
/** A fresh job Keydesk quit under while it was starting (before its run began). */
export const QUIT_WHILE_STARTING =
  'Keydesk quit while this job was starting, before it sent anything: no key was sent. Resume it to send them.';
export const NO_API_KEY = 'No API key is available for this profile; enter it again, then resume.';
export const UNNOTED = 'The job stopped before sending them: nothing was sent unnoted.';

/**
 * A stop's reason with the way on once its cause is fixed, for what the run left: Resume when items were not sent,
 * else (only unknown ones left, which no Resume sends) the choice to send those again.
 */
export function whenFixed(reason: string, counts: Record<JobItemState, number>): string {
  if (counts.pending > 0) return `${reason} Resume the job when this is fixed.`;
  const unknown = counts.unknown + counts.sent;
  if (unknown === 0) return reason;
  return `${reason} When this is fixed, "Send the ${n(unknown)} unknown again…" sends them once more, if you choose to.`;
}

/** A cancel cut requests off on the wire: the service may have acted on each. */
export function cutOffWords(requests: number): string {
  const were = requests === 1 ? 'request was' : 'requests were';
  return `Cancelled: ${n(requests)} ${were} cut off before the service answered, so their outcome is unknown (each may have been applied).`;
}

/** The service was gone (that many requests in a row lost their connection); items sent keep their own words. */
export function unreachableWords(service: string, lost: number, counts: Record<JobItemState, number>): string {
  return goneWords(service, `${n(lost)} requests in a row got no answer (the connection failed)`, counts);
}

/** The service took requests and answered none: how many got no answer in time, and the probes among them. */
export function hungWords(
  service: string,
  hung: { requests: number; timedOut: number; probes: number },
  counts: Record<JobItemState, number>,
): string {
  const how =
    hung.timedOut === hung.requests
      ? 'got no answer in time'
      : `got no answer (${n(hung.timedOut)} timed out, ${n(hung.requests - hung.timedOut)} lost their connection)`;
  return goneWords(service, `${n(hung.requests)} requests in a row ${how}, the last ${n(hung.probes)} sent one at a time to check`, counts);
}

function goneWords(service: string, what: string, counts: Record<JobItemState, number>): string {
  const head = `${service} stopped answering: ${what}, so this job stopped sending.`;
  const left = counts.pending;
  if (left === 0) return whenFixed(head, counts);
  return `${head} The ${keyCount(left)} left ${left === 1 ? 'was' : 'were'} not sent (still pending): Resume the job once ${service} answers again.`;
}

// ---- why a job was refused ----------------------------------------------------------------------------------

export const JOB_NOT_FOUND = 'That job was not found for this profile.';
export const JOB_GONE = 'That job no longer exists.';
export const JOB_RUNNING = 'That job is already running.';
export const NO_MATCH = 'No keys match; nothing was sent.';
/** A reset over keys none of which the ledger shows as active. */
export const NOTHING_TO_RESET =
  "None of these keys is active as Keydesk's ledger shows them (they are generated or deleted), and only an active key has an HWID to reset: nothing was sent. A key a customer activated since Keydesk last saw it still shows as generated: look it up in Keys to refresh it, then reset it.";
export const STILL_RUNNING = 'That job is still running: cancel it and wait for it to end, then remove it.';
export const EXPORTING = "That job's results are being exported; wait for the export to finish, then remove it.";

/** A job of `action` refused while `other` runs for the profile (extend is not idempotent). */
export function conflictWords(action: JobAction, other: JobAction): string {
  const what = action === 'generate' ? 'A Generate job' : `A bulk ${JOB_ACTION_WORDS[other]} job`;
  return `${what} is already running for this profile; it may act on the same keys, so nothing was started. Wait for it to end or cancel it, then start again.`;
}

// Handlers for the vendor's book: customers of the active profile, their keys' links (made by hand, at generate, or
// from notes the user reviewed), the note template, and the book's export. Every change goes through the writer.
import type { CustomerChange, CustomerChanged, CustomerFields, CustomerRef, NoteLinkProposal } from '../../shared/customers.ts';
import { DEFAULT_NOTE_TEMPLATE } from '../../shared/customers.ts';
import { contactInNote } from '../../shared/note-links.ts';
import type { OperationName } from '../../shared/contract.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { unexpectedFailure } from '../failures.ts';
import type { LocalDb } from '../store/local-db.ts';
import type { StoredProfile } from '../store/profiles-file.ts';
import { bookEntries, bookRows, BOOK_COLUMNS } from './customer-exports.ts';
import { saveExport, stamp } from './ledger.ts';
import { needsProfile, type Handlers } from './types.ts';

type CustomerOps =
  | 'customers.list'
  | 'customers.get'
  | 'customers.create'
  | 'customers.update'
  | 'customers.merge'
  | 'customers.remove'
  | 'customers.link'
  | 'customers.unlink'
  | 'customers.proposeLinks'
  | 'customers.setTemplate'
  | 'customers.export';

const notFound = () => fail('NOT_FOUND', 'That customer is not in this service’s book (removed or merged meanwhile?).');
/** How an Activity entry names a customer, so the customer's page finds it (AuditFilter.customerId). */
const named = (name: string, id: number): string => `${name} (customer ${id})`;

/**
 * Makes a change on the writer's thread and records it in Activity as done or failed (a local change has no unknown
 * outcome). `target` names what it changed, from what it returned.
 */
async function changed<T>(
  core: Core,
  p: StoredProfile,
  action: OperationName,
  change: CustomerChange,
  answer: (r: CustomerChanged) => T,
  target: (r: CustomerChanged | null) => string,
): Promise<Result<T>> {
  let result: CustomerChanged;
  try {
    result = await core.writer.run('customers', { change });
  } catch (error) {
    const failure =
      error instanceof Error && /^No customer/.test(error.message) ? notFound() : unexpectedFailure('the change to the book', error);
    await audit(core, p, action, target(null), 'failed', failure.message);
    return failure;
  }
  await audit(core, p, action, target(result), 'ok', '');
  return ok(answer(result));
}

async function audit(core: Core, p: StoredProfile, action: OperationName, target: string, outcome: 'ok' | 'failed', message: string) {
  const entry = { profileId: p.id, profileName: p.name, action, target, outcome, message };
  await core.writer.run('audit', { entry }).catch((error: unknown) => {
    console.error(`keydesk: the audit entry for ${action} (${target}) could not be written:`, error);
  });
}

const keysWord = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'}`;

/** The ledger's keys held by no customer whose notes name someone, grouped by who: a customer of the book, or a new one. */
export function proposeLinks(db: LocalDb, profileId: string): { proposals: NoteLinkProposal[]; keys: number } {
  const groups = new Map<string, NoteLinkProposal>();
  let keys = 0;
  for (const { value, note } of db.unlinkedNotes(profileId)) {
    const who = contactInNote(note);
    if (who === null) continue;
    const contact = who.discordId || who.email.toLowerCase();
    let group = groups.get(contact);
    if (group === undefined) {
      const known = db.findCustomerByContact(profileId, who);
      const fields: CustomerFields = { name: who.name, email: who.email, discordId: who.discordId, reference: '', tags: [], note: '' };
      group = { contact, customer: known === null ? { fields } : { id: known.id, name: known.name }, keyValues: [], note };
      groups.set(contact, group);
    }
    group.keyValues.push(value);
    keys++;
  }
  return { proposals: [...groups.values()], keys };
}

export const customerHandlers = (core: Core): Pick<Handlers, CustomerOps> => ({
  'customers.list': needsProfile(core, ({ search, offset, limit }, p) => {
    const template = core.db.noteTemplate(p.id);
    const page = core.db.listCustomers(p.id, { search: search ?? '', offset: offset ?? 0, limit: limit ?? 200 });
    return ok({ ...page, noteTemplate: template ?? DEFAULT_NOTE_TEMPLATE, isDefault: template === null });
  }),

  'customers.get': needsProfile(core, ({ id }, p) => {
    const c = core.db.customer(p.id, id);
    return c === null ? notFound() : ok(c);
  }),

  'customers.create': needsProfile(core, (fields, p) =>
    changed(
      core,
      p,
      'customers.create',
      { op: 'create', profileId: p.id, fields, at: new Date().toISOString() },
      (r) => r.customer ?? must(),
      (r) => (r?.customer ? named(r.customer.name, r.customer.id) : fields.name),
    ),
  ),

  'customers.update': needsProfile(core, ({ id, fields }, p) =>
    changed(
      core,
      p,
      'customers.update',
      { op: 'edit', profileId: p.id, id, fields, at: new Date().toISOString() },
      (r) => r.customer ?? must(),
      () => named(fields.name, id),
    ),
  ),

  'customers.merge': needsProfile(core, ({ into, from }, p) => {
    const names = from.map((id) => core.db.customer(p.id, id)?.name ?? `customer ${id}`).join(', ');
    return changed(
      core,
      p,
      'customers.merge',
      { op: 'merge', profileId: p.id, into, from, at: new Date().toISOString() },
      (r) => ({ customer: r.customer ?? must(), keys: r.keys }),
      (r) => `${names} into ${named(r?.customer?.name ?? core.db.customer(p.id, into)?.name ?? '', into)}`,
    );
  }),

  'customers.remove': needsProfile(core, ({ id }, p) => {
    const name = core.db.customer(p.id, id)?.name ?? '';
    return changed(
      core,
      p,
      'customers.remove',
      { op: 'remove', profileId: p.id, id },
      (r) => ({ keys: r.keys }),
      () => named(name, id),
    );
  }),

  'customers.link': needsProfile(core, ({ links }, p) => {
    const values = links.reduce((n, l) => n + l.keyValues.length, 0);
    const one = links.length === 1 && links[0] !== undefined ? links[0].customer : null;
    return changed(
      core,
      p,
      'customers.link',
      {
        op: 'link',
        profileId: p.id,
        links: links.map((l) => ({ customer: l.customer, values: l.keyValues })),
        at: new Date().toISOString(),
      },
      (r) => ({ keys: r.keys, created: r.created, customer: r.customer }),
      (r) =>
        r?.customer
          ? `${keysWord(values)} to ${named(r.customer.name, r.customer.id)}`
          : `${keysWord(values)} to ${one === null ? `${links.length.toLocaleString('en-US')} customers` : 'a customer'}`,
    );
  }),

  'customers.unlink': needsProfile(core, ({ keyValues }, p) =>
    changed(
      core,
      p,
      'customers.unlink',
      { op: 'unlink', profileId: p.id, values: keyValues },
      (r) => ({ keys: r.keys }),
      () => (keyValues.length === 1 ? (keyValues[0] ?? '') : keysWord(keyValues.length)),
    ),
  ),

  // Read on a connection of its own: a pass over every note of the ledger is no work for main's.
  'customers.proposeLinks': needsProfile(core, async (_input, p) => {
    await core.writer.flushed();
    return ok(await core.db.withReader((db) => Promise.resolve(proposeLinks(db, p.id))));
  }),

  'customers.setTemplate': needsProfile(core, ({ template }, p) =>
    changed(
      core,
      p,
      'customers.setTemplate',
      { op: 'template', profileId: p.id, template },
      () => ({ noteTemplate: template ?? DEFAULT_NOTE_TEMPLATE, isDefault: template === null }),
      () => template ?? DEFAULT_NOTE_TEMPLATE,
    ),
  ),

  'customers.export': needsProfile(core, async ({ format }, p) => {
    await core.writer.flushed();
    const name = `keydesk-customers-${stamp()}.${format}`;
    return format === 'csv'
      ? saveExport(core, name, format, BOOK_COLUMNS, (db) => bookRows(db, p.id))
      : saveExport(core, name, format, [], (db) => bookEntries(db, p.id));
  }),
});

/**
 * A generate job's keys go to the customer the form picked, as the job records them (Activity says so as for a
 * generate of one request). The job runs whatever becomes of the link: a refused one is said in Activity.
 */
export async function linkGenerateJob(core: Core, p: StoredProfile, jobId: string, customer: CustomerRef): Promise<void> {
  const who = 'id' in customer ? (core.db.customer(p.id, customer.id)?.name ?? `customer ${customer.id}`) : customer.fields.name;
  await changed(
    core,
    p,
    'customers.link',
    { op: 'linkJob', profileId: p.id, jobId, customer, at: new Date().toISOString() },
    () => null,
    (r) => `the keys of generate job ${jobId} to ${r?.customer ? named(r.customer.name, r.customer.id) : who}`,
  );
}

/** A create, edit or merge always returns its customer. */
function must(): never {
  throw new Error('The book did not return the customer it changed.');
}

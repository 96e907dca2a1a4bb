// The vendor's book: a customer as Keydesk keeps it (locally, per profile, never sent to the service), and the
// note a customer's new keys get from the profile's template.
import type { KeyStatus } from './wire.ts';

/** A customer's own fields, as created or edited. discordId: a Discord user ID (17 to 20 digits) or ''. */
export interface CustomerFields {
  name: string;
  email: string;
  discordId: string;
  reference: string;
  tags: string[];
  note: string;
}

export interface Customer extends CustomerFields {
  id: number;
  createdAt: string;
  updatedAt: string;
}

/** Keys linked to a customer, by ledger status; `unrecorded`: linked, not (yet) in the ledger. */
export type CustomerKeyCounts = Record<KeyStatus | 'deleted' | 'unrecorded', number>;

export interface CustomerSummary extends Customer {
  keys: CustomerKeyCounts;
}

/** A customer named by id, or by fields: the profile's customer with the same Discord ID or email, else a new one. */
export type CustomerRef = { id: number } | { fields: CustomerFields };

/** A change to the book, made on the writer's thread in one transaction. */
export type CustomerChange =
  | { op: 'create'; profileId: string; fields: CustomerFields; at: string }
  | { op: 'edit'; profileId: string; id: number; fields: CustomerFields; at: string }
  | { op: 'merge'; profileId: string; into: number; from: number[]; at: string }
  | { op: 'remove'; profileId: string; id: number }
  | { op: 'link'; profileId: string; links: { customer: CustomerRef; values: string[] }[]; at: string }
  | { op: 'unlink'; profileId: string; values: string[] }
  | { op: 'template'; profileId: string; template: string | null }
  /** A generate job's keys go to the customer: those it recorded already, and each it records from now on. */
  | { op: 'linkJob'; profileId: string; jobId: string; customer: CustomerRef; at: string };

/** What a change did: the customer it made or left (create, edit, merge; a one-customer link), and keys it (un)linked. */
export interface CustomerChanged {
  customer: Customer | null;
  keys: number;
  /** Customers a link made (a CustomerRef by fields no customer had). */
  created: number;
}

/** The template a profile's notes start from until the user writes their own. */
export const DEFAULT_NOTE_TEMPLATE = '{name} (Discord: {discordId})';

const PLACEHOLDERS: Record<string, (c: CustomerFields) => string> = {
  name: (c) => c.name,
  email: (c) => c.email,
  discordId: (c) => c.discordId,
  reference: (c) => c.reference,
};

/**
 * The note `template` makes for `customer`: each {field} replaced by its value. A part in parentheses or brackets
 * whose fields are all empty goes, with the space before it, so a customer without a Discord ID gets "Ann", not "Ann (Discord: )".
 */
export function fillNote(template: string, customer: CustomerFields): string {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (whole, name: string) => PLACEHOLDERS[name]?.(customer) ?? whole);
  const emptyGroups = template.replace(/\s*[([][^()[\]]*[)\]]/g, (group) => {
    const fields = [...group.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
    return fields.length > 0 && fields.every((f) => (PLACEHOLDERS[f]?.(customer) ?? '') === '') ? '' : group;
  });
  return fill(emptyGroups).trim();
}

/** Keys whose notes name the same person, not linked yet, and who they would go to: a customer of the book, or a new one. */
export interface NoteLinkProposal {
  /** The customer's Discord ID or email, as found: what groups the keys. */
  contact: string;
  customer: { id: number; name: string } | { fields: CustomerFields };
  keyValues: string[];
  /** One of their notes, as written. */
  note: string;
}

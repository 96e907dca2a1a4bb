// Note recognition (src/shared/note-links.ts) on a corpus of both conventions vendors' bots write: every note naming
// a customer is linked to the right ID or address and name; no note without one is linked.
import { describe, expect, it } from 'vitest';
import { contactInNote } from '../../src/shared/note-links.ts';

const ID = '123456789012345678';
const ID2 = '987654321098765432';
const ID20 = '10000000000000000001';

/** Notes naming a customer, and who: the `Name (Discord: …)` convention, the `user.id …` one, bare IDs and addresses. */
const LINKED: [string, { name: string; discordId: string; email: string }][] = [
  [`Ann Lee (Discord: ${ID})`, { name: 'Ann Lee', discordId: ID, email: '' }],
  [`Ann Lee (discord:${ID})`, { name: 'Ann Lee', discordId: ID, email: '' }],
  [`Bob [Discord ID: ${ID2}]`, { name: 'Bob', discordId: ID2, email: '' }],
  [`Discord: ${ID}`, { name: `Discord ${ID}`, discordId: ID, email: '' }],
  [`user.id ${ID}`, { name: `Discord ${ID}`, discordId: ID, email: '' }],
  [`user.id: ${ID2} - Carl`, { name: 'Carl', discordId: ID2, email: '' }],
  [`Dana | user_id=${ID}`, { name: 'Dana', discordId: ID, email: '' }],
  [`sold to <@${ID2}>`, { name: 'sold to', discordId: ID2, email: '' }],
  [`sold to <@!${ID}> monthly`, { name: 'sold to monthly', discordId: ID, email: '' }],
  [ID, { name: `Discord ${ID}`, discordId: ID, email: '' }],
  [`Eve ${ID2}`, { name: 'Eve', discordId: ID2, email: '' }],
  [`Eve, ${ID20}`, { name: 'Eve', discordId: ID20, email: '' }],
  ['fay@example.com', { name: 'fay', discordId: '', email: 'fay@example.com' }],
  ['Fay Wu <fay.wu+keys@mail.example.co.uk>', { name: 'Fay Wu', discordId: '', email: 'fay.wu+keys@mail.example.co.uk' }],
  [`Gus (Discord: ${ID}) gus@example.org`, { name: 'Gus', discordId: ID, email: 'gus@example.org' }],
];

/** Notes naming no one: batches, dates, orders, numbers too short, too long or not a Discord ID, addresses without a domain. */
const UNLINKED = [
  '',
  'launch batch',
  'beta testers',
  'Generated 2026-11-29T10:00:00Z',
  'order 12345',
  'order #2026112900001',
  'timestamp 1732900000000',
  'card 4111111111111111',
  `id 1${ID20}`,
  `KD-${ID}`,
  `${ID}-ABC`,
  `v${ID}`,
  `two ids ${ID} and ${ID2}`,
  '00000000000000000000',
  'mail me at admin@localhost',
  'see user.id in the dashboard',
  'Discord: pending',
  'price 99.95 EUR',
];

describe('contactInNote', () => {
  it.each(LINKED)('links %j', (note, who) => {
    expect(contactInNote(note)).toEqual(who);
  });

  it.each(UNLINKED)('links nothing in %j', (note) => {
    expect(contactInNote(note)).toBeNull();
  });

  it('links every corpus note naming someone, and none of the rest', () => {
    const notes = [...LINKED.map(([n]) => n), ...UNLINKED];
    expect(notes.filter((n) => contactInNote(n) !== null)).toEqual(LINKED.map(([n]) => n));
  });
});

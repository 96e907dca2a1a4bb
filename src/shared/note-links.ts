// Who a key's note names: the Discord ID or email address vendors' tools write into notes ("Ann (Discord: 1234…)",
// "user.id 1234…", a bare ID, an address), and the name around it, so existing keys can be linked to customers.

/** A customer named by a note: a Discord ID (17 to 20 digits) or an email address, or both; `name` never empty. */
export interface NoteContact {
  name: string;
  discordId: string;
  email: string;
}

/** A Discord ID after its label: "Discord: …", "Discord ID …", "user.id …", "uid=…", or a mention "<@…>". */
const LABELLED = /(?:\bdiscord(?:[\s_-]*id)?|\buser[._]?id|\buid)\s*[:=#-]?\s*<?@?!?(\d{17,20})(?!\d)|<@!?(\d{17,20})>/i;
/** A bare ID: 17 to 20 digits standing alone (not inside a longer number, a word or a key value). */
const BARE = /(?<![\w.-])(\d{17,20})(?![\w-]|\.\d)/g;
const EMAIL = /(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/;
/** Discord counts its IDs' time from 2015-01-01; an ID's time past this is no Discord ID (a long number, say). */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
const LATEST_ID_MS = Date.UTC(2100, 0, 1);

/** Whether a digit string can be a Discord ID: its time (its top bits) after Discord began and before 2100. */
function isSnowflake(digits: string): boolean {
  const id = BigInt(digits);
  if (id >= 1n << 64n) return false;
  const ms = (id >> 22n) + DISCORD_EPOCH_MS;
  return ms > DISCORD_EPOCH_MS && ms < BigInt(LATEST_ID_MS);
}

/** The note with the ID's and address's words taken out, its leftover brackets and separators trimmed: the name. */
function nameIn(note: string, cut: readonly string[]): string {
  let rest = note;
  for (const part of cut) rest = rest.replace(part, ' ');
  rest = rest
    .replace(/\(\s*\)|\[\s*\]|<\s*>|\{\s*\}/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:;,|/\\()[\]<>{}=#-]+|[\s:;,|/\\()[\]<>{}=#-]+$/g, '')
    .trim();
  return rest;
}

/** The contact a note names, or null when it names none. */
export function contactInNote(note: string): NoteContact | null {
  const cut: string[] = [];
  let discordId = '';
  const labelled = LABELLED.exec(note);
  const labelledId = labelled?.[1] ?? labelled?.[2];
  if (labelled !== null && labelledId !== undefined && isSnowflake(labelledId)) {
    discordId = labelledId;
    cut.push(labelled[0]);
  } else {
    // A bare ID counts only when it is the note's one long number: two of them name no one for sure.
    const bare = [...note.matchAll(BARE)].map((m) => m[1] ?? '').filter(isSnowflake);
    if (bare.length === 1 && bare[0] !== undefined) {
      discordId = bare[0];
      cut.push(discordId);
    }
  }
  const email = EMAIL.exec(note)?.[0] ?? '';
  if (email !== '') cut.push(email);
  if (discordId === '' && email === '') return null;
  const name = nameIn(note, cut) || (email !== '' ? (email.split('@')[0] ?? email) : `Discord ${discordId}`);
  return { name, discordId, email };
}

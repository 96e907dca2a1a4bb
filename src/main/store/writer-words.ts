// The writer's failures in words, for the ledger view and the audit log: SQLite's raw text goes to main's log only.
import type { Key } from '../../shared/domain.ts';
import { diskFullWords } from '../failures.ts';

/** A queued write with rows not recorded: what it was, how big, how many failed, SQLite's first result code. */
export interface FailedWrite {
  payload: { kind: 'keys' | 'held' } | { kind: 'deleted' | 'hwidCleared'; value: string } | { kind: 'reported'; key: Key };
  size: number;
  failed: number;
  firstError: number | null | undefined;
}

/** Not an SQLite code: close() ran out of time with the write still queued. */
export const QUIT = -1;

/** Why SQLite refused a chunk, by its primary result code; the raw text goes to main's log only. */
function reasonWords(errcode: number | null | undefined, folder: string): string {
  if (errcode === null || errcode === undefined) return 'the ledger writer stopped unexpectedly';
  if (errcode === QUIT) return 'Keydesk quit before they were written';
  switch (errcode & 0xff) {
    case 13: // SQLITE_FULL
      return diskFullWords(folder);
    case 8: // SQLITE_READONLY
      return 'the ledger file cannot be written';
    case 10: // SQLITE_IOERR
      return 'the disk refused the write';
    case 11: // SQLITE_CORRUPT
    case 26: // SQLITE_NOTADB
      return 'the ledger file is damaged';
    default:
      return 'the ledger database refused the write';
  }
}

/** `folder`: keydesk.db's, named when the disk is full. */
export function failureWords(op: FailedWrite, folder: string): string {
  const reason = reasonWords(op.firstError, folder);
  switch (op.payload.kind) {
    case 'keys':
    case 'held': {
      const keys = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'}`;
      const what = op.failed === op.size ? keys(op.size) : `${op.failed.toLocaleString('en-US')} of ${keys(op.size)}`;
      return `${what} could not be recorded in the ledger: ${reason}. The service has them: look them up in Keys to bring them into the ledger.`;
    }
    case 'deleted':
      return `The ledger could not mark ${op.payload.value} deleted: ${reason}. The service deleted it.`;
    case 'hwidCleared':
      return `The ledger could not record that ${op.payload.value} has no HWID now: ${reason}. The service reset it.`;
    case 'reported':
      return `The ledger could not record the change to ${op.payload.key.value}: ${reason}. The service has it.`;
  }
}

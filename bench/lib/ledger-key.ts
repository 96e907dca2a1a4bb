// A Key as the ledger cases record it: the fields they vary given, the rest as a generated key reports them.
import type { Key } from '../../src/shared/domain.ts';

export function ledgerKey(value: string, fields: Partial<Key>): Key {
  return {
    id: '',
    value,
    note: '',
    status: 'generated',
    isPremium: false,
    expire: null,
    expiresByDaysKey: false,
    daysKey: null,
    expiresAt: null,
    hwid: null,
    createdAt: null,
    activatedAt: null,
    lastResetAt: null,
    serviceId: 'svc',
    ...fields,
  };
}

import type { AccountType } from '../../domain/double-entry.ts';

/** An account of the chart: what every posting, balance and report names. */
export interface Account {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  description: string | null;
  isActive: boolean;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Names are unique per user ignoring case: two names are the same account's when their keys are. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

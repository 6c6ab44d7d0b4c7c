import type { Minor } from '../../domain/money.ts';
import type { ScoreBreakdown } from '../../domain/reconciliation/index.ts';

/** A stored match of a bank line with an entry, and a finished reconciliation of an account to its bank. */
export interface Match {
  id: string;
  runId: string | null;
  bankTransactionId: string;
  entryId: string;
  status: string;
  score: number;
  breakdown: ScoreBreakdown;
  version: number;
  supersededById: string | null;
  createdAt: string;
  updatedAt: string;
  acceptedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}

export interface Reconciliation {
  id: string;
  accountId: string;
  statementDate: string;
  statementBalanceMinor: Minor;
  lineCount: number;
  createdAt: string;
}

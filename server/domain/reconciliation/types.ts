/**
 * Shapes shared by the reconciliation domain. Money is integer minor units (`bigint`) plus the
 * currency's minor-unit digits, passed separately; dates are ISO `YYYY-MM-DD` text.
 *
 * The literal unions below are the same as those in `server/domain/double-entry.ts`; they are
 * spelt out here so that this folder stays self-contained (structurally they are identical).
 */

export type AccountType = 'ASSET' | 'LIABILITY' | 'EQUITY' | 'INCOME' | 'EXPENSE';
export type Direction = 'DEBIT' | 'CREDIT';

/** A bank statement row. `type` is as the bank says it: `debit` = money out, `credit` = money in. */
export interface BankTxn {
  readonly id: string;
  /** `YYYY-MM-DD` */
  readonly date: string;
  readonly description: string;
  /** Positive magnitude in minor units (the sign, if any, is ignored: `type` carries it). */
  readonly amountMinor: bigint;
  readonly type: 'debit' | 'credit';
}

/** The line(s) of an entry on the statement's account, netted into one (see `netAccountLines`). */
export interface AccountLine {
  readonly direction: Direction;
  /** Magnitude in minor units. */
  readonly amountMinor: bigint;
}

export interface CounterAccount {
  readonly id: string;
  readonly type: AccountType;
}

/** A posted journal entry that may match a bank transaction. */
export interface CandidateEntry {
  readonly id: string;
  /** `YYYY-MM-DD` */
  readonly entryDate: string;
  readonly memo: string | null;
  readonly accountLine: AccountLine;
  /** The accounts of the entry's other lines (one item per line or per distinct account). */
  readonly counterAccounts: readonly CounterAccount[];
}

/** Each dimension is an integer 0..100. */
export interface ScoreBreakdown {
  readonly amount: number;
  readonly date: number;
  readonly description: number;
  readonly business: number;
  readonly history: number;
}

export type MatchStatus = 'auto_accepted' | 'pending_review' | 'unmatched';

export interface Thresholds {
  /** total ≥ autoAccept → `auto_accepted` */
  readonly autoAccept: number;
  /** review ≤ total < autoAccept → `pending_review`; below → unmatched */
  readonly review: number;
}

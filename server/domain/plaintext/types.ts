import type { AccountType, Direction } from '../double-entry.ts';
import type { Minor } from '../money.ts';

/** The plain-text accounting formats we read and write. */
export const JOURNAL_FORMATS = ['ledger', 'hledger', 'beancount'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];
export const EXPORT_FORMATS = [...JOURNAL_FORMATS, 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An account as the writers and the path book see it. */
export interface BookAccount {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  parentId: string | null;
  isActive: boolean;
}

export interface BookLine {
  accountId: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  /** an exchange: what the line cost in another currency */
  cost?: { amountMinor: Minor; currency: string } | null;
  /** a line on a currency trading account that the server adds for an exchange */
  automatic?: boolean;
  /** A trade's units of a security on this line, in place of its money (docs/investments.md "Interop"). */
  units?: readonly BookUnits[];
}

/**
 * Units of a security bought into a lot (positive) or sold from one (negative); the line's money is
 * their cost. A line's units together cost what the line's amount says.
 */
export interface BookUnits {
  symbol: string;
  /** signed atoms of 10^-8 unit */
  atoms: bigint;
  /** the lot's purchase date */
  lotDate: string;
  /** the lot's cost per unit: exact decimal text, or rounded to 10 decimals when it has no exact one */
  unitCost: string;
  /** whether |atoms| × unitCost is exactly costMinor */
  exact: boolean;
  /** what these units cost in the line's currency, minor units, positive */
  costMinor: bigint;
  /** a sale's price per unit; null for a purchase */
  price: string | null;
}

/** A posted (or voided) entry in history order. */
export interface BookEntry {
  id: string;
  date: string;
  memo: string | null;
  status: 'posted' | 'void';
  /** The reversal of a voided entry, or the entry a reversal reverses. */
  reversalEntryId: string | null;
  reversesEntryId: string | null;
  lines: BookLine[];
  /** Files attached to the entry, as paths relative to the journal (an export with its files). */
  documents?: readonly string[];
}

export interface Book {
  accounts: BookAccount[];
  entries: BookEntry[];
  prices?: BookPrice[];
}

/** Where a writer puts its lines, one at a time: an array, or pieces of a download as they fill. */
export interface LineSink {
  push(line: string): unknown;
}

/** A posting as read from a file: signed amount (debit positive), or none (it takes the balancing amount). */
export interface ParsedPosting {
  line: number;
  account: string;
  amount: { minor: Minor; currency: string } | null;
  /** What the amount cost in another currency (`@@ TOTAL`, or `@ UNIT` worked out exactly): positive. */
  cost?: { minor: Minor; currency: string } | null;
  /** Marked by our export as a line the server adds for an exchange (`automatic: trading`). */
  automatic?: boolean;
  /** A security's units times their cost per unit, rounded to the currency's minor unit (amounts.ts). */
  rounded?: boolean;
  /** A security's units, when the amount is their cost (docs/investments.md "Interop"). */
  units?: ParsedUnits;
}

/** A posting's units of a security as written: what the import books as a trade. */
export interface ParsedUnits {
  symbol: string;
  /** signed atoms of 10^-8 unit: a buy positive, a sale negative */
  atoms: bigint;
  /** the lot's date (beancount `{…, 2024-01-05}`, ledger `[2024-01-05]`) */
  lotDate: string | null;
  /** the cost per unit as written (`{210.50 USD}`, hledger `@ 210.50 USD`); null for a total cost */
  unitCost: string | null;
  /** a sale's price per unit (`@ 250 USD` after a lot's cost) */
  price: string | null;
}

/** A market price: one `from` is worth `rate` (10^-12 units) of `to` on `date`. */
interface ParsedPrice {
  line: number;
  date: string;
  from: string;
  to: string;
  rateScaled: bigint;
}

/** A price as the writers take it. */
export interface BookPrice {
  date: string;
  from: string;
  to: string;
  /** decimal text, at most 12 decimals */
  rate: string;
}

export interface ParsedTransaction {
  line: number;
  date: string;
  memo: string | null;
  postings: ParsedPosting[];
  /** Our export's `id`, `voided-by` and `reverses` marks: a voided entry and its reversal are linked again on import. */
  marks?: { id?: string; voidedBy?: string; reverses?: string };
}

/** `account` / `open` declarations, with what they say about the account. */
export interface ParsedAccount {
  line: number;
  path: string;
  /** Our own `name:` metadata: the exact account name behind a transliterated path. */
  name: string | null;
  /** Currencies the declaration names (beancount's constraint, or our `currency:` hint). */
  currencies: string[];
}

interface ParsedClose {
  line: number;
  path: string;
}

export interface ParsedJournal {
  accounts: ParsedAccount[];
  transactions: ParsedTransaction[];
  closes: ParsedClose[];
  /** `P` directives (ledger, hledger) and `price` directives (beancount) */
  prices: ParsedPrice[];
  /** The securities' prices (docs/investments.md "Interop"): read and checked, not imported. */
  securityPrices?: { line: number; date: string; symbol: string; price: string; currency: string }[];
  /** beancount `option "operating_currency"`: the currency of accounts nothing else tells. */
  operatingCurrency: string | null;
}

/** A transaction resolved to lines of our model: positive amounts with a direction. */
export interface ResolvedLine {
  line: number;
  account: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  cost: { amountMinor: Minor; currency: string } | null;
  automatic: boolean;
  units: ParsedUnits | null;
}

import type { AccountDto, BookingChoice, UnmatchedItemDto } from '../../api/index.ts';
import { formatMinor, parseAmount, plainAmount } from '../../../../server/contract/money.ts';

/**
 * What the review list holds for a bank line while a person works on it, and the booking it sends:
 * one account, or the line split into parts; for an account in another currency than the bank
 * line's, the amount in that currency (looked up from the rate table, or typed).
 */

/** A part in the account's currency: as the rate table gave it, or as the person typed it. */
export interface Converted {
  text: string;
  /** typed by the person: a new look-up no longer replaces it */
  edited: boolean;
}

export interface SplitPart {
  key: number;
  accountId: string;
  /** in the bank line's currency, as typed */
  amount: string;
  converted: Converted;
}

export interface LineChoice {
  accountId: string;
  memo: string;
  selected: boolean;
  converted: Converted;
  /** the parts when the line is split, else null */
  splits: SplitPart[] | null;
}

export const NOT_CONVERTED: Converted = { text: '', edited: false };

let nextKey = 1;
export function splitPart(accountId = '', amount = ''): SplitPart {
  return { key: nextKey++, accountId, amount, converted: NOT_CONVERTED };
}

/** A line's first choice: a rule's split, else the preselected account (chosen for booking), else none. */
export function firstChoice(item: UnmatchedItemDto): LineChoice {
  const splits = item.preselected_splits?.map((s) => splitPart(s.account_id, s.amount)) ?? null;
  const accountId = item.preselected_account_id ?? '';
  return {
    accountId: splits ? '' : accountId,
    memo: item.transaction.description,
    selected: splits !== null || accountId !== '',
    converted: NOT_CONVERTED,
    splits,
  };
}

/**
 * The split parts' sum against the line: what is left to book (negative: too much), in minor units;
 * a part with no amount yet counts as nothing; null while a part's amount cannot be read.
 */
export function splitRest(lineAmount: string, currency: string, splits: readonly SplitPart[]): bigint | null {
  const line = parseAmount(lineAmount, currency);
  if (!('minor' in line)) return null;
  let rest = line.minor;
  for (const part of splits) {
    if (!part.amount.trim()) continue;
    const read = parseAmount(plainAmount(part.amount), currency);
    if (!('minor' in read)) return null;
    rest -= read.minor;
  }
  return rest;
}

export function restText(rest: bigint, currency: string): string {
  return formatMinor(rest < 0n ? -rest : rest, currency);
}

/** The amount in the account's currency to send: only for an account in another currency, once there is one. */
function convertedOf(
  converted: Converted,
  account: AccountDto | undefined,
  currency: string,
): { converted_amount?: string } {
  if (!account || account.currency === currency || !converted.text.trim()) return {};
  return { converted_amount: plainAmount(converted.text) };
}

/**
 * The booking a choice sends, or null while it cannot be booked: no account chosen, or a split
 * with a part missing its account or amount, or parts that do not add up to the line exactly.
 */
export function bookingOf(
  choice: LineChoice,
  tx: UnmatchedItemDto['transaction'],
  accounts: ReadonlyMap<string, AccountDto>,
): BookingChoice | null {
  const memo = choice.memo.trim();
  const withMemo = memo ? { memo } : {};
  if (choice.splits) {
    const incomplete = choice.splits.some((p) => !p.accountId || !p.amount.trim());
    if (incomplete || splitRest(tx.amount, tx.currency, choice.splits) !== 0n) return null;
    return {
      ...withMemo,
      splits: choice.splits.map((p) => ({
        account_id: p.accountId,
        amount: plainAmount(p.amount),
        ...convertedOf(p.converted, accounts.get(p.accountId), tx.currency),
      })),
    };
  }
  if (!choice.accountId) return null;
  return {
    ...withMemo,
    account_id: choice.accountId,
    ...convertedOf(choice.converted, accounts.get(choice.accountId), tx.currency),
  };
}

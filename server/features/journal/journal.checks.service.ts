import type { LedgerDb } from '../../db/stores.ts';
import type { LineInput } from '../../contract/journal.ts';
import { FIELD_MESSAGES, tooManyDecimals } from '../../contract/limits.ts';
import { unbalancedCurrencies } from '../../domain/double-entry.ts';
import { tradingLines, weightImbalances, type Cost } from '../../domain/exchange.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseAmount, type AmountProblem } from '../../domain/money.ts';
import { accountsByIds } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { tradingAccount } from '../exchange/trading-accounts.ts';
import type { NewLine } from './journal.writes.repository.ts';

// The checks every entry's lines pass: accounts, currencies, amounts, balance, active accounts.

const AMOUNT_MESSAGES: Record<AmountProblem, (currency: string) => string> = {
  format: () => FIELD_MESSAGES.amount,
  digits: tooManyDecimals,
  zero: () => FIELD_MESSAGES.zero,
  too_large: () => FIELD_MESSAGES.tooLarge,
};

export interface CheckedLine extends NewLine {
  account: Account;
}

/**
 * Checks lines as every entry must be: at least two, on existing accounts, in each account's
 * currency, amounts exact to the currency's digits, accounts active, and (unless it is a draft
 * being saved: `balanced: false`) balanced per currency.
 */
export function checkLines(
  db: LedgerDb,
  lines: readonly LineInput[],
  { balanced = true }: { balanced?: boolean } = {},
): CheckedLine[] {
  if (lines.length < 2) throw new DomainError('TOO_FEW_LINES', 'An entry needs at least 2 lines');
  const accounts = accountsByIds(
    db,
    lines.map((l) => l.account_id),
  );
  const missing: FieldError[] = [];
  const mismatched: FieldError[] = [];
  const badAmounts: FieldError[] = [];
  const checked: CheckedLine[] = [];
  lines.forEach((line, i) => {
    const account = accounts.get(line.account_id);
    if (!account) {
      missing.push({ field: `lines.${i}.account_id`, message: 'no such account' });
      return;
    }
    const currency = line.currency ?? account.currency;
    if (currency !== account.currency) {
      mismatched.push({
        field: `lines.${i}.currency`,
        message: `the account ${account.name} is in ${account.currency}`,
      });
      return;
    }
    const parsed = parseAmount(line.amount, currency);
    if ('problem' in parsed) {
      badAmounts.push({ field: `lines.${i}.amount`, message: AMOUNT_MESSAGES[parsed.problem](currency) });
      return;
    }
    let cost: Cost | null = null;
    if (line.cost) {
      if (line.cost.currency === currency) {
        badAmounts.push({
          field: `lines.${i}.cost.currency`,
          message: `must differ from the line's currency ${currency}`,
        });
        return;
      }
      const parsedCost = parseAmount(line.cost.amount, line.cost.currency);
      if ('problem' in parsedCost) {
        badAmounts.push({
          field: `lines.${i}.cost.amount`,
          message: AMOUNT_MESSAGES[parsedCost.problem](line.cost.currency),
        });
        return;
      }
      cost = { amountMinor: parsedCost.minor, currency: line.cost.currency };
    }
    checked.push({
      accountId: account.id,
      direction: line.direction,
      amountMinor: parsed.minor,
      currency,
      cost,
      account,
    });
  });
  if (missing.length > 0)
    throw new DomainError('INVALID_ACCOUNT', `Line ${missing[0]!.field} names an account that does not exist`, missing);
  if (mismatched.length > 0)
    throw new DomainError('CURRENCY_MISMATCH', `A line's currency differs from its account's`, mismatched);
  if (badAmounts.length > 0)
    throw new DomainError(
      'VALIDATION_ERROR',
      `Invalid body: ${badAmounts[0]!.field} ${badAmounts[0]!.message}`,
      badAmounts,
    );
  return completeLines(db, checked, { balanced });
}

/** Lines whose amounts are read, with their exchanges' automatic lines added, checked for saving. */
export function completeLines(
  db: LedgerDb,
  checked: CheckedLine[],
  { balanced }: { balanced: boolean },
): CheckedLine[] {
  if (balanced) assertWeightsBalance(checked);
  const withTrading = [...checked, ...tradingLinesOf(db, checked)];
  if (balanced) assertPostable(withTrading);
  else assertActive(withTrading);
  return withTrading;
}

/**
 * The automatic lines of an entry's exchanges, on each currency's trading account. `accountOf`
 * finds (or plans) a currency's trading account; by default it is found or created in the ledger.
 */
export function tradingLinesOf(
  db: LedgerDb,
  lines: readonly CheckedLine[],
  accountOf: (currency: string) => Account = (currency) => tradingAccount(db, currency),
): CheckedLine[] {
  return tradingLines(lines).map((t) => {
    const account = accountOf(t.tradingCurrency);
    return {
      accountId: account.id,
      direction: t.direction,
      amountMinor: t.amountMinor,
      currency: t.currency,
      cost: t.cost,
      automatic: true,
      account,
    };
  });
}

function describeImbalance(unbalanced: readonly { currency: string; imbalance: bigint }[]): string {
  return unbalanced
    .map(
      ({ currency, imbalance }) =>
        `${currency} ${imbalance > 0n ? 'debits exceed credits' : 'credits exceed debits'} by ${formatMinor(imbalance < 0n ? -imbalance : imbalance, currency)}`,
    )
    .join('; ');
}

/** An entry with exchanges balances by weight: each costed line counts as its cost. */
export function assertWeightsBalance(lines: readonly CheckedLine[]): void {
  const unbalanced = weightImbalances(lines);
  if (unbalanced.length > 0) {
    throw new DomainError(
      'UNBALANCED',
      `Debits do not equal credits: ${describeImbalance(unbalanced)}${lines.some((l) => l.cost) ? ' (a line with a cost counts as its cost)' : ''}`,
    );
  }
}

function assertActive(lines: readonly CheckedLine[]): void {
  const inactive = lines.filter((l) => !l.account.isActive);
  if (inactive.length > 0) {
    throw new DomainError('INACTIVE_ACCOUNT', `The account ${inactive[0]!.account.name} is deactivated`);
  }
}

/** What posting re-checks: every account active and the lines balanced per currency. */
export function assertPostable(lines: readonly CheckedLine[]): void {
  assertActive(lines);
  const unbalanced = unbalancedCurrencies(lines);
  if (unbalanced.length > 0) {
    throw new DomainError('UNBALANCED', `Debits do not equal credits: ${describeImbalance(unbalanced)}`);
  }
}

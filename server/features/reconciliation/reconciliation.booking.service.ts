import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type { JournalEntryDto, LineInput } from '../../contract/journal.ts';
import type { BookingChoice } from '../../contract/reconciliation.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { formatMinor, parseAmount, type Minor } from '../../domain/money.ts';
import {
  scorePair,
  type PayeeModel,
  type Rule,
  type RuleSet,
  type Thresholds,
} from '../../domain/reconciliation/index.ts';
import { parsePercent, splitByShares } from '../../domain/splits.ts';
import { accountsByIds, findAccount } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { createEntry, getEntry } from '../journal/journal.service.ts';
import { convertOnDay, missingRate } from '../prices/rate-book.ts';
import { ruleSetOf } from '../rules/rules.service.ts';
import { findBankTransaction, findStatement } from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import { toMatchDto } from './reconciliation.dto.ts';
import { insertMatch, liveMatchOfTransaction, matchView } from './reconciliation.matches.repository.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { payeeModel, type KeptPayeeModels } from './reconciliation.payees.service.ts';
import { unmatchedTransactionsOfStatement } from './reconciliation.unmatched.repository.ts';

/**
 * Booking a bank line with no entry: one posted entry (source_type reconciliation, made through the
 * journal: the one call reconciliation makes into it) and an accepted match for it, which the payee
 * model learns. The line goes to one account or is split across several, the parts summing to it
 * exactly. A part on an account in another currency than the bank account's is an exchange
 * (CONTRACT §16): the counter line is in the account's currency and states the part as its cost,
 * so the journal adds the trading accounts' lines; its amount is the one given, else the part at
 * the rate table's rate of the line's date, and without such a rate the booking is refused
 * (MISSING_RATE), never guessed.
 */

/** One part of a booking as asked for: its account, its amount in the bank's currency, and where a fault is named. */
interface AskedPart {
  accountId: string;
  amountMinor: Minor;
  /** the part in the account's currency, as given (only for an account in another currency) */
  converted?: string | undefined;
  /** the request's field of this part: `account_id` or `splits.N` (…`.account_id`, `.amount`, `.converted_amount`) */
  field: string;
}

/** A part ready to book: the account and the counter line's amount in its currency, with the cost where it is an exchange. */
interface Part {
  account: Account;
  amountMinor: Minor;
  /** the part in the account's currency when it differs from the bank's */
  convertedMinor: Minor | null;
}

export function createEntryForBankTransaction(
  db: LedgerDb,
  txnId: string,
  choice: BookingChoice,
  thresholds: Thresholds,
  payeeModels: KeptPayeeModels,
) {
  return db.transaction(() => {
    const txn = findBankTransaction(db, txnId);
    if (!txn) throw new DomainError('NOT_FOUND', 'Bank transaction not found');
    const bank = findAccount(db, txn.accountId)!;
    const booked = book(
      db,
      txn,
      bank,
      askedParts(txn, bank, choice),
      choice.memo ?? txn.description,
      { model: payeeModels.modelOf(db), learns: false },
      thresholds,
    );
    // read again: the match has cleared its line on the bank account
    return { entry: getEntry(db, booked.entry.id), match: toMatchDto(matchView(db, booked.matchId)!) };
  });
}

/** The parts a request asks for: one account taking the whole line, or the splits, read in the bank's currency. */
function askedParts(txn: BankTransaction, bank: Account, choice: Omit<BookingChoice, 'memo'>): AskedPart[] {
  if (choice.account_id !== undefined)
    return [
      { accountId: choice.account_id, amountMinor: txn.amountMinor, converted: choice.converted_amount, field: '' },
    ];
  const parts = choice.splits!.map((split, i): AskedPart => {
    const field = `splits.${i}.`;
    const read = parseAmount(split.amount, bank.currency);
    if ('problem' in read)
      throw new DomainError('VALIDATION_ERROR', `Invalid body: ${field}amount is not an amount of ${bank.currency}`, [
        {
          field: `${field}amount`,
          message: `must be an amount of ${bank.currency} above zero, with at most its decimals`,
        },
      ]);
    return { accountId: split.account_id, amountMinor: read.minor, converted: split.converted_amount, field };
  });
  const sum = parts.reduce((s, p) => s + p.amountMinor, 0n);
  if (sum !== txn.amountMinor) {
    const line = `${formatMinor(txn.amountMinor, bank.currency)} ${bank.currency}`;
    const gap = txn.amountMinor - sum;
    const rest = `${formatMinor(gap < 0n ? -gap : gap, bank.currency)} ${gap < 0n ? 'too much' : 'left to book'}`;
    throw new DomainError(
      'UNBALANCED',
      `The splits add up to ${formatMinor(sum, bank.currency)} ${bank.currency}; the bank line is ${line} (${rest})`,
      [{ field: 'splits', message: `must add up to ${line} exactly (${rest})` }],
    );
  }
  return parts;
}

/**
 * The parts a rule books a line into: its splits in their order (a fixed amount, or a percentage
 * rounded half to even), then its own account taking the rest, which also carries the rounding.
 */
function ruleParts(rule: Rule, txn: BankTransaction, currency: string): AskedPart[] {
  const splits = rule.splits ?? [];
  if (splits.length === 0) return [{ accountId: rule.accountId, amountMinor: txn.amountMinor, field: '' }];
  const shares = splits.map((s) => {
    if (s.percent !== null) return { percentScaled: parsePercent(s.percent)! };
    const read = parseAmount(s.amount!, currency);
    if ('problem' in read)
      throw new DomainError('VALIDATION_ERROR', `its part of ${s.amount} is not an amount of ${currency}`);
    return { amountMinor: read.minor };
  });
  const { parts, rest } = splitByShares(txn.amountMinor, shares);
  if (parts.some((p) => p <= 0n) || rest <= 0n)
    throw new DomainError(
      'VALIDATION_ERROR',
      `its parts of ${formatMinor(txn.amountMinor, currency)} ${currency} leave ${rest <= 0n ? 'nothing' : 'a part of zero'} for an account`,
    );
  return [
    ...splits.map((s, i) => ({ accountId: s.accountId, amountMinor: parts[i]!, field: '' })),
    { accountId: rule.accountId, amountMinor: rest, field: '' },
  ];
}

function fieldError(code: string, detail: string, field: string, message: string): DomainError {
  return new DomainError(code, detail, [{ field, message }]);
}

/** The parts checked: accounts that can take them, and each part's amount in its account's currency. */
function checkedParts(db: LedgerDb, txn: BankTransaction, bank: Account, asked: readonly AskedPart[]): Part[] {
  const accounts = accountsByIds(
    db,
    asked.map((p) => p.accountId),
  );
  return asked.map((p): Part => {
    const account = accounts.get(p.accountId);
    const field = (name: string) => `${p.field}${name}`;
    if (!account)
      throw fieldError('INVALID_ACCOUNT', 'The account does not exist', field('account_id'), 'no such account');
    if (account.id === bank.id)
      throw fieldError(
        'VALIDATION_ERROR',
        'The counter account must differ from the bank account',
        field('account_id'),
        'is the bank account itself',
      );
    if (!account.isActive)
      throw fieldError(
        'INACTIVE_ACCOUNT',
        `The account ${account.name} is deactivated`,
        field('account_id'),
        'is deactivated',
      );
    if (account.currency === bank.currency) {
      if (p.converted !== undefined)
        throw fieldError(
          'VALIDATION_ERROR',
          `Invalid body: ${field('converted_amount')} is only for an account in another currency than ${bank.currency}`,
          field('converted_amount'),
          `is only for an account in another currency than the bank account's ${bank.currency}`,
        );
      return { account, amountMinor: p.amountMinor, convertedMinor: null };
    }
    return {
      account,
      amountMinor: p.amountMinor,
      convertedMinor: inAccountCurrency(db, txn, bank, account, p, field('converted_amount')),
    };
  });
}

/** A part in its account's currency: as given, else at the rate table's rate of the bank line's date. */
function inAccountCurrency(
  db: LedgerDb,
  txn: BankTransaction,
  bank: Account,
  account: Account,
  part: AskedPart,
  field: string,
): Minor {
  if (part.converted !== undefined) {
    const read = parseAmount(part.converted, account.currency);
    if ('problem' in read)
      throw fieldError(
        'VALIDATION_ERROR',
        `Invalid body: ${field} is not an amount of ${account.currency}`,
        field,
        `must be an amount of ${account.currency} above zero, with at most its decimals`,
      );
    return read.minor;
  }
  const converted = convertOnDay(db, part.amountMinor, bank.currency, account.currency, txn.date);
  if (!converted) throw missingRate(bank.currency, account.currency, txn.date, field);
  if (converted.convertedMinor === 0n)
    throw fieldError(
      'VALIDATION_ERROR',
      `${formatMinor(part.amountMinor, bank.currency)} ${bank.currency} is 0 ${account.currency} at the rate of ${txn.date}`,
      field,
      `give the amount in ${account.currency}`,
    );
  return converted.convertedMinor;
}

interface Booked {
  entry: JournalEntryDto;
  matchId: string;
}

/**
 * Posts the entry of one bank transaction and its accepted match. A model of this booking alone
 * (`learns`) learns the payee at once (the next line may be the same payee); a kept one reads it
 * from the ledger when next asked.
 */
function book(
  db: LedgerDb,
  txn: BankTransaction,
  bank: Account,
  asked: readonly AskedPart[],
  memo: string,
  payees: { model: PayeeModel; learns: boolean },
  thresholds: Thresholds,
): Booked {
  const model = payees.model;
  if (liveMatchOfTransaction(db, txn.id))
    throw new DomainError('ALREADY_PROCESSED', 'This bank transaction already has a match');
  const parts = checkedParts(db, txn, bank, asked);
  const moneyOut = txn.type === 'debit';
  const counterLines = parts.map((p): LineInput => ({
    account_id: p.account.id,
    direction: moneyOut ? 'DEBIT' : 'CREDIT',
    amount: formatMinor(p.convertedMinor ?? p.amountMinor, p.account.currency),
    ...(p.convertedMinor !== null && {
      cost: { amount: formatMinor(p.amountMinor, bank.currency), currency: bank.currency },
    }),
  }));
  const entry = createEntry(
    db,
    {
      entry_date: txn.date,
      memo: memo.slice(0, 500),
      auto_post: true,
      lines: [
        ...counterLines,
        {
          account_id: bank.id,
          direction: moneyOut ? 'CREDIT' : 'DEBIT',
          amount: formatMinor(txn.amountMinor, bank.currency),
        },
      ],
    },
    'reconciliation',
  );
  // the payee is learnt for the largest part: the account a person would name for it
  const main = parts.reduce((best, p) => (p.amountMinor > best.amountMinor ? p : best), parts[0]!);
  const matchId = recordAcceptedMatch(
    db,
    txn,
    bank,
    entry,
    parts.map((p) => p.account),
    model,
    thresholds,
  );
  const at = new Date().toISOString();
  addPayeeExample(db, txn.description, main.account.id, 'created_entry', at, txn);
  if (payees.learns) model.learn(txn.description, main.account.id, txn);
  return { entry, matchId };
}

/** Records an accepted match of a bank line with the entry just booked for it, scored as a run would score the pair; its id. */
export function recordAcceptedMatch(
  db: LedgerDb,
  txn: BankTransaction,
  bank: Account,
  entry: JournalEntryDto,
  counterAccounts: readonly Account[],
  model: PayeeModel,
  thresholds: Thresholds,
): string {
  const moneyOut = txn.type === 'debit';
  const scored = scorePair(
    { id: txn.id, date: txn.date, description: txn.description, amountMinor: txn.amountMinor, type: txn.type },
    {
      id: entry.id,
      entryDate: entry.entry_date,
      memo: entry.memo,
      accountLine: { direction: moneyOut ? 'CREDIT' : 'DEBIT', amountMinor: txn.amountMinor },
      counterAccounts: counterAccounts.map((a) => ({ id: a.id, type: a.type })),
    },
    { digits: currencyDigits(bank.currency), payeeModel: model, thresholds },
  );
  const at = new Date().toISOString();
  const id = newRowId();
  insertMatch(db, {
    id,
    runId: null,
    bankTransactionId: txn.id,
    entryId: entry.id,
    status: 'accepted',
    score: scored.total,
    breakdown: scored.breakdown,
    version: 1,
    supersededById: null,
    createdAt: at,
    updatedAt: at,
    acceptedAt: at,
    rejectedAt: null,
    rejectReason: null,
  });
  return id;
}

export interface CreateEntriesInput {
  items?: (Omit<BookingChoice, 'memo'> & { bank_transaction_id: string; memo?: string | undefined })[] | undefined;
  statement_id?: string | undefined;
}

/** The memo of a booking (CONTRACT §13): the one given, else the rule's, else the bank description. */
function memoOf(given: string | undefined, rules: RuleSet, txn: BankTransaction, currency: string): string {
  if (given !== undefined) return given;
  const rule = rules.firstMatch({ ...txn, digits: currencyDigits(currency) });
  return rule?.memo ?? txn.description;
}

/**
 * Books many unmatched bank transactions at once, each as `create-entry` does, in one transaction:
 * the items given (all or nothing: every bad item is named, `items.N.<field>`, and nothing is
 * booked), or every unmatched transaction of a statement that a rule matches, as the rule says
 * (its account, or its splits and its account taking the rest); the others are answered as skipped.
 */
export function createEntries(db: LedgerDb, input: CreateEntriesInput, thresholds: Thresholds) {
  return db.transaction(() => {
    const payees = { model: payeeModel(db), learns: true };
    const rules = ruleSetOf(db);
    const created: { bank_transaction_id: string; entry_id: string; match_id: string }[] = [];
    const skipped: string[] = [];
    if (input.items) {
      const errors: (FieldError & { code: string; detail: string })[] = [];
      input.items.forEach((item, i) => {
        try {
          const txn = findBankTransaction(db, item.bank_transaction_id);
          if (!txn)
            throw new DomainError('VALIDATION_ERROR', 'Bank transaction not found', [
              { field: 'bank_transaction_id', message: 'no such bank transaction' },
            ]);
          const bank = findAccount(db, txn.accountId)!;
          const memo = memoOf(item.memo, rules, txn, bank.currency);
          const booked = book(db, txn, bank, askedParts(txn, bank, item), memo, payees, thresholds);
          created.push({ bank_transaction_id: txn.id, entry_id: booked.entry.id, match_id: booked.matchId });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const field =
            error.errors?.[0]?.field ?? (error.code === 'ALREADY_PROCESSED' ? 'bank_transaction_id' : 'account_id');
          errors.push({
            field: `items.${i}.${field}`,
            message: error.errors?.[0]?.message ?? error.message,
            code: error.code,
            detail: error.message,
          });
        }
      });
      if (errors.length > 0) {
        const first = errors[0]!;
        throw new DomainError(
          first.code,
          `${first.field}: ${first.detail}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}; nothing was booked`,
          errors.map(({ field, message }) => ({ field, message })),
        );
      }
      return { created, skipped };
    }
    const statement = findStatement(db, input.statement_id!);
    if (!statement) throw new DomainError('NOT_FOUND', 'Statement not found');
    const bank = findAccount(db, statement.accountId)!;
    const digits = currencyDigits(statement.currency);
    for (const txn of unmatchedTransactionsOfStatement(db, statement.id)) {
      const rule = rules.firstMatch({ ...txn, digits });
      if (!rule) {
        skipped.push(txn.id);
        continue;
      }
      try {
        const parts = ruleParts(rule, txn, bank.currency);
        const booked = book(db, txn, bank, parts, rule.memo ?? txn.description, payees, thresholds);
        created.push({ bank_transaction_id: txn.id, entry_id: booked.entry.id, match_id: booked.matchId });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        throw new DomainError(
          error.code,
          `The rule "${rule.name}" cannot book "${txn.description}" (${txn.date}): ${error.message}; nothing was booked`,
          [{ field: 'statement_id', message: `rule ${rule.id}: ${error.message}` }],
        );
      }
    }
    return { created, skipped };
  });
}

/** The parts the first matching rule would split a line into, as the review list preselects them; null without splits or when they do not fit. */
export function ruleSplitOf(rule: Rule | undefined, txn: BankTransaction, currency: string) {
  if (!rule?.splits?.length) return null;
  try {
    return ruleParts(rule, txn, currency).map((p) => ({
      account_id: p.accountId,
      amount: formatMinor(p.amountMinor, currency),
    }));
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

import type { LedgerDb } from '../../db/stores.ts';
import { TRANSFER_DAYS, type TransferInput } from '../../contract/reconciliation.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import { daysApart, type Thresholds } from '../../domain/reconciliation/index.ts';
import { findAccount } from '../accounts/accounts.queries.ts';
import { createEntry, getEntry } from '../journal/journal.service.ts';
import { findBankTransaction } from '../statements/statements.queries.ts';
import type { BankTransaction } from '../statements/statements.model.ts';
import { recordAcceptedMatch } from './reconciliation.booking.service.ts';
import { toMatchDto } from './reconciliation.dto.ts';
import { liveMatchOfTransaction, matchView } from './reconciliation.matches.repository.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { payeeModel } from './reconciliation.payees.service.ts';
import { transferSides, type TransferSide } from './reconciliation.transfers.repository.ts';

/**
 * Transfers between the user's own accounts. Money out of one account ("To savings") and into
 * another ("From checking") shows as two bank lines, one on each account's statement: booked one by
 * one they would be two entries against a category each. Instead the pair is one entry, from the
 * first account to the second, matched to both lines.
 *
 * The other side proposed for an unmatched line: an unmatched line on another account of the same
 * amount and currency in the opposite direction, dated within TRANSFER_DAYS days; the nearest in
 * date, then the first imported.
 */
export function transferCandidate(db: LedgerDb, txn: BankTransaction & { currency: string }): TransferSide | null {
  const sides = transferSides(db, { ...txn, type: txn.type === 'debit' ? 'credit' : 'debit' }, TRANSFER_DAYS);
  let best: TransferSide | null = null;
  for (const side of sides) {
    if (
      best === null ||
      daysApart(side.date, txn.date) < daysApart(best.date, txn.date) ||
      (daysApart(side.date, txn.date) === daysApart(best.date, txn.date) && side.seq < best.seq)
    )
      best = side;
  }
  return best;
}

function bankLine(db: LedgerDb, id: string, field: string): BankTransaction {
  const txn = findBankTransaction(db, id);
  if (!txn)
    throw new DomainError('VALIDATION_ERROR', `Invalid body: ${field} names no bank transaction`, [
      { field, message: 'no such bank transaction' },
    ]);
  if (liveMatchOfTransaction(db, txn.id))
    throw new DomainError('ALREADY_PROCESSED', `The bank line "${txn.description}" (${txn.date}) already has a match`, [
      { field, message: 'already has a match' },
    ]);
  return txn;
}

/**
 * Books a transfer: one posted entry (source_type reconciliation) from the account of the money
 * out to the account of the money in, dated the earlier of the two lines, and an accepted match of
 * it with each line. In one currency the two amounts must be equal; between two currencies it is an
 * exchange at the banks' own amounts (the money in costs the money out), so no rate is needed.
 */
export function bookTransfer(db: LedgerDb, input: TransferInput, thresholds: Thresholds) {
  return db.transaction(() => {
    const out = bankLine(db, input.from_transaction_id, 'from_transaction_id');
    const into = bankLine(db, input.to_transaction_id, 'to_transaction_id');
    if (out.type !== 'debit')
      throw new DomainError('VALIDATION_ERROR', 'Invalid body: from_transaction_id must be money out of its account', [
        { field: 'from_transaction_id', message: 'is money into its account; give the line of the money out' },
      ]);
    if (into.type !== 'credit')
      throw new DomainError('VALIDATION_ERROR', 'Invalid body: to_transaction_id must be money into its account', [
        { field: 'to_transaction_id', message: 'is money out of its account; give the line of the money in' },
      ]);
    if (out.accountId === into.accountId)
      throw new DomainError('VALIDATION_ERROR', 'A transfer is between two accounts; both lines are of one', [
        { field: 'to_transaction_id', message: 'is on the same account as from_transaction_id' },
      ]);
    const from = findAccount(db, out.accountId)!;
    const to = findAccount(db, into.accountId)!;
    const exchange = from.currency !== to.currency;
    if (!exchange && out.amountMinor !== into.amountMinor)
      throw new DomainError(
        'VALIDATION_ERROR',
        `The money in (${formatMinor(into.amountMinor, to.currency)}) differs from the money out (${formatMinor(out.amountMinor, from.currency)}): a transfer moves one amount`,
        [
          {
            field: 'to_transaction_id',
            message: `is ${formatMinor(into.amountMinor, to.currency)}, the money out ${formatMinor(out.amountMinor, from.currency)}`,
          },
        ],
      );
    const entry = createEntry(
      db,
      {
        entry_date: out.date < into.date ? out.date : into.date,
        memo: (input.memo ?? out.description).slice(0, 500),
        auto_post: true,
        lines: [
          {
            account_id: to.id,
            direction: 'DEBIT',
            amount: formatMinor(into.amountMinor, to.currency),
            ...(exchange && { cost: { amount: formatMinor(out.amountMinor, from.currency), currency: from.currency } }),
          },
          { account_id: from.id, direction: 'CREDIT', amount: formatMinor(out.amountMinor, from.currency) },
        ],
      },
      'reconciliation',
    );
    const model = payeeModel(db);
    const matchIds = [
      recordAcceptedMatch(db, out, from, entry, [to], model, thresholds),
      recordAcceptedMatch(db, into, to, entry, [from], model, thresholds),
    ];
    // each line's payee is kept as a transfer to the other account ("To savings" → Savings)
    const at = new Date().toISOString();
    for (const [txn, counter] of [
      [out, to],
      [into, from],
    ] as const) {
      addPayeeExample(db, txn.description, counter.id, 'created_entry', at, txn);
    }
    // read again: the matches have cleared its lines on both accounts
    return { entry: getEntry(db, entry.id), matches: matchIds.map((id) => toMatchDto(matchView(db, id)!)) };
  });
}

import type { LedgerDb } from '../../db/stores.ts';
import { PayeeModel } from '../../domain/reconciliation/index.ts';
import {
  addPayeeExample,
  counterAccounts,
  payeeExamplesAfter,
  removePayeeExample,
  type PayeeExampleContext,
} from './reconciliation.payees.repository.ts';

/** The payee model of every example the ledger holds, built afresh in the order they were booked. */
export function payeeModel(db: LedgerDb): PayeeModel {
  return PayeeModel.fromExamples(payeeExamplesAfter(db, 0).added);
}

/** Teaches the payee model the counter accounts of an entry a bank line was reconciled with. */
export function learnCounterAccounts(
  db: LedgerDb,
  txn: { description: string; accountId: string } & PayeeExampleContext,
  entryId: string,
  source: 'accepted_match' | 'created_entry',
  at: string,
): void {
  const counters = counterAccounts(db, [entryId], txn.accountId).get(entryId) ?? [];
  for (const id of new Set(counters.map((c) => c.id))) addPayeeExample(db, txn.description, id, source, at, txn);
}

/** Takes back what `learnCounterAccounts` taught for a match that is undone. */
export function forgetCounterAccounts(db: LedgerDb, description: string, entryId: string, accountId: string): void {
  const counters = counterAccounts(db, [entryId], accountId).get(entryId) ?? [];
  for (const id of new Set(counters.map((c) => c.id))) removePayeeExample(db, description, id, 'accepted_match');
}

interface Kept {
  count: number;
  lastId: number;
  model: PayeeModel;
}

/**
 * Payee models kept per ledger, for the unmatched list's suggestions: building one costs tens of ms
 * once examples number in the tens of thousands, so the examples added since are learnt into the
 * kept model (a sum of counts: order does not matter). Examples are never removed in practice (an
 * account that has some has lines, so it cannot be deleted); if the count does not add up, the
 * model is built again. At most `maxLedgers` models are kept, the least recently used let go
 * first. One instance per server, made by the routes that use it.
 */
export class KeptPayeeModels {
  private readonly kept = new Map<LedgerDb, Kept>();
  private readonly maxLedgers: number;

  constructor(maxLedgers: number) {
    if (!(Number.isInteger(maxLedgers) && maxLedgers >= 1)) throw new Error('maxLedgers must be a positive integer');
    this.maxLedgers = maxLedgers;
  }

  /** How many ledgers' models are kept (never more than `maxLedgers`). */
  get size(): number {
    return this.kept.size;
  }

  modelOf(db: LedgerDb): PayeeModel {
    const kept = this.kept.get(db);
    if (kept) {
      this.kept.delete(db);
      this.kept.set(db, kept);
      const { total, added } = payeeExamplesAfter(db, kept.lastId);
      if (kept.count + added.length === total) {
        for (const e of added) kept.model.learn(e.description, e.accountId, e);
        kept.count = total;
        kept.lastId = added.at(-1)?.id ?? kept.lastId;
        return kept.model;
      }
    }
    const { total, added } = payeeExamplesAfter(db, 0);
    const model = PayeeModel.fromExamples(added);
    this.kept.delete(db);
    this.kept.set(db, { count: total, lastId: added.at(-1)?.id ?? 0, model });
    while (this.kept.size > this.maxLedgers) this.kept.delete(this.kept.keys().next().value!);
    return model;
  }
}

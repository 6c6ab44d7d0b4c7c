import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { addPayeeExample } from './reconciliation.payees.repository.ts';
import { KeptPayeeModels, payeeModel } from './reconciliation.payees.service.ts';

let dir: string;
let stores: Stores;
let ledgers = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-payees-'));
  stores = new Stores(dir);
});
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function ledger(): { db: LedgerDb; groceries: string; fuel: string } {
  ledgers += 1;
  const db = stores.ledger(`00000000-0000-4000-8000-${String(ledgers).padStart(12, '0')}`);
  return {
    db,
    groceries: createAccount(db, { name: 'Groceries', type: 'EXPENSE' }).id,
    fuel: createAccount(db, { name: 'Fuel', type: 'EXPENSE' }).id,
  };
}

const AT = '2026-01-01T00:00:00.000Z';
const DEBIT = { type: 'debit', amountMinor: 1_250n } as const;

describe('KeptPayeeModels', () => {
  it('when examples are added after a model is kept, then the kept model learns them and predicts as one built afresh', () => {
    const { db, groceries, fuel } = ledger();
    addPayeeExample(db, 'TESCO STORES', groceries, 'accepted_match', AT, DEBIT);
    const models = new KeptPayeeModels(2);
    const kept = models.modelOf(db);
    addPayeeExample(db, 'SHELL 123', fuel, 'created_entry', AT, DEBIT);
    addPayeeExample(db, 'TESCO STORES', fuel, 'accepted_match', AT, DEBIT);
    expect(models.modelOf(db)).toBe(kept);
    for (const description of ['TESCO STORES', 'SHELL 999'])
      expect(kept.predict(description, DEBIT)).toEqual(payeeModel(db).predict(description, DEBIT));
  });

  it('when more ledgers ask than it keeps, then the least recently used is let go and built again on its next use', () => {
    const [a, b, c] = [ledger(), ledger(), ledger()];
    const models = new KeptPayeeModels(2);
    const modelOfA = models.modelOf(a.db);
    const firstModelOfB = models.modelOf(b.db);
    expect(models.modelOf(a.db)).toBe(modelOfA);
    models.modelOf(c.db);
    expect(models.size).toBe(2);
    // b was the least recently used: a is still kept
    expect(models.modelOf(a.db)).toBe(modelOfA);
    const modelOfB = models.modelOf(b.db);
    expect(modelOfB).not.toBe(firstModelOfB);
    expect(models.size).toBe(2);
    // asking for b let c go, not a
    expect(models.modelOf(a.db)).toBe(modelOfA);
    expect(models.modelOf(b.db)).toBe(modelOfB);
  });

  it('when asked to keep no model at all, then it refuses', () => {
    expect(() => new KeptPayeeModels(0)).toThrow(/positive/);
  });
});

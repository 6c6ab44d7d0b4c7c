import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Stores, type LedgerDb } from '../../server/db/stores.ts';
import { createAccount } from '../../server/features/accounts/accounts.service.ts';
import {
  createSecurity,
  putInvestmentSettings,
  setSecurityPrice,
} from '../../server/features/investments/investments.service.ts';
import { bookTrade } from '../../server/features/investments/investments.trades.ts';
import { AttachmentTransfer } from '../../server/features/sync/attachment-transfer.ts';
import { LedgerSyncStore } from '../../server/features/sync/ledger-store.ts';
import { parseTimestamp } from '../../server/sync/clock.ts';
import type { SyncMessage } from '../../server/sync/messages.ts';
import { BIG_TABLES, catchPrepared, offenders, readOnly } from './plans.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-plans-'));
const stores = new Stores(dir);
afterAll(() => {
  stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const [userA, userB] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const files = (user: string) => new AttachmentTransfer(path.join(dir, 'attachments', user));
const messagesOf = (db: LedgerDb, user: string) => new LedgerSyncStore(db, files(user)).pending('', 10_000);

function deliver(to: LedgerDb, user: string, messages: SyncMessage[]): void {
  const store = new LedgerSyncStore(to, files(user));
  for (const m of messages) store.clock.recv(parseTimestamp(m.timestamp)!);
  store.apply(messages);
}

describe('the queries of the investments’ and receipts’ sync', () => {
  it('when trades, prices and a receipt arrive from another device (a sale before its buy, a sale of units sold twice), then every statement of the apply is an index lookup or range', () => {
    const [a, b] = [stores.ledger(userA), stores.ledger(userB)];
    const account = createAccount(a, { name: 'Broker', type: 'ASSET', currency: 'USD' }).id;
    const gains = createAccount(a, { name: 'Gains', type: 'INCOME', currency: 'USD' }).id;
    const security = createSecurity(a, { symbol: 'VTI', name: 'VTI', currency: 'USD' }).id;
    putInvestmentSettings(a, account, { booking_method: 'FIFO', short_term_account_id: gains });
    const base = { account_id: account, security_id: security };
    bookTrade(a, { kind: 'buy', ...base, date: '2026-01-05', units: '10', price: '100' });
    deliver(b, userB, messagesOf(a, userA));
    bookTrade(a, { kind: 'sell', ...base, date: '2026-02-05', units: '8', price: '110' });
    bookTrade(b, { kind: 'sell', ...base, date: '2026-02-06', units: '8', price: '120' });
    bookTrade(a, { kind: 'buy', ...base, date: '2026-03-05', units: '2', price: '90' });
    setSecurityPrice(a, security, '2026-03-31', '105');
    a.transaction(() =>
      a.runSql(
        "INSERT INTO attachment_files (sha256, size_bytes, content_type, created_at) VALUES (?, 10, 'image/png', '2026-01-01T00:00:00.000Z')",
        'a'.repeat(64),
      ),
    );
    const fromA = messagesOf(a, userA);
    const file = b.sqlite.name;
    const { caught, stop } = catchPrepared(file);
    try {
      deliver(b, userB, [...fromA].reverse());
    } finally {
      stop();
    }
    expect(b.allSql("SELECT row_id FROM change_parked WHERE dataset = 'trades'")).toHaveLength(1);
    const tables = [
      ...BIG_TABLES,
      'change_log',
      'trades',
      'lots',
      'lot_reductions',
      'holdings',
      'securities',
      'security_prices',
      'attachment_files',
      'attachments',
      't',
      'l',
      'c',
      'r',
      'f',
    ];
    // the trigger that marks a new file's chunks, and a trade taken back with the sales of its lot
    const statements = [
      ...caught,
      "SELECT c.sha256 || ' ' || c.chunk FROM attachment_chunks c WHERE c.sha256 = ?",
      'SELECT r.trade_id FROM lots l JOIN lot_reductions r ON r.lot_id = l.id WHERE l.trade_id = ?',
      'DELETE FROM lots WHERE trade_id = ?',
    ].filter((sql) => /trades|lots|lot_reductions|holdings|securit|attachment/.test(sql));
    expect(statements.length).toBeGreaterThan(8);
    readOnly(file, (db) => expect(offenders(db, statements, tables)).toEqual([]));
  });
});

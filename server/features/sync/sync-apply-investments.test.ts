import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import { parseTimestamp } from '../../sync/clock.ts';
import type { SyncMessage } from '../../sync/messages.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { voidEntry } from '../journal/journal.service.ts';
import { holdingsReport, lotsOf, realizedGains } from '../investments/investments.holdings.ts';
import {
  createSecurity,
  listSecurities,
  putInvestmentSettings,
  setSecurityPrice,
} from '../investments/investments.service.ts';
import { bookTrade } from '../investments/investments.trades.ts';
import { AttachmentTransfer, CHUNK_BYTES } from './attachment-transfer.ts';
import { historyPage, undoLast } from './history.service.ts';
import { LedgerSyncStore } from './ledger-store.ts';
import { aliasSymbol } from './sync-apply-investments.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-sync-invest-'));
const stores = new Stores(dataDir);
afterAll(() => {
  stores.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Device {
  db: LedgerDb;
  files: AttachmentTransfer;
  dir: string;
}

function device(): Device {
  const user = crypto.randomUUID();
  const dir = path.join(dataDir, 'attachments', user);
  return { db: stores.ledger(user), files: new AttachmentTransfer(dir), dir };
}

/** Every message `from` holds, as its sync would send them (chunks with their bytes). */
function messagesOf(from: Device): SyncMessage[] {
  return new LedgerSyncStore(from.db, from.files).pending('', 100_000);
}

/** Hands `messages` to `to` as a sync does: its clock past each, then applied. */
function deliver(to: Device, messages: SyncMessage[]): void {
  const store = new LedgerSyncStore(to.db, to.files);
  for (const m of messages) store.clock.recv(parseTimestamp(m.timestamp)!);
  store.apply(messages);
}

const nothingGuard = { beforeVoid: () => undefined };

/** An investment account with its cash, a gains account and VTI, on `d`. */
function brokerage(d: Device) {
  const account = createAccount(d.db, { name: 'Brokerage', type: 'ASSET', currency: 'USD' }).id;
  const gains = createAccount(d.db, { name: 'Gains', type: 'INCOME', currency: 'USD' }).id;
  const security = createSecurity(d.db, { symbol: 'VTI', name: 'Total market', currency: 'USD' }).id;
  putInvestmentSettings(d.db, account, { booking_method: 'FIFO', short_term_account_id: gains });
  return { account, gains, security };
}

/** What the app answers about a holding: the report, the lots, the gains of the year. */
function answers(d: Device, account: string, security: string) {
  return {
    holdings: holdingsReport(d.db, '2026-12-31'),
    lots: lotsOf(d.db, account, security),
    gains: realizedGains(d.db, '2026-01-01', '2026-12-31'),
  };
}

describe('investments under sync', () => {
  it('when a device’s buys and sales arrive on another, then it answers the same holdings, lots and gains', () => {
    const a = device();
    const b = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '10',
      price: '100',
    });
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-02-05',
      units: '5',
      price: '120.5',
    });
    bookTrade(a.db, {
      kind: 'sell',
      account_id: account,
      security_id: security,
      date: '2026-03-05',
      units: '12',
      price: '130',
    });
    setSecurityPrice(a.db, security, '2026-06-30', '140');
    deliver(b, messagesOf(a));
    expect(answers(b, account, security)).toEqual(answers(a, account, security));
    expect(answers(b, account, security).lots.items).toEqual([
      expect.objectContaining({ units: '3', cost_basis: '361.50' }),
    ]);
  });

  it('when a sale arrives before the buy it reduces, then it waits, and once the buy is here the lots are those of the device that booked them', () => {
    const a = device();
    const b = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '10',
      price: '100',
    });
    const lot = lotsOf(a.db, account, security).items[0]!.id;
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-06',
      units: '4',
      price: '90',
    });
    bookTrade(a.db, {
      kind: 'sell',
      account_id: account,
      security_id: security,
      date: '2026-04-01',
      units: '6',
      price: '150',
      lots: [{ lot_id: lot, units: '6' }],
    });
    const all = messagesOf(a);
    const sale = all.filter((m) => m.dataset === 'trades').at(-1)!;
    const saleEntry = all.filter((m) => m.dataset === 'journal_entries').at(-1)!;
    const rest = all.filter((m) => m !== sale && m !== saleEntry);
    deliver(b, [saleEntry, sale]);
    expect(b.db.allSql('SELECT dataset FROM change_parked')).toEqual([
      { dataset: 'journal_entries' },
      { dataset: 'trades' },
    ]);
    expect(b.db.allSql('SELECT id FROM trades')).toEqual([]);
    deliver(b, rest.reverse());
    expect(b.db.allSql('SELECT dataset FROM change_parked')).toEqual([]);
    expect(answers(b, account, security)).toEqual(answers(a, account, security));
  });

  it('when two devices sell the same units offline, then both set aside the later sale, agree on the holding, and its entry can be voided', () => {
    const a = device();
    const b = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '10',
      price: '100',
    });
    deliver(b, messagesOf(a));
    const sell = {
      kind: 'sell' as const,
      account_id: account,
      security_id: security,
      date: '2026-05-01',
      units: '8',
      price: '110',
    };
    bookTrade(a.db, sell);
    const later = bookTrade(b.db, { ...sell, price: '120' });
    const fromA = messagesOf(a);
    const fromB = messagesOf(b);
    deliver(b, fromA);
    deliver(a, fromB);
    for (const d of [a, b]) {
      expect(d.db.allSql('SELECT row_id FROM change_parked')).toEqual([{ row_id: later.id }]);
      expect(answers(d, account, security).holdings.items[0]).toMatchObject({ units: '2', cost_basis: '200.00' });
    }
    expect(answers(b, account, security)).toEqual(answers(a, account, security));
    // no longer a trade's entry: the journal may void it
    voidEntry(b.db, later.entry_id!, 'sold twice', nothingGuard, '2026-05-02');
  });

  it('when two devices declare the same symbol, then both are kept, the smaller id with the symbol, on both', () => {
    const a = device();
    const b = device();
    const one = createSecurity(a.db, { symbol: 'AAPL', name: 'Apple', currency: 'USD' });
    const two = createSecurity(b.db, { symbol: 'AAPL', name: 'Apple Inc', currency: 'USD' });
    const fromA = messagesOf(a);
    deliver(a, messagesOf(b));
    deliver(b, fromA);
    const [small, large] = [one, two].sort((x, y) => (x.id < y.id ? -1 : 1));
    for (const d of [a, b])
      expect(listSecurities(d.db).items.map((s) => [s.id, s.symbol])).toEqual(
        [
          [small!.id, 'AAPL'],
          [large!.id, aliasSymbol('AAPL', large!.id)],
        ].sort((x, y) => (x[1]! < y[1]! ? -1 : 1)),
      );
  });

  it('when a split and an AVERAGE sale arrive, then the lots are those of the device that booked them', () => {
    const a = device();
    const b = device();
    const { account, gains, security } = brokerage(a);
    putInvestmentSettings(a.db, account, { booking_method: 'AVERAGE', short_term_account_id: gains });
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '3',
      price: '100',
    });
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-07',
      units: '7',
      price: '101.01',
    });
    bookTrade(a.db, { kind: 'split', account_id: account, security_id: security, date: '2026-02-01', ratio: '3:2' });
    bookTrade(a.db, {
      kind: 'sell',
      account_id: account,
      security_id: security,
      date: '2026-03-05',
      units: '5.5',
      price: '80',
    });
    deliver(b, messagesOf(a));
    expect(answers(b, account, security)).toEqual(answers(a, account, security));
  });

  it('when the buy just booked is undone twice, then its trade and lot leave, then its entry is voided, and the other device follows', () => {
    const a = device();
    const b = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '2',
      price: '10',
    });
    const buy = bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-06',
      units: '3',
      price: '10',
    });
    deliver(b, messagesOf(a));
    // the trade (its lot, its price) is one write and its entry, written first, another: two undos
    expect(undoLast(a.db, nothingGuard, '2026-01-07').undone.map((i) => i.kind)).toEqual(['security_prices', 'trades']);
    expect(a.db.allSql('SELECT id FROM trades WHERE id = ?', buy.id)).toEqual([]);
    undoLast(a.db, nothingGuard, '2026-01-07');
    expect(a.db.allSql('SELECT status FROM journal_entries WHERE id = ?', buy.entry_id)).toEqual([{ status: 'void' }]);
    deliver(b, messagesOf(a));
    expect(answers(b, account, security)).toEqual(answers(a, account, security));
    expect(answers(b, account, security).lots.items).toEqual([expect.objectContaining({ units: '2' })]);
  });

  it('when the history is read after a trade and a receipt, then it names them and leaves the file’s chunks out', () => {
    const a = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '2',
      price: '10',
    });
    a.db.transaction(() =>
      a.db.runSql(
        "INSERT INTO attachment_files (sha256, size_bytes, content_type, created_at) VALUES (?, 10, 'image/png', '2026-01-01T00:00:00.000Z')",
        'b'.repeat(64),
      ),
    );
    const items = historyPage(a.db, { limit: 50 }).items;
    expect(items.map((i) => i.kind)).not.toContain('attachment_chunks');
    expect(items.map((i) => i.summary)).toEqual(
      expect.arrayContaining(['Trade created: 2026-01-05 · buy · 10', 'Security created: VTI · Total market']),
    );
  });

  it('when a trade names an account or security that never came, then applying refuses nothing and keeps it waiting', () => {
    const a = device();
    const b = device();
    const { account, security } = brokerage(a);
    bookTrade(a.db, {
      kind: 'buy',
      account_id: account,
      security_id: security,
      date: '2026-01-05',
      units: '1',
      price: '1',
    });
    deliver(
      b,
      messagesOf(a).filter((m) => m.dataset !== 'securities'),
    );
    expect(b.db.allSql("SELECT dataset FROM change_parked WHERE dataset = 'trades'")).toHaveLength(1);
    expect(() => lotsOf(b.db, account, security)).toThrow(DomainError);
  });
});

/** A file of `size` random bytes with `marker` inside. */
function fileWith(marker: string, size: number): Buffer {
  const bytes = crypto.randomBytes(size);
  bytes.write(marker, 100, 'latin1');
  return bytes;
}

describe('receipts’ files under sync', () => {
  function attachOn(d: Device, bytes: Buffer): string {
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    fs.mkdirSync(d.dir, { recursive: true });
    fs.writeFileSync(path.join(d.dir, sha256), bytes);
    d.db.transaction(() =>
      d.db.runSql(
        "INSERT INTO attachment_files (sha256, size_bytes, content_type, created_at) VALUES (?, ?, 'image/png', '2026-01-01T00:00:00.000Z')",
        sha256,
        bytes.length,
      ),
    );
    return sha256;
  }

  it('when a file of several chunks is sent, then the other device stores the same bytes, and its log keeps no byte of them', () => {
    const a = device();
    const b = device();
    const bytes = fileWith('RECEIPT-MARKER-1', 3 * CHUNK_BYTES + 77);
    const sha256 = attachOn(a, bytes);
    const sent = messagesOf(a);
    expect(sent.filter((m) => m.dataset === 'attachment_chunks')).toHaveLength(4);
    deliver(b, sent);
    expect(fs.readFileSync(path.join(b.dir, sha256)).equals(bytes)).toBe(true);
    const logged = b.db.allSql<{ value: string }>("SELECT value FROM change_log WHERE dataset = 'attachment_chunks'");
    expect(logged).toHaveLength(4);
    for (const { value } of logged) expect(value).not.toContain('"bytes"');
    expect(fs.existsSync(path.join(b.dir, '.incoming', `${sha256}.0`))).toBe(false);
  });

  it('when only some chunks have come, then the file is not stored yet; when the rest come, it is', () => {
    const a = device();
    const b = device();
    const sha256 = attachOn(a, fileWith('RECEIPT-MARKER-2', 2 * CHUNK_BYTES + 1));
    const sent = messagesOf(a);
    const chunks = sent.filter((m) => m.dataset === 'attachment_chunks');
    deliver(
      b,
      sent.filter((m) => m !== chunks[2]),
    );
    expect(fs.existsSync(path.join(b.dir, sha256))).toBe(false);
    deliver(b, [chunks[2]!]);
    expect(fs.existsSync(path.join(b.dir, sha256))).toBe(true);
  });

  it('when a chunk’s bytes are not the file’s, then nothing is stored under its hash', () => {
    const a = device();
    const b = device();
    const sha256 = attachOn(a, fileWith('RECEIPT-MARKER-3', CHUNK_BYTES + 10));
    const sent = messagesOf(a).map((m) => {
      if (m.dataset !== 'attachment_chunks' || !m.row.endsWith(' 1')) return m;
      const value = JSON.parse(m.value) as { bytes: string };
      return { ...m, value: JSON.stringify({ ...value, bytes: Buffer.alloc(10, 1).toString('base64') }) };
    });
    deliver(b, sent);
    expect(fs.existsSync(path.join(b.dir, sha256))).toBe(false);
    expect(fs.readdirSync(path.join(b.dir, '.incoming'))).toEqual([]);
  });

  it('when more files wait than a page holds, then one read answers about a page of bytes and one message past it', () => {
    const a = device();
    for (let i = 0; i < 3; i++) attachOn(a, fileWith(`RECEIPT-PAGE-${i}`, 4 * CHUNK_BYTES));
    const page = messagesOf(a);
    const withBytes = page.filter((m) => m.value.includes('"bytes"'));
    // 4 MiB of base64 is 6 chunks of 512 KiB; the 7th passes the page, and is the one past it
    expect(withBytes).toHaveLength(7);
    expect(page.at(-1)).toBe(withBytes.at(-1));
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyedGroup } from '../../../test/support/relay.ts';
import { useRelayMember } from '../../../test/support/relay-member.ts';
import { Stores, type LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SyncGroup } from '../../sync/sync-client.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { AttachmentFiles } from '../attachments/attachments.files.ts';
import { AttachmentService } from '../attachments/attachments.service.ts';
import { exportBooks } from '../export/export.service.ts';
import { holdingsReport, lotsOf, realizedGains } from '../investments/investments.holdings.ts';
import { createSecurity, putInvestmentSettings, setSecurityPrice } from '../investments/investments.service.ts';
import { bookTrade } from '../investments/investments.trades.ts';
import { AttachmentTransfer } from './attachment-transfer.ts';
import { syncLedger } from './ledger-store.ts';

/**
 * Three devices keep one portfolio: each books buys, sales (FIFO, or naming a lot) and prices, and
 * attaches receipts (some over one chunk) to trades' entries while offline, and they sync through
 * a real relay on loopback in random orders and partitions. Once all have synced, every device
 * answers the same holdings, lots, gains and beancount export, holds every receipt's bytes, every
 * posted entry balances, the trial balance is zero, each holding equals its lots, and each lot
 * equals what was bought less what sales took from it. The relay's files hold no receipt's bytes.
 */

const USER = '00000000-0000-4000-8000-000000000001';
const DAYS = ['2026-01-05', '2026-02-10', '2026-03-15', '2026-04-20'] as const;

type Op =
  | { kind: 'buy'; device: number; units: number; price: number; day: number }
  | { kind: 'sell'; device: number; units: number; price: number; day: number; named: boolean }
  | { kind: 'price'; device: number; price: number; day: number }
  | { kind: 'attach'; device: number; pick: number; large: boolean }
  | { kind: 'sync'; devices: number[] };

const device = fc.integer({ min: 0, max: 2 });
const day = fc.nat(DAYS.length - 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      device,
      units: fc.integer({ min: 1, max: 20 }),
      price: fc.integer({ min: 5000, max: 15000 }),
      day,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sell' as const),
      device,
      units: fc.integer({ min: 1, max: 15 }),
      price: fc.integer({ min: 5000, max: 15000 }),
      day,
      named: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('price' as const),
      device,
      price: fc.integer({ min: 5000, max: 15000 }),
      day,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('attach' as const), device, pick: fc.nat(30), large: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sync' as const), devices: fc.subarray([0, 1, 2], { minLength: 1 }) }),
  },
);

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A PNG (its signature and header chunk) or a PDF carrying `marker`; a large one passes one chunk. */
function receipt(marker: string, large: boolean): Buffer {
  const pad = crypto.randomBytes(large ? 700 * 1024 : 2000);
  if (large) return Buffer.concat([Buffer.from(`%PDF-1.4\n% ${marker}\n`, 'latin1'), pad, Buffer.from('\n%%EOF\n')]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.from('0000000d49484452000000010000000108020000009077530e', 'hex');
  return Buffer.concat([signature, ihdr, Buffer.from(marker, 'latin1'), pad]);
}

interface Device {
  db: LedgerDb;
  attachments: AttachmentService;
  dir: string;
}

const ids = (db: LedgerDb, sql: string, ...params: unknown[]) =>
  db.allSql<{ id: string }>(sql, ...params).map((r) => r.id);

/** Plays one step on a device; a refusal the app would answer with a 4xx changes nothing and is passed over. */
async function play(d: Device, step: Exclude<Op, { kind: 'sync' }>, book: Book, markers: string[]): Promise<void> {
  try {
    const common = {
      account_id: book.account,
      security_id: book.security,
      date: DAYS[step.kind === 'attach' ? 0 : step.day]!,
    };
    if (step.kind === 'buy')
      bookTrade(d.db, {
        kind: 'buy',
        ...common,
        units: String(step.units),
        price: money(step.price),
        cash_account_id: book.cash,
      });
    else if (step.kind === 'sell') {
      const [lot] = lotsOf(d.db, book.account, book.security).items;
      const lots =
        step.named && lot ? [{ lot_id: lot.id, units: String(Math.min(step.units, Number(lot.units))) }] : undefined;
      const units = lots ? lots[0]!.units : String(step.units);
      bookTrade(d.db, {
        kind: 'sell',
        ...common,
        units,
        price: money(step.price),
        cash_account_id: book.cash,
        ...(lots ? { lots } : {}),
      });
    } else if (step.kind === 'price') setSecurityPrice(d.db, book.security, DAYS[step.day]!, money(step.price));
    else {
      const entries = ids(d.db, "SELECT id FROM journal_entries WHERE status = 'posted' ORDER BY id");
      if (entries.length === 0) return;
      const marker = `RECEIPT-${crypto.randomUUID()}`;
      markers.push(marker);
      await d.attachments.attach(
        d.db,
        USER,
        { kind: 'entry', id: entries[step.pick % entries.length]! },
        receipt(marker, step.large),
        `${marker}.${step.large ? 'pdf' : 'png'}`,
      );
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

interface Book {
  account: string;
  cash: string;
  security: string;
}

/** What the app answers about the portfolio and its receipts, as the API would. */
function answers(d: Device, book: Book) {
  const entries = ids(d.db, 'SELECT id FROM journal_entries ORDER BY id');
  return {
    holdings: holdingsReport(d.db, '2026-12-31'),
    lots: lotsOf(d.db, book.account, book.security),
    gains: realizedGains(d.db, '2026-01-01', '2026-12-31'),
    receipts: entries.map((id) => d.attachments.list(d.db, USER, { kind: 'entry', id })),
    set_aside: d.db.allSql("SELECT row_id FROM change_parked WHERE dataset = 'trades' ORDER BY row_id"),
    beancount: exportBooks(d.db, { format: 'beancount' }).text,
  };
}

/** The invariants, each read from the tables by a query of its own. */
function checkInvariants(d: Device): void {
  const none = (sql: string) => expect(d.db.allSql(sql), sql).toEqual([]);
  // every posted entry balances per currency, and the trial balance is zero
  none(`SELECT e.id FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id WHERE e.status <> 'draft'
         GROUP BY e.id, l.currency HAVING SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) <> 0`);
  none(`SELECT l.currency FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.status IN ('posted', 'void')
         GROUP BY l.currency HAVING SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) <> 0`);
  // each lot is what was bought less what the sales counted took from it (FIFO and named lots)
  none(`SELECT l.id FROM lots l WHERE l.units_atoms <> l.units_bought_atoms
           - (SELECT COALESCE(SUM(r.units_atoms), 0) FROM lot_reductions r WHERE r.lot_id = l.id)
         OR l.basis_minor <> l.basis_bought_minor
           - (SELECT COALESCE(SUM(r.basis_minor), 0) FROM lot_reductions r WHERE r.lot_id = l.id)`);
  // each holding is its lots, and its trades' sums
  none(`SELECT h.account_id FROM holdings h WHERE
           h.units_atoms <> (SELECT COALESCE(SUM(units_atoms), 0) FROM lots l WHERE l.account_id = h.account_id AND l.security_id = h.security_id)
        OR h.basis_minor <> (SELECT COALESCE(SUM(basis_minor), 0) FROM lots l WHERE l.account_id = h.account_id AND l.security_id = h.security_id)
        OR h.units_atoms <> (SELECT SUM(units_delta_atoms) FROM trades t WHERE t.account_id = h.account_id AND t.security_id = h.security_id)
        OR h.realized_minor <> (SELECT COALESCE(SUM(proceeds_minor - cost_minor), 0) FROM trades t
                                 WHERE t.account_id = h.account_id AND t.security_id = h.security_id AND t.kind = 'sell')`);
  // every sale counted took its units from lots
  none(`SELECT t.id FROM trades t WHERE t.kind = 'sell'
         AND t.units_atoms <> (SELECT COALESCE(SUM(units_atoms), 0) FROM lot_reductions r WHERE r.trade_id = t.id)`);
}

describe('three devices keep one portfolio and its receipts through a relay', () => {
  const { dir, relay, member } = useRelayMember('ledger-sync-invest-');

  it('when three devices trade, price and attach offline and sync in random orders and partitions, then after all sync they answer the same portfolio and receipts, and the relay holds none of them in plain', async () => {
    let runs = 0;
    const markers: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        runs += 1;
        const group: SyncGroup = await createKeyedGroup(member());
        const transport = member().transport();
        const stores = [0, 1, 2].map((i) => new Stores(path.join(dir, `run${runs}-device${i}`)));
        const devices: Device[] = stores.map((s, i) => {
          const files = new AttachmentFiles(path.join(dir, `run${runs}-device${i}`));
          return { db: s.ledger(USER), attachments: new AttachmentService(files), dir: files.dirOf(USER) };
        });
        const since: (string | null)[] = [null, null, null];
        const sync = async (i: number) => {
          const d = devices[i]!;
          since[i] = (await syncLedger(d.db, transport, group, since[i]!, new AttachmentTransfer(d.dir))).since;
        };
        try {
          const first = devices[0]!.db;
          const book: Book = {
            account: createAccount(first, { name: 'Brokerage', type: 'ASSET', currency: 'USD' }).id,
            cash: createAccount(first, { name: 'Checking', type: 'ASSET', currency: 'USD' }).id,
            security: createSecurity(first, { symbol: 'VTI', name: 'Total market', currency: 'USD' }).id,
          };
          const gains = createAccount(first, { name: 'Gains', type: 'INCOME', currency: 'USD' }).id;
          putInvestmentSettings(first, book.account, { booking_method: 'FIFO', short_term_account_id: gains });
          for (const i of [0, 1, 2]) await sync(i);

          for (const step of ops) {
            if (step.kind === 'sync') for (const i of step.devices) await sync(i);
            else await play(devices[step.device]!, step, book, markers);
          }
          for (let pass = 0; pass < 2; pass++) for (const i of [0, 1, 2]) await sync(i);

          const expected = answers(devices[0]!, book);
          for (const d of devices) {
            expect(answers(d, book)).toEqual(expected);
            checkInvariants(d);
          }
          for (const list of expected.receipts) for (const a of list) expect(a.waiting_for_sync).toBe(false);
        } finally {
          for (const s of stores) s.close();
        }
      }),
      { numRuns: 10 },
    );
    expect(runs).toBe(10);
    expect(markers.length).toBeGreaterThan(0);
    const files = fs.readdirSync(relay().dataDir).map((name) => path.join(relay().dataDir, name));
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      for (const marker of markers)
        expect(bytes.includes(Buffer.from(marker, 'latin1')), `${marker} in ${file}`).toBe(false);
    }
  });
});

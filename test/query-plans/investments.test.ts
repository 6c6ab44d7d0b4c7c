import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stores } from '../../server/db/stores.ts';
import { exportBooks } from '../../server/features/export/export.service.ts';
import { BIG_TABLES, catchPrepared, offenders, planOf, readOnly, seedBooks, type Books } from './plans.ts';

let books: Books;
beforeAll(async () => {
  books = await seedBooks();
});
afterAll(() => books.t.stop());

describe('the queries of investments', () => {
  it('when trades are booked and the holdings (now and as of a date), lots and gains read, then no query scans the lines, trades, lots, reductions or prices whole', async () => {
    const { t, token, bank } = books;
    const api = t.api;
    const broker = (await api.post('/api/accounts', { name: 'Broker', type: 'ASSET' }, token)).body.id;
    const gains = (await api.post('/api/accounts', { name: 'Gains', type: 'INCOME' }, token)).body.id;
    const { caught, stop } = catchPrepared(books.file);
    try {
      const security = (await api.post('/api/securities', { symbol: 'VTI', name: 'VTI', currency: 'USD' }, token)).body
        .id;
      await api.put(
        `/api/investments/accounts/${broker}`,
        { booking_method: 'FIFO', short_term_account_id: gains },
        token,
      );
      const base = { account_id: broker, security_id: security, cash_account_id: bank };
      for (const [date, units, price] of [
        ['2026-01-05', '10', '200'],
        ['2026-02-05', '5', '210'],
      ])
        expect(
          (await api.post('/api/investments/trades', { kind: 'buy', date, units, price, ...base }, token)).status,
        ).toBe(201);
      const sale = { kind: 'sell', date: '2026-03-05', units: '12', price: '220', ...base };
      expect((await api.post('/api/investments/trades/preview', sale, token)).status).toBe(200);
      expect((await api.post('/api/investments/trades', sale, token)).status).toBe(201);
      const screens = [
        '/api/securities',
        '/api/investments/holdings',
        '/api/investments/holdings?as_of=2026-02-10',
        `/api/investments/holdings/${broker}/${security}/lots`,
        '/api/investments/gains?from=2026-01-01&to=2026-12-31',
        `/api/investments/accounts/${broker}`,
      ];
      for (const screen of screens) expect((await api.get(screen, token)).status, screen).toBe(200);
    } finally {
      stop();
    }
    const reads = [...caught].filter((sql) => /^\s*SELECT/i.test(sql));
    expect(
      reads.filter((sql) => /trades|lots|lot_reductions|security_prices|holdings/.test(sql)).length,
    ).toBeGreaterThan(5);
    const tables = [...BIG_TABLES, 'trades', 'lots', 'lot_reductions', 'security_prices'];
    readOnly(books.file, (db) => expect(offenders(db, reads, tables)).toEqual([]));
    // the holdings as of a date: each of its sums a range of an index that holds what it sums
    const asOf = reads.filter((sql) => /SUM\(t\.units_delta_atoms\)/.test(sql));
    expect(asOf).toHaveLength(1);
    const steps = readOnly(books.file, (db) => planOf(db, asOf[0]!)).filter((d) => /\bt\b/.test(d));
    expect(steps).toHaveLength(3);
    for (const step of steps) expect(step).toMatch(/^SEARCH t USING COVERING INDEX trades_holding_sums/);
  });

  it("when the books with trades are exported (run here, in-process: the route runs it on a worker), then the trades are walked in date order from an index, not sorted whole, and each trade's lot and reductions are index seeks", () => {
    const stores = new Stores(books.t.dataDir);
    const { caught, stop } = catchPrepared(books.file);
    try {
      expect(exportBooks(stores.ledger(books.userId), { format: 'beancount' }).text).toMatch(/ VTI \{/);
    } finally {
      stop();
      stores.close();
    }
    // the walk beside the entries and what it reads per trade (the passes that gather each holding's
    // flags read every reduction once, as the export reads every entry once)
    const walk = [...caught].filter((sql) => /ORDER BY t\.trade_date|WHERE (r\.)?trade_id = \?/.test(sql));
    expect(walk).toHaveLength(3);
    readOnly(books.file, (db) => expect(offenders(db, walk, ['trades', 'lots', 'lot_reductions'])).toEqual([]));
  });
});

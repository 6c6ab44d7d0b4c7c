import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_TABLES, catchPrepared, offenders, readOnly, seedBooks, type Books } from './plans.ts';

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
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

const ids: Record<string, string> = {};

async function account(name: string, type: string, currency = 'USD') {
  const r = await api.post('/api/accounts', { name, type, currency }, token);
  expect(r.status).toBe(201);
  return r.body.id as string;
}

const trade = (body: object) => api.post('/api/investments/trades', body, token);
const preview = (body: object) => api.post('/api/investments/trades/preview', body, token);

useAppServer();

beforeAll(async () => {
  ids.broker = await account('Brokerage', 'ASSET');
  ids.checking = await account('Checking', 'ASSET');
  ids.short = await account('Short-term gains', 'INCOME');
  ids.long = await account('Long-term gains', 'INCOME');
  ids.dividends = await account('Dividends', 'INCOME');
  ids.fees = await account('Broker fees', 'EXPENSE');
  ids.equity = await account('Opening', 'EQUITY');
  const funded = await api.post(
    '/api/journal-entries',
    {
      entry_date: '2023-01-01',
      auto_post: true,
      lines: [
        { account_id: ids.broker, direction: 'DEBIT', amount: '10000.00' },
        { account_id: ids.equity, direction: 'CREDIT', amount: '10000.00' },
      ],
    },
    token,
  );
  expect(funded.status).toBe(201);
  const vti = await api.post(
    '/api/securities',
    { symbol: 'VTI', name: 'Vanguard Total Stock Market', currency: 'USD' },
    token,
  );
  expect(vti.status).toBe(201);
  ids.vti = vti.body.id;
  const settings = await api.put(
    `/api/investments/accounts/${ids.broker}`,
    { booking_method: 'FIFO', short_term_account_id: ids.short, long_term_account_id: ids.long },
    token,
  );
  expect(settings.status).toBe(200);
});

const buy = (date: string, units: string, price: string, extra: object = {}) =>
  trade({ kind: 'buy', date, account_id: ids.broker, security_id: ids.vti, units, price, ...extra });

describe('investments: trades, lots and gains', () => {
  it('when VTI is bought twice and 15 sold FIFO, then the older lot empties, the gain is proceeds − cost, split short and long term, and the trial balance stays zero', async () => {
    expect((await buy('2023-03-01', '10', '200.00', { fees: '5.00' })).status).toBe(201); // basis 2005.00
    expect((await buy('2024-06-01', '10', '220.00')).status).toBe(201);
    const sale = {
      kind: 'sell',
      date: '2024-07-01',
      account_id: ids.broker,
      security_id: ids.vti,
      units: '15',
      price: '250',
    };
    const shown = await preview(sale);
    expect(shown.status).toBe(200);
    // proceeds 3750.00 spread by units: 2500.00 on the old lot, 1250.00 on the new
    expect(shown.body).toMatchObject({
      units: '15',
      cost_basis: '3105.00',
      proceeds: '3750.00',
      realized_gain: '645.00',
      long_term_gain: '495.00',
      short_term_gain: '150.00',
    });
    expect(shown.body.reductions.map((r: { units: string; long_term: boolean }) => [r.units, r.long_term])).toEqual([
      ['10', true],
      ['5', false],
    ]);
    const booked = await trade(sale);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ realized_gain: '645.00', entry_id: expect.any(String) });

    const tb = await api.get('/api/reports/trial-balance?as_of=2024-12-31', token);
    expect(tb.body.currencies).toHaveLength(1);
    expect(tb.body.currencies[0].total_debit).toBe(tb.body.currencies[0].total_credit);
    const balances = await api.get(`/api/accounts/${ids.broker}/balance?as_of=2024-12-31`, token);
    // 10000 − 2005 − 2200 + 3750 (cash) + 1100 (cost of the 5 left) = 10645.00
    expect(balances.body.balance).toBe('10645.00');
    // the balance sheet holds the 5 VTI left at market (5 × 250.00) and shows the 150.00 above cost as unrealised gains
    const sheet = await api.get('/api/reports/balance-sheet?as_of=2024-12-31&convert_to=USD', token);
    for (const group of [sheet.body.currencies[0], sheet.body.converted]) {
      expect(group.assets.find((n: { name: string }) => n.name === 'Brokerage').balance).toBe('10795.00');
      expect(group.unrealized_gains).toBe('150.00');
      expect(group.total_liabilities_and_equity).toBe(group.total_assets);
    }
    const before = await api.get('/api/reports/balance-sheet?as_of=2024-06-30', token);
    expect(before.body.currencies[0].unrealized_gains).toBe('195.00'); // 20 units at 220.00 against 4205.00

    const holdings = await api.get('/api/investments/holdings', token);
    expect(holdings.body.items).toEqual([
      expect.objectContaining({
        symbol: 'VTI',
        units: '5',
        cost_basis: '1100.00',
        price: '250',
        price_date: '2024-07-01',
        market_value: '1250.00',
        unrealized_gain: '150.00',
        return_percent: '13.64',
        realized_gain: '645.00',
      }),
    ]);
    const lots = await api.get(`/api/investments/holdings/${ids.broker}/${ids.vti}/lots`, token);
    expect(lots.body.items).toEqual([
      expect.objectContaining({
        bought_on: '2024-06-01',
        units_bought: '10',
        units: '5',
        cost_basis: '1100.00',
        unit_cost: '220',
      }),
    ]);
    const gains = await api.get('/api/investments/gains?from=2024-01-01&to=2024-12-31&symbol=VTI', token);
    expect(gains.body.items).toEqual([
      expect.objectContaining({ symbol: 'VTI', units_sold: '15', realized_gain: '645.00', long_term_gain: '495.00' }),
    ]);
    const past = await api.get('/api/investments/holdings?as_of=2024-06-15', token);
    expect(past.body.items[0]).toMatchObject({
      units: '20',
      cost_basis: '4205.00',
      price: '220',
      market_value: '4400.00',
    });
  });

  it('when a lot is named on the sale, then that lot alone is reduced', async () => {
    const r = await buy('2024-08-01', '4', '230');
    expect(r.status).toBe(201);
    const lots = (await api.get(`/api/investments/holdings/${ids.broker}/${ids.vti}/lots`, token)).body.items;
    const newest = lots.find((l: { bought_on: string }) => l.bought_on === '2024-08-01');
    const sold = await trade({
      kind: 'sell',
      date: '2024-09-01',
      account_id: ids.broker,
      security_id: ids.vti,
      units: '1',
      price: '240',
      lots: [{ lot_id: newest.id, units: '1' }],
    });
    expect(sold.status).toBe(201);
    expect(sold.body).toMatchObject({ cost_basis: '230.00', realized_gain: '10.00' });
    const after = (await api.get(`/api/investments/holdings/${ids.broker}/${ids.vti}/lots`, token)).body.items;
    expect(after.map((l: { units: string }) => l.units)).toEqual(['5', '3']);
  });

  it('when more units are sold than held, or a lot is named wrongly, then it is 400 with the reason and nothing changes', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, userId));
    const sale = { kind: 'sell', date: '2024-10-01', account_id: ids.broker, security_id: ids.vti, price: '250' };
    const tooMany = await trade({ ...sale, units: '9' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'INSUFFICIENT_UNITS', detail: expect.stringContaining('holds 8 VTI') });
    const unknownLot = await trade({
      ...sale,
      units: '1',
      lots: [{ lot_id: '00000000-0000-4000-8000-000000000000', units: '1' }],
    });
    expect(unknownLot.body.code).toBe('INVALID_LOT');
    const wrongCurrency = await trade({
      ...sale,
      units: '1',
      cash_account_id: await account('Euro cash', 'ASSET', 'EUR'),
    });
    expect(wrongCurrency.body.code).toBe('INVALID_ACCOUNT');
    const beforeAccount = databaseDigest(ledgerFile(t.dataDir, userId));
    for (const bad of [
      { ...sale, units: '0' },
      { ...sale, units: '1.123456789' },
      { ...sale, units: 1 },
      { ...sale, units: '1', price: '-3' },
      { ...sale, units: '1', fees: '0.001' },
    ])
      expect((await trade(bad)).status).toBe(400);
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(beforeAccount);
    expect(before).not.toBe(beforeAccount); // the EUR account was made between
  });

  it('when a dividend is paid in cash and one reinvested, then the cash one is income and the reinvested one a new lot at its amount', async () => {
    const cash = await trade({
      kind: 'dividend',
      date: '2024-09-15',
      account_id: ids.broker,
      security_id: ids.vti,
      amount: '12.34',
      income_account_id: ids.dividends,
      cash_account_id: ids.checking,
    });
    expect(cash.status).toBe(201);
    const reinvested = await trade({
      kind: 'dividend',
      date: '2024-09-16',
      account_id: ids.broker,
      security_id: ids.vti,
      amount: '24.50',
      income_account_id: ids.dividends,
      reinvest: { units: '0.1', price: '245' },
    });
    expect(reinvested.status).toBe(201);
    const holding = (await api.get('/api/investments/holdings', token)).body.items[0];
    expect(holding).toMatchObject({ units: '8.1', cost_basis: '1814.50' });
    const dividends = await api.get(`/api/accounts/${ids.dividends}/balance?as_of=2024-12-31`, token);
    expect(dividends.body.balance).toBe('36.84');
  });

  it('when VTI splits 2:1, then units double, cost basis stays, and a trade entry cannot be voided', async () => {
    const split = await trade({
      kind: 'split',
      date: '2024-10-01',
      account_id: ids.broker,
      security_id: ids.vti,
      ratio: '2:1',
    });
    expect(split.status).toBe(201);
    expect(split.body.entry_id).toBeNull();
    const holding = (await api.get('/api/investments/holdings', token)).body.items[0];
    expect(holding).toMatchObject({ units: '16.2', cost_basis: '1814.50' });
    const sold = await buy('2024-10-02', '1', '125');
    const voided = await api.post(`/api/journal-entries/${sold.body.entry_id}/void`, {}, token);
    expect(voided.status).toBe(400);
    expect(voided.body.detail).toContain('trade');
  });

  it('when a sale is booked at average cost, then its cost is the pool’s average', async () => {
    const acct = await account('Average broker', 'ASSET');
    await api.put(
      `/api/investments/accounts/${acct}`,
      { booking_method: 'AVERAGE', short_term_account_id: ids.short },
      token,
    );
    const base = { account_id: acct, security_id: ids.vti, cash_account_id: ids.checking };
    await trade({ kind: 'buy', date: '2025-01-02', units: '1', price: '100', ...base });
    await trade({ kind: 'buy', date: '2025-01-03', units: '2', price: '130', ...base });
    const sold = await trade({ kind: 'sell', date: '2025-01-04', units: '1', price: '120', ...base });
    expect(sold.body).toMatchObject({ cost_basis: '120.00', realized_gain: '0.00' });
  });

  it('when a security symbol is a currency code or taken, then it is refused', async () => {
    expect((await api.post('/api/securities', { symbol: 'USD', name: 'x', currency: 'USD' }, token)).status).toBe(400);
    const dup = await api.post('/api/securities', { symbol: 'VTI', name: 'again', currency: 'USD' }, token);
    expect(dup.body.code).toBe('DUPLICATE_NAME');
  });

  it('when a CSV of security prices is imported, then each row keeps its price; a row of an unknown symbol refuses the file, naming its line, and keeps nothing', async () => {
    const csv = (text: string) =>
      api.request('POST', '/api/securities/prices/import', {
        token,
        rawBody: text,
        headers: { 'content-type': 'text/csv' },
      });
    const before = databaseDigest(ledgerFile(t.dataDir, userId));
    const bad = await csv('Date,Symbol,Price\n2026-01-02,vti,300\n2026-01-02,ZZZ,1\n');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Line 3: "ZZZ" is not a declared security');
    expect((await csv('date,symbol,price\n2026-01-02,VTI,0\n')).body.errors).toEqual([
      { field: 'line.2', message: '"0" is not a price above zero with at most 10 decimals' },
    ]);
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(before);
    const good = await csv('price,symbol,date,note\n300.50,vti,2026-01-02,x\n301,VTI,2026-01-03,\n');
    expect(good.status).toBe(201);
    expect(good.body).toEqual({ imported: 2, first_date: '2026-01-02', last_date: '2026-01-03' });
    const held = (await api.get('/api/investments/holdings?as_of=2026-01-02', token)).body.items[0];
    expect(held).toMatchObject({ symbol: 'VTI', price: '300.5', price_date: '2026-01-02' });
  });

  it('when the fees go to an expense account, then they are left out of the cost basis and the proceeds and booked on their own', async () => {
    const acct = await account('Fee broker', 'ASSET');
    await api.put(
      `/api/investments/accounts/${acct}`,
      { booking_method: 'FIFO', short_term_account_id: ids.short },
      token,
    );
    const base = {
      account_id: acct,
      security_id: ids.vti,
      cash_account_id: ids.checking,
      fees: '4.95',
      fee_account_id: ids.fees,
    };
    const bought = await trade({ kind: 'buy', date: '2025-02-03', units: '2', price: '100', ...base });
    expect(bought.body).toMatchObject({ cost_basis: '200.00' });
    expect(bought.body.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account_id: ids.fees, direction: 'DEBIT', amount: '4.95' }),
        expect.objectContaining({ account_id: ids.checking, direction: 'CREDIT', amount: '204.95' }),
      ]),
    );
    const sold = await trade({ kind: 'sell', date: '2025-02-04', units: '2', price: '110', ...base });
    expect(sold.body).toMatchObject({ proceeds: '220.00', cost_basis: '200.00', realized_gain: '20.00' });
    expect(sold.body.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account_id: ids.checking, direction: 'DEBIT', amount: '215.05' }),
      ]),
    );
    const fees = await api.get(`/api/accounts/${ids.fees}/balance?as_of=2025-12-31`, token);
    expect(fees.body.balance).toBe('9.90');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { INLINE_BYTES, JobRunner } from '../../jobs/job-runner.ts';
import { databaseDigest, ledgerFile, registerUser } from '../../../test/support/server.ts';
import { api, t, token, userId, useAppServer } from '../../../test/support/app-server.ts';

useAppServer();

const csv = (text: string) =>
  api.request('POST', '/api/prices/import', { token, rawBody: text, headers: { 'content-type': 'text/csv' } });

describe('prices (CONTRACT §16)', () => {
  it('when a price is posted for a new date and pair, then it is 201; posting the same date and pair again replaces it with 200', async () => {
    const created = await api.post('/api/prices', { date: '2025-06-01', from: 'GBP', to: 'USD', rate: '1.270' }, token);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      date: '2025-06-01',
      from: 'GBP',
      to: 'USD',
      rate: '1.27',
      created_at: expect.any(String),
    });
    const replaced = await api.post(
      '/api/prices',
      { date: '2025-06-01', from: 'GBP', to: 'USD', rate: '1.2755' },
      token,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, rate: '1.2755' });
    const list = await api.get('/api/prices?from=GBP&to=USD', token);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0].rate).toBe('1.2755');
  });

  it('when the rate is zero, a number, has 13 decimals, or the pair is one currency, then it is 400 and nothing is stored', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, userId));
    for (const [body, field] of [
      [{ date: '2025-06-02', from: 'GBP', to: 'USD', rate: '0' }, 'rate'],
      [{ date: '2025-06-02', from: 'GBP', to: 'USD', rate: 1.2 }, 'rate'],
      [{ date: '2025-06-02', from: 'GBP', to: 'USD', rate: '1.0000000000001' }, 'rate'],
      [{ date: '2025-06-02', from: 'GBP', to: 'GBP', rate: '1' }, 'to'],
      [{ date: '2025-02-30', from: 'GBP', to: 'USD', rate: '1' }, 'date'],
      [{ date: '2025-06-02', from: 'XXY', to: 'USD', rate: '1' }, 'from'],
    ] as const) {
      const res = await api.post('/api/prices', body, token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(before);
  });

  it('when prices are listed, then they come newest first, filtered by from and to, paginated', async () => {
    for (const [date, from, to, rate] of [
      ['2025-07-01', 'CHF', 'EUR', '1.05'],
      ['2025-07-03', 'CHF', 'EUR', '1.06'],
      ['2025-07-02', 'EUR', 'CHF', '0.95'],
    ])
      expect((await api.post('/api/prices', { date, from, to, rate }, token)).status).toBe(201);
    const chf = await api.get('/api/prices?from=CHF', token);
    expect(chf.body.items.map((p: { date: string }) => p.date)).toEqual(['2025-07-03', '2025-07-01']);
    const intoChf = await api.get('/api/prices?to=CHF', token);
    expect(intoChf.body.items.map((p: { from: string }) => p.from)).toEqual(['EUR']);
    const page = await api.get('/api/prices?per_page=2&page=2', token);
    expect(page.body).toMatchObject({ total: 4, page: 2, per_page: 2 });
    expect(page.body.items.map((p: { date: string }) => p.date)).toEqual(['2025-07-01', '2025-06-01']);
    const latest = await api.get('/api/prices/latest', token);
    expect(
      latest.body.items.map((p: { from: string; to: string; rate: string }) => `${p.from}/${p.to} ${p.rate}`),
    ).toEqual(['CHF/EUR 1.06', 'EUR/CHF 0.95', 'GBP/USD 1.2755']);
  });

  it('when a price is deleted, then it is gone (204), and deleting it again is 404', async () => {
    const created = await api.post('/api/prices', { date: '2025-08-01', from: 'SEK', to: 'NOK', rate: '0.98' }, token);
    expect((await api.delete(`/api/prices/${created.body.id}`, token)).status).toBe(204);
    expect((await api.delete(`/api/prices/${created.body.id}`, token)).status).toBe(404);
    expect((await api.delete('/api/prices/not-an-id', token)).status).toBe(404);
  });

  it('when a CSV file of rates is imported, then each row creates or replaces a price', async () => {
    const res = await csv(
      'Date,From,To,Rate,Source\n2025-09-01,JPY,USD,0.0067,ecb\n2025-09-02,jpy,usd,0.00675,ecb\n2025-06-01,GBP,USD,1.28,ecb\n',
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: 2,
      replaced: 1,
      security_prices: 0,
      first_date: '2025-06-01',
      last_date: '2025-09-02',
    });
    const jpy = await api.get('/api/prices?from=JPY&to=USD', token);
    expect(jpy.body.items.map((p: { rate: string }) => p.rate)).toEqual(['0.00675', '0.0067']);
  });

  it('when a rates file is larger than the server thread takes at once, then the job worker imports it, a bad row refusing it all as before', async () => {
    const days = Array.from({ length: 3000 }, (_, i) =>
      new Date(Date.UTC(2015, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
    );
    const text = `date,from,to,rate\n${days.map((d, i) => `${d},CHF,USD,1.${String(i).padStart(4, '0')}`).join('\n')}\n`;
    expect(text.length).toBeGreaterThan(INLINE_BYTES);
    const jobs = vi.spyOn(JobRunner.prototype, 'run');
    try {
      const res = await csv(text);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        created: 3000,
        replaced: 0,
        security_prices: 0,
        first_date: days[0],
        last_date: days.at(-1),
      });
      expect(jobs.mock.calls.map(([, name, , size]) => `${name} ${size! > INLINE_BYTES}`)).toEqual([
        'importPriceCsv true',
      ]);
      const before = databaseDigest(ledgerFile(t.dataDir, userId));
      const refused = await csv(text.replace(/\n[^\n]+\n$/, '\n2099-01-01,CHF,USD,0\n'));
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', detail: expect.stringMatching(/^Line 3001:/) });
      expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(before);
    } finally {
      jobs.mockRestore();
    }
    expect((await api.get('/api/prices?from=CHF&to=USD&per_page=1', token)).body.total).toBe(3000);
  });

  it('when a CSV row is bad, then the file is refused naming its line, and nothing of it is stored', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, userId));
    for (const [text, line] of [
      ['date,from,to,rate\n2025-10-01,JPY,USD,0.007\n2025-10-02,JPY,USD,-1\n', 3],
      ['date,from,to,rate\n2025-10-01,JPY,ABC,0.007\n', 2],
      ['date,from,to,rate\n2025-10-01,JPY,USD,0.007\n2025-10-01,JPY,USD,0.008\n', 3],
      ['day,from,to,rate\n2025-10-01,JPY,USD,0.007\n', 1],
      ['', 1],
    ] as const) {
      const res = await csv(text);
      expect(res.status, text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.detail).toMatch(new RegExp(`^Line ${line}:`));
      expect(res.body.errors[0].field).toBe(`line.${line}`);
    }
    expect(databaseDigest(ledgerFile(t.dataDir, userId))).toBe(before);
  });
});

describe('the home currency (/api/settings)', () => {
  it('when none is set, then it is the currency most accounts are in; once set, it is that one', async () => {
    const other = await registerUser(api);
    expect((await api.get('/api/settings', other.token)).body).toEqual({
      home_currency: 'USD',
      home_currency_set: false,
    });
    for (const [name, currency] of [
      ['A', 'EUR'],
      ['B', 'EUR'],
      ['C', 'USD'],
    ])
      await api.post('/api/accounts', { name, type: 'ASSET', currency }, other.token);
    expect((await api.get('/api/settings', other.token)).body).toEqual({
      home_currency: 'EUR',
      home_currency_set: false,
    });
    const put = await api.put('/api/settings', { home_currency: 'CHF' }, other.token);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ home_currency: 'CHF', home_currency_set: true });
    expect((await api.get('/api/settings', other.token)).body.home_currency).toBe('CHF');
  });

  it('when the home currency is not an ISO code or another field is sent, then it is 400', async () => {
    expect((await api.put('/api/settings', { home_currency: 'EURO' }, token)).body.code).toBe('VALIDATION_ERROR');
    expect((await api.put('/api/settings', { home_currency: 'EUR', theme: 'dark' }, token)).status).toBe(400);
  });
});

describe('converting an amount at the rate of a day', () => {
  it('when the pair has a price on or before the day, then the amount is converted at it, rounded once half to even, with the price named', async () => {
    const { token: own } = await registerUser(api);
    await api.post('/api/prices', { date: '2024-01-02', from: 'GBP', to: 'USD', rate: '1.25' }, own);
    await api.post('/api/prices', { date: '2024-01-09', from: 'GBP', to: 'USD', rate: '1.3' }, own);
    const res = await api.get('/api/prices/convert?amount=10.10&from=GBP&to=USD&date=2024-01-05', own);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      amount: '10.10',
      from: 'GBP',
      to: 'USD',
      date: '2024-01-05',
      converted_amount: '12.62', // 12.625 → the even cent
      rate: '1.25',
      price: {
        id: expect.any(String),
        date: '2024-01-02',
        from: 'GBP',
        to: 'USD',
        rate: '1.25',
        created_at: expect.any(String),
      },
    });
    const odd = await api.get('/api/prices/convert?amount=0.30&from=GBP&to=USD&date=2024-01-05', own);
    expect(odd.body.converted_amount).toBe('0.38'); // 0.375 → the even cent
    const later = await api.get('/api/prices/convert?amount=10&from=GBP&to=USD&date=2024-01-09', own);
    expect(later.body).toMatchObject({ amount: '10.00', converted_amount: '13.00', rate: '1.3' });
  });

  it('when only the opposite pair has a price, then its inverse converts exactly and the rate is shown to 12 decimals', async () => {
    const { token: own } = await registerUser(api);
    await api.post('/api/prices', { date: '2024-01-02', from: 'USD', to: 'JPY', rate: '150' }, own);
    const res = await api.get('/api/prices/convert?amount=1000&from=JPY&to=USD&date=2024-02-01', own);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      converted_amount: '6.67',
      rate: '0.006666666667',
      price: { from: 'USD', to: 'JPY', rate: '150' },
    });
  });

  it('when no price is on or before the day, then 400 MISSING_RATE names the pair and the day, and nothing changes', async () => {
    const own = await registerUser(api);
    await api.post('/api/prices', { date: '2024-03-01', from: 'GBP', to: 'USD', rate: '1.25' }, own.token);
    const before = databaseDigest(ledgerFile(t.dataDir, own.id));
    const res = await api.get('/api/prices/convert?amount=10.00&from=GBP&to=USD&date=2024-02-29', own.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'MISSING_RATE',
      detail:
        'No rate of GBP in USD on or before 2024-02-29 (nor of USD in GBP): add one under Rates, or give the amount in USD',
      errors: [{ field: 'date', message: 'needs a GBP/USD rate on or before 2024-02-29' }],
    });
    expect(databaseDigest(ledgerFile(t.dataDir, own.id))).toBe(before);
  });

  it.each([
    ['amount=10.001&from=GBP&to=USD&date=2024-01-05', 'amount'],
    ['amount=-1&from=GBP&to=USD&date=2024-01-05', 'amount'],
    ['amount=0&from=GBP&to=USD&date=2024-01-05', 'amount'],
    ['amount=1&from=GBP&to=GBP&date=2024-01-05', 'to'],
    ['amount=1&from=GBX&to=USD&date=2024-01-05', 'from'],
    ['amount=1&from=GBP&to=USD&date=2024-02-30', 'date'],
    ['amount=1&from=GBP&to=USD', 'date'],
  ])('when the query is %s, then 400 VALIDATION_ERROR names %s', async (query, field) => {
    const res = await api.get(`/api/prices/convert?${query}`, token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('securities in the rates file (docs/investments.md "Prices")', () => {
  it('when a rates file holds a declared security priced in its currency, then the row is its price: the holdings value at it, the rates table holds only the currencies', async () => {
    const { token: owner } = await registerUser(api);
    const broker = (await api.post('/api/accounts', { name: 'Broker', type: 'ASSET', currency: 'USD' }, owner)).body.id;
    const vti = (await api.post('/api/securities', { symbol: 'VTI', name: 'Total market', currency: 'USD' }, owner))
      .body.id;
    const buy = { kind: 'buy', date: '2026-01-05', account_id: broker, security_id: vti, units: '10', price: '200' };
    expect((await api.post('/api/investments/trades', buy, owner)).status).toBe(201);
    const file = 'date,from,to,rate\n2026-01-05,vti,USD,201.5\n2026-02-01,VTI,USD,250.125\n2026-02-01,EUR,USD,1.1\n';
    const res = await api.request('POST', '/api/prices/import', {
      token: owner,
      rawBody: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(201);
    // the buy's own price of 2026-01-05 is replaced
    expect(res.body).toEqual({
      created: 2,
      replaced: 1,
      security_prices: 2,
      first_date: '2026-01-05',
      last_date: '2026-02-01',
    });
    const holding = (await api.get('/api/investments/holdings?as_of=2026-02-10', owner)).body.items[0];
    expect([holding.price, holding.price_date, holding.market_value]).toEqual(['250.125', '2026-02-01', '2501.25']);
    expect((await api.get('/api/investments/holdings?as_of=2026-01-20', owner)).body.items[0].price).toBe('201.5');
    const rates = (await api.get('/api/prices', owner)).body.items as { from: string }[];
    expect(rates.map((r) => r.from)).toEqual(['EUR']);
  });

  it('when a security row names no declared security or another currency than its own, then the file is 400 naming the line and nothing is imported', async () => {
    const { token: owner, id } = await registerUser(api);
    await api.post('/api/securities', { symbol: 'VTI', name: 'Total market', currency: 'USD' }, owner);
    const before = databaseDigest(ledgerFile(t.dataDir, id));
    for (const [row, detail] of [
      ['2026-02-01,AAPL,USD,190', /^Line 3: "AAPL" is neither an ISO 4217 currency code nor a declared security/],
      ['2026-02-01,VTI,EUR,190', /^Line 3: VTI is priced in USD, not "EUR"/],
      ['2026-02-01,VTI,USD,-1', /^Line 3: "-1" is not a price above zero/],
      ['2026-01-05,VTI,USD,2', /^Line 3: a second price of VTI on 2026-01-05/],
    ] as const) {
      const res = await api.request('POST', '/api/prices/import', {
        token: owner,
        rawBody: `date,from,to,rate\n2026-01-05,VTI,USD,1\n${row}\n2026-02-01,EUR,USD,1.1\n`,
        headers: { 'content-type': 'text/csv' },
      });
      expect([res.status, res.body.code], row).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.detail, row).toMatch(detail);
    }
    expect(databaseDigest(ledgerFile(t.dataDir, id))).toBe(before);
  });
});

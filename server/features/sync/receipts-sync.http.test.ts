import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PASSWORD, startTestRelay, type TestRelay } from '../../../test/support/relay.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * Receipts and trades between two computers through a relay on loopback: a PNG and a PDF attached
 * on Alice's laptop reach Bob's desktop byte for byte, her trades give him the same holdings; the
 * relay's files never hold a marker written inside the receipts; a receipt whose bytes cannot come
 * is listed as waiting for sync and its download says so.
 */

const FIXTURES = new URL('../../../test/fixtures/attachments/', import.meta.url);
let relay: TestRelay;
let laptop: TestServer;
let desktop: TestServer;

async function attach(t: TestServer, token: string, entryId: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const encoded = new Response(form);
  const res = await t.api.request('POST', `/api/entries/${entryId}/attachments`, {
    rawBody: new Uint8Array(await encoded.arrayBuffer()),
    token,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; sha256: string };
}

async function download(t: TestServer, token: string, id: string) {
  const res = await fetch(`${t.api.baseUrl}/api/attachments/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('receipts and trades between two computers through a relay', () => {
  beforeAll(async () => {
    relay = await startTestRelay();
    laptop = await startTestServer();
    desktop = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all([laptop.stop(), desktop.stop(), relay.stop()]);
  });

  it('when Alice attaches receipts and trades, then Bob gets the same files and holdings, the relay holds no receipt in plain, and a receipt whose bytes cannot come waits for sync', async () => {
    const alice = await registerUser(laptop.api, 'Alice');
    const api = laptop.api;
    const broker = (await api.post('/api/accounts', { name: 'Broker', type: 'ASSET' }, alice.token)).body.id;
    const gains = (await api.post('/api/accounts', { name: 'Gains', type: 'INCOME' }, alice.token)).body.id;
    const security = (await api.post('/api/securities', { symbol: 'VTI', name: 'VTI', currency: 'USD' }, alice.token))
      .body.id;
    await api.put(
      `/api/investments/accounts/${broker}`,
      { booking_method: 'FIFO', short_term_account_id: gains },
      alice.token,
    );
    const base = { account_id: broker, security_id: security };
    const buy = await api.post(
      '/api/investments/trades',
      { kind: 'buy', date: '2026-01-05', units: '10', price: '200', ...base },
      alice.token,
    );
    expect(buy.status).toBe(201);
    const sale = { kind: 'sell', date: '2026-03-05', units: '4', price: '220', ...base };
    expect((await api.post('/api/investments/trades', sale, alice.token)).status).toBe(201);

    const marker = `RECEIPT-MARKER-${crypto.randomUUID()}`;
    // a marker after the PNG's last chunk and in a PDF's comment: both still read as their kind
    const png = Buffer.concat([fs.readFileSync(new URL('receipt.png', FIXTURES)), Buffer.from(marker)]);
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.4\n% ${marker}\n`),
      crypto.randomBytes(600 * 1024),
      Buffer.from('\n%%EOF\n'),
    ]);
    const onPng = await attach(laptop, alice.token, buy.body.entry_id, png, 'till.png');
    const onPdf = await attach(laptop, alice.token, buy.body.entry_id, pdf, 'statement.pdf');

    const made = await api.post(
      '/api/sync/group',
      {
        relay_url: relay.url,
        relay_username: `alice-${process.pid}`,
        relay_password: RELAY_PASSWORD,
        register: true,
        passphrase: 'our receipts 2026',
      },
      alice.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const invite = (await api.post('/api/sync/invites', {}, alice.token)).body.invite_code;
    const bob = await registerUser(desktop.api, 'Bob');
    const joined = await desktop.api.post(
      '/api/sync/join',
      {
        invite_code: invite,
        relay_username: `bob-${process.pid}`,
        relay_password: RELAY_PASSWORD,
        register: true,
        passphrase: 'our receipts 2026',
      },
      bob.token,
    );
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);

    const list = await desktop.api.get(`/api/entries/${buy.body.entry_id}/attachments`, bob.token);
    expect(list.status).toBe(200);
    expect(
      list.body.items.map((a: { file_name: string; waiting_for_sync: boolean }) => [a.file_name, a.waiting_for_sync]),
    ).toEqual([
      ['till.png', false],
      ['statement.pdf', false],
    ]);
    expect((await download(desktop, bob.token, onPng.id)).bytes.equals(png)).toBe(true);
    expect((await download(desktop, bob.token, onPdf.id)).bytes.equals(pdf)).toBe(true);
    for (const read of ['/api/investments/holdings', `/api/investments/holdings/${broker}/${security}/lots`])
      expect((await desktop.api.get(read, bob.token)).body).toEqual((await api.get(read, alice.token)).body);

    for (const name of fs.readdirSync(relay.dataDir)) {
      const bytes = fs.readFileSync(path.join(relay.dataDir, name));
      expect(bytes.includes(Buffer.from(marker)), `the marker in ${name}`).toBe(false);
      expect(bytes.includes(png.subarray(0, 64)), `the PNG's first bytes in ${name}`).toBe(false);
    }

    // A receipt whose file left Alice's folder before it was sent: Bob gets its row, never its bytes.
    const lost = Buffer.concat([fs.readFileSync(new URL('receipt.png', FIXTURES)), Buffer.from('lost')]);
    const onLost = await attach(laptop, alice.token, buy.body.entry_id, lost, 'lost.png');
    fs.rmSync(path.join(laptop.dataDir, 'attachments', alice.id, onLost.sha256));
    expect((await api.post('/api/sync/now', undefined, alice.token)).status).toBe(200);
    expect((await desktop.api.post('/api/sync/now', undefined, bob.token)).status).toBe(200);
    const after = await desktop.api.get(`/api/entries/${buy.body.entry_id}/attachments`, bob.token);
    expect(after.body.items.find((a: { id: string }) => a.id === onLost.id)).toMatchObject({ waiting_for_sync: true });
    const waiting = await desktop.api.get(`/api/attachments/${onLost.id}`, bob.token);
    expect(waiting.status).toBe(409);
    expect(waiting.body).toMatchObject({ code: 'ATTACHMENT_WAITING_FOR_SYNC' });
  });
});

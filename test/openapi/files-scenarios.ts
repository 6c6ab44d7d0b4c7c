import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { attach, freshStatement, ids, made, RECEIPT_PNG, send, spend, t, user } from '../support/openapi-session.ts';

/** The scenarios of the operations of the advisor, export and import, backups, attachments and the document (test/openapi.test.ts runs them). */
export const FILES_SCENARIOS: Record<string, () => Promise<void>> = {
  async 'POST /api/chat'() {
    expect((await send('POST', '/api/chat', { json: { message: 'What is my net worth?' } })).status).toBe(200);
    expect((await send('POST', '/api/chat', { json: { message: 'Hi', session_id: crypto.randomUUID() } })).status).toBe(
      404,
    );
  },
  async 'GET /api/chat/status'() {
    expect((await send('GET', '/api/chat/status')).status).toBe(200);
  },
  async 'GET /api/chat/history'() {
    expect((await send('GET', `/api/chat/history?session_id=${ids.chatSession}`)).status).toBe(200);
    expect((await send('GET', `/api/chat/history?session_id=${crypto.randomUUID()}`)).status).toBe(404);
  },
  async 'DELETE /api/chat/session/{id}'() {
    expect((await send('DELETE', `/api/chat/session/${ids.chatSession}`)).status).toBe(204);
  },
  async 'GET /api/chat/suggestions'() {
    expect((await send('GET', '/api/chat/suggestions?language=zh')).status).toBe(200);
  },
  async 'GET /api/export'() {
    for (const format of ['hledger', 'csv'])
      expect((await send('GET', `/api/export?format=${format}`)).status).toBe(200);
    expect((await send('GET', '/api/export?format=hledger&start_date=2026-02-01&end_date=2026-01-01')).status).toBe(
      400,
    );
  },
  async 'GET /api/export/archive'() {
    expect((await send('GET', '/api/export/archive?format=beancount')).status).toBe(200);
    expect((await send('GET', '/api/export/archive?format=csv')).status).toBe(400);
  },
  async 'POST /api/import/journal'() {
    const journal = '2026-04-01 Rent\n    Expenses:Rent    500.00 USD\n    Assets:Bank\n';
    expect(
      (await send('POST', '/api/import/journal?format=hledger', { raw: journal, contentType: 'text/plain' })).status,
    ).toBe(201);
    const refused = await send('POST', '/api/import/journal?format=hledger', {
      raw: 'include other.journal\n',
      contentType: 'text/plain',
    });
    expect(refused.status).toBe(400);
  },
  async 'POST /api/backup'() {
    expect((await send('POST', '/api/backup')).status).toBe(201);
  },
  async 'GET /api/backups'() {
    expect((await send('GET', '/api/backups')).status).toBe(200);
  },
  async 'POST /api/backups/{name}/restore'() {
    expect((await send('POST', `/api/backups/${ids.backup}/restore`)).status).toBe(200);
    const newest = (await made(send('POST', '/api/backup'), 201)).name as string;
    const file = path.join(t.dataDir, 'backups', user.id, newest);
    const bytes = fs.readFileSync(file);
    bytes.fill(0x41, 4096, 8192);
    fs.writeFileSync(file, bytes);
    expect((await send('POST', `/api/backups/${newest}/restore`)).body.code).toBe('INVALID_BACKUP');
  },
  async 'POST /api/entries/{id}/attachments'() {
    expect((await attach(`/api/entries/${ids.posted}/attachments`, RECEIPT_PNG, 'again.png')).status).toBe(201);
    const html = new Uint8Array(Buffer.from('<!doctype html><p>hi</p>'));
    expect((await attach(`/api/entries/${ids.posted}/attachments`, html, 'page.png')).status).toBe(415);
    expect((await attach(`/api/entries/${crypto.randomUUID()}/attachments`, RECEIPT_PNG, 'x.png')).status).toBe(404);
    const entry = await made(send('POST', '/api/journal-entries', { json: spend('3.00', 'Ten receipts', true) }), 201);
    for (let i = 0; i < 10; i++) {
      const bytes = new Uint8Array([...RECEIPT_PNG, i]);
      await made(attach(`/api/entries/${entry.id}/attachments`, bytes, `${i}.png`), 201);
    }
    expect((await attach(`/api/entries/${entry.id}/attachments`, RECEIPT_PNG, 'eleven.png')).status).toBe(409);
  },
  async 'GET /api/entries/{id}/attachments'() {
    expect((await send('GET', `/api/entries/${ids.posted}/attachments`)).status).toBe(200);
  },
  async 'POST /api/bank-transactions/{id}/attachments'() {
    const url = `/api/bank-transactions/${ids.unmatchedTxn}/attachments`;
    expect((await attach(url, RECEIPT_PNG, 'line.png')).status).toBe(201);
    expect((await send('POST', url, { raw: 'plain text', contentType: 'text/plain' })).status).toBe(415);
    expect(
      (await attach(`/api/bank-transactions/${crypto.randomUUID()}/attachments`, RECEIPT_PNG, 'x.png')).status,
    ).toBe(404);
    const statement = await freshStatement('Ten receipts line');
    const line = `/api/bank-transactions/${statement.txns[0]!.id}/attachments`;
    for (let i = 0; i < 10; i++) await made(attach(line, new Uint8Array([...RECEIPT_PNG, 20 + i]), `${i}.png`), 201);
    expect((await attach(line, RECEIPT_PNG, 'eleven.png')).status).toBe(409);
  },
  async 'GET /api/bank-transactions/{id}/attachments'() {
    expect((await send('GET', `/api/bank-transactions/${ids.unmatchedTxn}/attachments`)).status).toBe(200);
  },
  async 'GET /api/attachments/counts'() {
    expect((await send('GET', `/api/attachments/counts?entry_ids=${ids.posted}`)).status).toBe(200);
  },
  async 'GET /api/attachments/usage'() {
    expect((await send('GET', '/api/attachments/usage')).status).toBe(200);
  },
  async 'GET /api/attachments/{id}'() {
    expect((await send('GET', `/api/attachments/${ids.attachment}`)).status).toBe(200);
    // a file whose bytes are not in the data folder (attached on another computer of the sync group)
    const bytes = new Uint8Array([...RECEIPT_PNG, 1, 2, 3]);
    const waiting = await made(attach(`/api/entries/${ids.posted}/attachments`, bytes, 'waiting.png'), 201);
    fs.rmSync(path.join(t.dataDir, 'attachments', user.id, waiting.sha256));
    expect((await send('GET', `/api/attachments/${waiting.id}`)).status).toBe(409);
  },
  async 'DELETE /api/attachments/{id}'() {
    const other = await made(attach(`/api/entries/${ids.posted}/attachments`, RECEIPT_PNG, 'gone.png'), 201);
    expect((await send('DELETE', `/api/attachments/${other.id}`)).status).toBe(204);
  },
  async 'GET /api/openapi.json'() {
    expect((await send('GET', '/api/openapi.json', { token: null })).status).toBe(200);
  },
};

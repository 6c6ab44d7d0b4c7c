import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile, registerUser, startTestServer, type TestServer } from '../support/server.ts';
import { errorShapeProblems, HANG_MS, rawHttp } from './support.ts';

let t: TestServer;
const main = { id: '', token: '' };
const seeds: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  ({ id: main.id, token: main.token } = await registerUser(t.api, 'Refused'));
  const made = async (res: Promise<{ status: number; body: any; text: string }>) => {
    const r = await res;
    if (r.status !== 201) throw new Error(`seeding failed: ${r.status} ${r.text}`);
    return r.body;
  };
  seeds.bank = (await made(t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, main.token))).id;
  const food = (await made(t.api.post('/api/accounts', { name: 'Food', type: 'EXPENSE' }, main.token))).id;
  const draft = {
    entry_date: '2026-01-05',
    memo: 'Draft',
    auto_post: false,
    lines: [
      { account_id: food, direction: 'DEBIT', amount: '5.00' },
      { account_id: seeds.bank, direction: 'CREDIT', amount: '5.00' },
    ],
  };
  seeds.draft = (await made(t.api.post('/api/journal-entries', draft, main.token))).id;
  const statement = {
    account_id: seeds.bank,
    transactions: [{ date: '2026-01-05', description: 'CARD 4411', amount: '40.00', type: 'debit' }],
  };
  seeds.statement = (await made(t.api.post('/api/statements', statement, main.token))).id;
});
afterAll(() => t.stop());

describe('requests refused before the app sees them, and fields where none are taken', () => {
  /** Bytes straight onto a socket: what Node's HTTP parser refuses never reaches Express. */
  function rawSocket(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(t.server.port, '127.0.0.1', () => socket.end(bytes));
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? resolve(text) : reject(error),
      );
      socket.setTimeout(HANG_MS, () => reject(new Error('HANG')));
    });
  }
  const parse = (raw: string) => {
    const [head, body = ''] = raw.split('\r\n\r\n');
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]),
      contentType: /content-type: ([^\r\n]+)/i.exec(head ?? '')?.[1],
      text: body,
      body: JSON.parse(body || 'null'),
    };
  };

  it('when the URL or a header is over 16 KiB, or the request is not HTTP, then the answer is still a JSON error (431 or 400)', async () => {
    const host = `Host: 127.0.0.1:${t.server.port}\r\n`;
    const cases: [string, string, number][] = [
      ['an overlong URL', `GET /api/accounts?q=${'x'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n`, 431],
      ['an overlong header', `GET /api/accounts HTTP/1.1\r\n${host}X-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431],
      ['a request line that is not HTTP', `HELLO THERE\r\n\r\n`, 400],
      ['a NUL in the request line', `GET /api/acc\u0000ounts HTTP/1.1\r\n${host}\r\n`, 400],
      ['a bad Content-Length', `POST /api/accounts HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`, 400],
      [
        'two Content-Lengths that disagree',
        `POST /api/accounts HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`,
        400,
      ],
    ];
    for (const [what, bytes, status] of cases) {
      const res = parse(await rawSocket(bytes));
      expect(res.status, what).toBe(status);
      expect(errorShapeProblems(res), what).toEqual([]);
    }
    expect((await t.api.get('/api/auth/me', main.token)).status).toBe(200);
  });

  it('when a route that takes no query or no body is sent one, then it is 400 VALIDATION_ERROR naming the field, and nothing changes', async () => {
    const before = databaseDigest(ledgerFile(t.dataDir, main.id));
    const cases: [string, string, string | undefined, string][] = [
      ['GET', `/api/accounts/${seeds.bank}?page=2`, undefined, 'page'],
      ['GET', '/api/auth/me?x=1', undefined, 'x'],
      ['DELETE', `/api/statements/${seeds.statement}?force=true`, undefined, 'force'],
      ['POST', `/api/journal-entries/${seeds.draft}/post`, '{"status":"void"}', 'status'],
      ['POST', `/api/journal-entries/${seeds.draft}/post`, '[1]', 'body'],
    ];
    for (const [method, urlPath, body, field] of cases) {
      const res = await rawHttp(t.server.port, {
        method,
        path: urlPath,
        headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, `${method} ${urlPath}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(databaseDigest(ledgerFile(t.dataDir, main.id))).toBe(before);
    // An empty JSON object is no field at all.
    const ok = await rawHttp(t.server.port, {
      path: `/api/accounts/${seeds.bank}`,
      headers: { authorization: `Bearer ${main.token}` },
    });
    expect(ok.status).toBe(200);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDigest, ledgerFile, registerUser, startTestServer, type TestServer } from '../support/server.ts';
import net from 'node:net';
import {
  expectErrorShape,
  killServer,
  listTree,
  PASSWORD,
  rawHttp,
  recordResults,
  ROOT,
  send,
  spawnServer,
  tempDir,
} from './support.ts';

/**
 * Hostile bank statement files through POST /api/statements/import: each is refused with the error
 * shape (400 INVALID_STATEMENT_FILE, or 413 over 20 MiB), stores nothing, and never makes the XML parser read a file or expand an entity.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'statements');

let t: TestServer;
const outer = tempDir('files');
let token = '';
let userId = '';
let bank = '';
/** A file an external entity would pull in: its content must never appear in an answer or the ledger. */
const secretFile = path.join(outer, 'outside-secret.txt');
const SECRET = 'TOP-SECRET-0xC0FFEE';
const timings: Record<string, number> = {};

beforeAll(async () => {
  fs.writeFileSync(secretFile, `${SECRET}\n`);
  t = await startTestServer({ dataDir: path.join(outer, 'data') });
  ({ token, id: userId } = await registerUser(t.api));
  bank = (await t.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(outer, { recursive: true, force: true });
});

const camt = (inner: string, prolog = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${prolog}<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>${inner}</BkToCstmrStmt></Document>`;
const ofx2 = (name: string, prolog = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n${prolog}<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD</CURDEF><BANKTRANLIST>` +
  `<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260101</DTPOSTED><TRNAMT>-1.00</TRNAMT><FITID>1</FITID><NAME>${name}</NAME></STMTTRN>` +
  '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>';
const billionLaughs =
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  Array.from({ length: 8 }, (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i + 1};`.repeat(10)}">`).join('') +
  ']>\n';
const quadraticBlowup = `<!DOCTYPE d [<!ENTITY a "${'x'.repeat(50_000)}">]>\n`;
const external = (uri: string) => `<!DOCTYPE d [<!ENTITY x SYSTEM "${uri}">]>\n`;
const parameterEntity = `<!DOCTYPE d [<!ENTITY % p SYSTEM "file://${secretFile}"> %p;]>\n`;
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

async function upload(what: string, body: Uint8Array | string, contentType = 'application/octet-stream', query = '') {
  const before = databaseDigest(ledgerFile(t.dataDir, userId));
  const files = listTree(outer);
  const res = await rawHttp(t.server.port, {
    method: 'POST',
    path: `/api/statements/import?account_id=${bank}${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });
  timings[what] = Math.round(res.ms);
  expect(databaseDigest(ledgerFile(t.dataDir, userId)), `${what} changed the ledger`).toBe(before);
  expect(listTree(outer)).toEqual(files);
  expect(res.text).not.toContain(SECRET);
  expect(res.text).not.toContain('root:x:0');
  return res;
}

describe('hostile statement files', () => {
  const refused: [string, () => Uint8Array | string][] = [
    ['a truncated camt.053', () => fixture('camt053_genkgo_v8.xml').subarray(0, 900)],
    ['a truncated OFX 1 (SGML)', () => fixture('ofx1_ofxparse_checking_usd.ofx').subarray(0, 600)],
    [
      'a truncated CSV row (an unterminated quote)',
      () =>
        `${fixture('csv_lloyds_uk_debit_credit_ddmmyyyy.csv').toString('utf8').split('\n').slice(0, 3).join('\n')}\n01/02/2026,"unterminated`,
    ],
    ['random binary garbage', () => crypto.getRandomValues(new Uint8Array(64 * 1024))],
    ['5 MB of 0xFF bytes', () => new Uint8Array(5 * 1024 * 1024).fill(0xff)],
    [
      'a UTF-16 byte-order mark followed by garbage',
      () => new Uint8Array([0xff, 0xfe, ...crypto.getRandomValues(new Uint8Array(8192))]),
    ],
    ['a zip archive', () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...crypto.getRandomValues(new Uint8Array(4096))])],
    [
      'a billion-laughs camt.053',
      () => camt('<Stmt><Ntry><AddtlNtryInf>&lol9;</AddtlNtryInf></Ntry></Stmt>', billionLaughs),
    ],
    ['a billion-laughs OFX 2', () => ofx2('&lol9;', billionLaughs)],
    ['a quadratic-blowup camt.053', () => camt(`<Stmt>${'&a;'.repeat(20_000)}</Stmt>`, quadraticBlowup)],
    [
      'an external entity to /etc/passwd (camt.053)',
      () => camt('<Stmt><Ntry><AddtlNtryInf>&x;</AddtlNtryInf></Ntry></Stmt>', external('file:///etc/passwd')),
    ],
    ['an external entity to a local file (OFX 2)', () => ofx2('&x;', external(`file://${secretFile}`))],
    ['an external entity over HTTP (OFX 2)', () => ofx2('&x;', external('http://127.0.0.1:9/evil.dtd'))],
    ['a parameter entity (camt.053)', () => camt('<Stmt/>', parameterEntity)],
    ['an external DTD', () => camt('<Stmt/>', `<!DOCTYPE Document SYSTEM "file://${secretFile}">\n`)],
    [
      'an entity in an OFX 1 (SGML) header',
      () =>
        `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n${external(`file://${secretFile}`)}<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260101<TRNAMT>-1.00<FITID>1<NAME>&x;</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`,
    ],
    ['XML nested 100,000 deep', () => camt('<a>'.repeat(100_000) + '</a>'.repeat(100_000))],
    [
      'OFX 1 (SGML) nested 100,000 deep',
      () => `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>${'<A>'.repeat(100_000)}</OFX>`,
    ],
    [
      'a CSV header with a million columns',
      () => `Date,Description,Amount,${'x,'.repeat(1_000_000)}\n2026-01-01,Coffee,-1.00\n`,
    ],
    [
      'a CSV row with a million columns',
      () => `Date;Description;Amount\n2026-01-01;Coffee;-1.00${';1'.repeat(1_000_000)}\n`,
    ],
    ['a single 10 MB line', () => 'a'.repeat(10 * 1024 * 1024)],
    [
      'a CSV whose description is one 10 MB line',
      () => `Date,Description,Amount\n2026-01-01,${'a'.repeat(10 * 1024 * 1024)},-1.00\n`,
    ],
    [
      'a QIF whose payee is one 10 MB line',
      () => `!Type:Bank\nD01/01/2026\nT-1.00\nP${'a'.repeat(10 * 1024 * 1024)}\n^\n`,
    ],
    [
      'a CSV of 400,000 rows (over the 100,000-transaction limit)',
      () => `Date,Description,Amount\n${'2026-01-01,Coffee,-1.00\n'.repeat(400_000)}`,
    ],
    ['a CSV with NUL bytes', () => 'Date,Description,Amount\n2026-01-01,Cof\u0000fee,-1.00\n2026-01-02,Tea,-2.00\n'],
    [
      'amounts of 1e309, NaN and -0 with 400 digits',
      () => `Date,Description,Amount\n2026-01-01,A,1e309\n2026-01-02,B,NaN\n2026-01-03,C,-0.${'0'.repeat(400)}1\n`,
    ],
    ['an empty file', () => ''],
    ['only whitespace', () => ' \n\t\r\n '.repeat(1000)],
  ];

  it.each(refused)(
    'when the file is %s, then it is refused quickly with the error shape and nothing is stored or read',
    async (what, make) => {
      const res = await upload(what, make());
      expect([400, 413], res.text).toContain(res.status);
      expectErrorShape(res);
      if (res.status === 400) expect(res.body.code).toBe('INVALID_STATEMENT_FILE');
    },
  );

  it('when a camt.053 element has 100,000 attributes, then it is read quickly and, holding no transaction, stores nothing', async () => {
    const res = await upload(
      '100,000 attributes',
      camt(`<Stmt ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
    );
    // a file that yields no transaction is never answered like a re-import
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('NO_TRANSACTIONS');
  });

  it('when an OFX 2 file uses an undeclared entity, then it stays literal text: nothing is expanded or read', async () => {
    const res = await upload('undeclared entity', ofx2(`&x;&amp;&#65;&secret;`), 'application/xml', '&dry_run=true');
    expect(res.status).toBe(200);
    expect(res.body.transactions[0].description).toBe('&x;&A&secret;');
  });

  it('when the file is over 20 MiB, raw or multipart, then it is 413 PAYLOAD_TOO_LARGE and nothing is stored', async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x41);
    expectErrorShape(await upload('21 MiB raw', big), 413, 'PAYLOAD_TOO_LARGE');
    const boundary = 'hardening-boundary';
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../../../etc/evil.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      big,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expectErrorShape(
      await upload('21 MiB multipart', multipart, `multipart/form-data; boundary=${boundary}`),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('when multipart bodies are malformed (no boundary, unterminated, 1,000 parts, a path as file name), then each is a 4xx with the error shape', async () => {
    const parts =
      Array.from({ length: 1000 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join(
        '',
      ) + '--b--\r\n';
    const cases: [string, string, string][] = [
      ['no boundary', 'multipart/form-data', 'garbage'],
      [
        'unterminated',
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,Amount\n',
      ],
      ['1,000 parts', 'multipart/form-data; boundary=b', parts],
      [
        'a traversal file name and a garbage file',
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="file"; filename="../../../../../tmp/evil.csv"\r\n\r\n\u0000\u0001\u0002\r\n--b--\r\n',
      ],
    ];
    for (const [what, type, body] of cases) {
      const res = await upload(what, body, type);
      expect(res.status, `${what}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expectErrorShape(res);
    }
  });

  it('when uploads are cut short or dropped mid-file, then the real server process answers 400 and keeps running', async () => {
    const dataDir = path.join(outer, 'cli');
    const server = await spawnServer(dataDir);
    try {
      const reg = await send(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cut@example.com', name: 'Cut', password: PASSWORD }),
      });
      const auth = { authorization: `Bearer ${reg.body.access_token}` };
      const account = await send(`${server.url}/api/accounts`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bank', type: 'ASSET' }),
      });
      const importPath = `/api/statements/import?account_id=${account.body.id}`;
      for (const body of [
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,Amount\n2026-01-01,1.00\n',
        '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf a field',
        '--b\r\nContent-Disposition: form-data; name="other"; filename="x"\r\n\r\nxx',
      ]) {
        const res = await rawHttp(server.port, {
          method: 'POST',
          path: importPath,
          headers: { ...auth, 'content-type': 'multipart/form-data; boundary=b' },
          body,
        });
        expectErrorShape(res, 400, 'VALIDATION_ERROR');
      }
      // A client that drops the connection half-way through a file.
      await new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1', () => {
          socket.write(
            `POST ${importPath} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: ${auth.authorization}\r\n` +
              'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,',
            () => setTimeout(() => (socket.destroy(), resolve()), 50),
          );
        });
        socket.on('error', () => resolve());
      });
      const alive = await send(`${server.url}/api/auth/me`, { headers: auth });
      expect(alive.status, server.stderr()).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await killServer(server, 'SIGTERM');
    }
  });

  it('when a statement is given a traversal name, then it is only a name: no file is written anywhere', async () => {
    const csv = 'Date,Description,Amount\n2026-01-05,Coffee,-3.50\n2026-01-06,Tea,-2.00\n';
    const files = listTree(outer);
    const res = await rawHttp(t.server.port, {
      method: 'POST',
      path: `/api/statements/import?account_id=${bank}&name=${encodeURIComponent('../../../../identity')}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('../../../../identity');
    expect(listTree(outer)).toEqual(files);
    await recordResults('statement_files', {
      hostile_files: refused.length + 12,
      slowest_ms: Math.max(...Object.values(timings)),
    });
  });
});

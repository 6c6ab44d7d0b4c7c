import crypto from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { attachmentFixture, uploadAttachment } from '../../../test/support/attachments.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

const fixture = attachmentFixture;
const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');
const installed = (tool: string, flag = '--version') => spawnSync(tool, [flag], { encoding: 'utf8' }).status === 0;
const tools = installed('bean-check') && installed('hledger') && installed('ledger') && installed('unzip', '-v');

async function run(tool: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(tool, args, { encoding: 'utf8' });
  return stdout + stderr;
}

let t: TestServer;
let user: LedgerUser;
let dir: string;

async function attach(entryId: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const res = await uploadAttachment(user, `/api/entries/${entryId}`, bytes, name);
  expect(res.status, res.text).toBe(201);
}

/** Downloads the archive of `format` and unpacks it; answers the folder it holds. */
async function unpacked(format: string): Promise<string> {
  const res = await fetch(`${t.api.baseUrl}/api/export/archive?format=${format}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="personal-ledger.zip"');
  const zip = path.join(dir, `${format}.zip`);
  fs.writeFileSync(zip, new Uint8Array(await res.arrayBuffer()));
  const into = path.join(dir, `${format}-${crypto.randomUUID()}`);
  await run('unzip', ['-q', zip, '-d', into]);
  return path.join(into, 'personal-ledger');
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-archive-'));
  t = await startTestServer();
  user = await LedgerUser.open(t);
  const bank = await user.account('Bank', 'ASSET');
  const food = await user.account('Food', 'EXPENSE');
  const cafe = await user.entry(bank, food, '2026-03-02', 'Corner cafe', '12.50');
  await user.entry(bank, food, '2026-03-05', 'Groceries', '40.00');
  await attach(cafe.id, fixture('receipt.pdf'), '../../etc/receipt.pdf');
  await attach(cafe.id, fixture('receipt.png'), 'photo.png');
  await attach(cafe.id, fixture('receipt.pdf'), 'again.pdf');
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!tools)('the export with its files', () => {
  it('when the beancount archive is unpacked, then each entry links its files by document directives, the files are there whole, and bean-check passes', async () => {
    const folder = await unpacked('beancount');
    const journal = fs.readFileSync(path.join(folder, 'personal-ledger.beancount'), 'utf8');
    const pdf = `attachments/${sha256(fixture('receipt.pdf'))}.pdf`;
    const png = `attachments/${sha256(fixture('receipt.png'))}.png`;
    const documents = journal.split('\n').filter((line) => line.includes(' document '));
    expect(documents).toEqual([
      `2026-03-02 document Expenses:Food "${pdf}"`,
      `2026-03-02 document Expenses:Food "${png}"`,
    ]);
    expect(fs.readdirSync(path.join(folder, 'attachments')).sort()).toEqual(
      [path.basename(pdf), path.basename(png)].sort(),
    );
    expect(new Uint8Array(fs.readFileSync(path.join(folder, pdf)))).toEqual(fixture('receipt.pdf'));
    expect(await run('bean-check', [path.join(folder, 'personal-ledger.beancount')])).toBe('');
  });

  it('when the hledger and ledger archives are unpacked, then each entry tags its files and hledger check --strict and ledger --pedantic pass', async () => {
    const hledger = await unpacked('hledger');
    const journal = fs.readFileSync(path.join(hledger, 'personal-ledger.journal'), 'utf8');
    expect(journal).toContain(`    ; attachment: attachments/${sha256(fixture('receipt.png'))}.png\n`);
    const tagged = await run('hledger', [
      '-f',
      path.join(hledger, 'personal-ledger.journal'),
      'print',
      'tag:attachment',
    ]);
    expect(tagged).toContain('Corner cafe');
    expect(tagged).not.toContain('Groceries');
    expect(await run('hledger', ['-f', path.join(hledger, 'personal-ledger.journal'), 'check', '--strict'])).toBe('');
    const ledger = await unpacked('ledger');
    await run('ledger', ['--args-only', '--pedantic', '-f', path.join(ledger, 'personal-ledger.ledger'), 'balance']);
    expect(fs.readdirSync(path.join(ledger, 'attachments'))).toHaveLength(2);
  });

  it('when the journals of the archives are imported into a new ledger, then they are read (the links to files are left out) and give its two entries', async () => {
    for (const [format, file] of [
      ['beancount', 'personal-ledger.beancount'],
      ['hledger', 'personal-ledger.journal'],
    ] as const) {
      const text = fs.readFileSync(path.join(await unpacked(format), file));
      const other = await LedgerUser.open(t);
      const res = await other.api.request('POST', `/api/import/journal?format=${format}`, {
        rawBody: new Uint8Array(text),
        token: other.token,
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status, res.text).toBe(201);
      expect((await other.get('/api/journal-entries')).body.items).toHaveLength(2);
    }
  });

  it('when CSV is asked for as an archive, then it is 400: a CSV has no place for a file', async () => {
    expect((await user.get('/api/export/archive?format=csv')).status).toBe(400);
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { attachmentFixture, uploadAttachment } from '../../../test/support/attachments.ts';

const fixture = attachmentFixture;
const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');

let t: TestServer;
let alice: LedgerUser;
let aliceId: string;
let entryId: string;
let bankLineId: string;

const upload = (user: LedgerUser, target: string, bytes: Uint8Array<ArrayBuffer>, name: string, type?: string) =>
  uploadAttachment(user, target, bytes, name, type);

const attachToEntry = (bytes: Uint8Array<ArrayBuffer>, name: string, type?: string) =>
  upload(alice, `/api/entries/${entryId}`, bytes, name, type);

function userFolder(userId: string): string {
  return path.join(t.dataDir, 'attachments', userId);
}

async function download(user: LedgerUser, id: string, query = ''): Promise<Response> {
  return fetch(`${t.api.baseUrl}/api/attachments/${id}${query}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
}

async function newEntry(user: LedgerUser, memo: string): Promise<string> {
  const bank = await user.account(`Bank ${memo}`, 'ASSET');
  const food = await user.account(`Food ${memo}`, 'EXPENSE');
  return (await user.entry(bank, food, '2026-03-02', memo, '12.50')).id;
}

beforeAll(async () => {
  t = await startTestServer();
  alice = await LedgerUser.open(t);
  aliceId = path.basename(alice.file, '.sqlite');
  entryId = await newEntry(alice, 'Corner cafe');
  const card = await alice.account('Card', 'LIABILITY');
  const statement = await alice.statement(card, [
    { date: '2026-03-02', description: 'CORNER CAFE', amount: '12.50', type: 'debit' },
  ]);
  bankLineId = statement.txns[0]!.id;
});
afterAll(() => t.stop());

describe('attaching', () => {
  it('when a PDF is attached to an entry, then it is stored under its hash outside the ledger and listed with its metadata', async () => {
    const pdf = fixture('receipt.pdf');
    const res = await attachToEntry(pdf, 'cafe receipt.pdf', 'application/pdf');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      entry_id: entryId,
      bank_transaction_id: null,
      file_name: 'cafe receipt.pdf',
      content_type: 'application/pdf',
      size_bytes: pdf.byteLength,
      sha256: sha256(pdf),
    });
    const stored = path.join(userFolder(aliceId), sha256(pdf));
    expect(new Uint8Array(fs.readFileSync(stored))).toEqual(pdf);
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    const list = await alice.get(`/api/entries/${entryId}/attachments`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { id: string }) => a.id)).toContain(res.body.id);
  });

  it('when a JPEG, a PNG and a HEIC are attached to a bank line, then each kind is read from its bytes', async () => {
    const kinds: [string, string][] = [
      ['receipt.jpg', 'image/jpeg'],
      ['receipt.png', 'image/png'],
      ['receipt.heic', 'image/heic'],
    ];
    for (const [name, type] of kinds) {
      const res = await upload(alice, `/api/bank-transactions/${bankLineId}`, fixture(name), name);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ bank_transaction_id: bankLineId, entry_id: null, content_type: type });
    }
    const list = await alice.get(`/api/bank-transactions/${bankLineId}/attachments`);
    expect(list.body.items.map((a: { content_type: string }) => a.content_type)).toEqual(kinds.map(([, type]) => type));
  });

  it('when a PNG is named .pdf and sent as application/pdf, then it is kept as a PNG and its name gains .png', async () => {
    const res = await attachToEntry(fixture('receipt.png'), 'invoice.pdf', 'application/pdf');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ content_type: 'image/png', file_name: 'invoice.pdf.png' });
  });

  it('when an HTML page is named .png, or a GIF is sent, then it is 415 and nothing is stored', async () => {
    const before = alice.digest();
    const files = fs.readdirSync(userFolder(aliceId)).sort();
    for (const [name, bytes] of [
      ['receipt.png', fixture('page.html')],
      ['image.gif', fixture('image.gif')],
      ['empty.pdf', new Uint8Array(0)],
    ] as const) {
      const res = await attachToEntry(bytes, name, 'image/png');
      expect(res.status, res.text).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(alice.digest()).toBe(before);
    expect(fs.readdirSync(userFolder(aliceId)).sort()).toEqual(files);
  });

  it('when the body is not multipart, then it is 415 and nothing is stored', async () => {
    const before = alice.digest();
    const res = await alice.api.request('POST', `/api/entries/${entryId}/attachments`, {
      rawBody: fixture('receipt.pdf'),
      token: alice.token,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(res.status, res.text).toBe(415);
    expect(alice.digest()).toBe(before);
  });

  it('when names are hostile, then no path is made of them and each is kept as plain metadata', async () => {
    const cases: [string, string][] = [
      ['../../etc/passwd', 'passwd.jpg'],
      ['..\\..\\boot.ini', 'boot.ini.jpg'],
      ['\u202egpj.exe', 'gpj.exe.jpg'],
      [`${'长'.repeat(3000)}.jpg`, `${'长'.repeat(196)}.jpg`],
    ];
    const entry = await newEntry(alice, 'Hostile names');
    for (const [sent, kept] of cases) {
      const res = await upload(alice, `/api/entries/${entry}`, fixture('receipt.jpg'), sent);
      expect(res.status, res.text).toBe(201);
      expect(res.body.file_name).toBe(kept);
      const file = await download(alice, res.body.id);
      expect(file.status).toBe(200);
      const disposition = file.headers.get('content-disposition')!;
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%._~!-]*$/);
      expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(kept);
      await file.arrayBuffer();
    }
    // a NUL cannot be sent in a plain part header; RFC 5987's filename* carries it percent-encoded
    const jpg = fixture('receipt.jpg');
    const boundary = 'receipt-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''rec%00eipt.jpg\r\nContent-Type: image/jpeg\r\n\r\n`;
    const raw = new Uint8Array([...Buffer.from(head), ...jpg, ...Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await alice.api.request('POST', `/api/entries/${entry}/attachments`, {
      rawBody: raw,
      token: alice.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.file_name).toBe('receipt.jpg');
    // nothing but hashes (and no folder climbed out of) in the data folder
    for (const name of fs.readdirSync(userFolder(aliceId))) expect(name).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.existsSync(path.join(t.dataDir, 'etc'))).toBe(false);
  });

  it('when the same bytes are attached twice, then one file is on disk and both attachments name it', async () => {
    const entry = await newEntry(alice, 'Twice');
    const jpg = fixture('receipt.jpg');
    const first = await upload(alice, `/api/entries/${entry}`, jpg, 'one.jpg');
    const second = await upload(alice, `/api/entries/${entry}`, jpg, 'two.jpg');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.sha256).toBe(second.body.sha256);
    expect(fs.readdirSync(userFolder(aliceId)).filter((n) => n === sha256(jpg))).toHaveLength(1);
  });

  it('when the target does not exist, then it is 404 and no file is left behind', async () => {
    const files = fs.readdirSync(userFolder(aliceId)).sort();
    const missing = '00000000-0000-7000-8000-000000000000';
    for (const target of [`/api/entries/${missing}`, `/api/bank-transactions/${missing}`]) {
      const res = await upload(alice, target, fixture('receipt.heic'), 'x.heic');
      expect(res.status, res.text).toBe(404);
      expect((await alice.get(`${target}/attachments`)).status).toBe(404);
    }
    expect(fs.readdirSync(userFolder(aliceId)).sort()).toEqual(files);
  });

  it('when the file is over 20 MiB, then it is 413 and nothing is stored', async () => {
    const before = alice.digest();
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    big.set(fixture('receipt.png'));
    const res = await attachToEntry(big, 'big.png');
    expect(res.status, res.text).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(alice.digest()).toBe(before);
  });

  it('when an entry holds 10 files, then the 11th is 409 LIMIT_REACHED', async () => {
    const entry = await newEntry(alice, 'Ten');
    for (let i = 0; i < 10; i += 1) {
      // ten different files: a byte after the PDF's end changes the hash, not the kind
      const bytes = new Uint8Array([...fixture('receipt.pdf'), 10, 48 + i]);
      expect((await upload(alice, `/api/entries/${entry}`, bytes, `${i}.pdf`)).status).toBe(201);
    }
    const before = alice.digest();
    const res = await upload(alice, `/api/entries/${entry}`, fixture('receipt.png'), 'eleven.png');
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('LIMIT_REACHED');
    expect(alice.digest()).toBe(before);
  });
});

describe('downloading and deleting', () => {
  it('when an attachment is downloaded, then the bytes come back with the sniffed type; inline asks to show it', async () => {
    const png = fixture('receipt.png');
    const made = await attachToEntry(png, 'scan.png', 'application/pdf');
    const file = await download(alice, made.body.id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
    const inline = await download(alice, made.body.id, '?disposition=inline');
    expect(inline.headers.get('content-disposition')).toBe(`inline; filename="scan.png"; filename*=UTF-8''scan.png`);
    await inline.arrayBuffer();
  });

  it('when one of two attachments of a file is deleted, then the file stays; when the last goes, so does the file', async () => {
    const entry = await newEntry(alice, 'Delete');
    const bytes = new Uint8Array([...fixture('receipt.pdf'), 10, 120]);
    const one = await upload(alice, `/api/entries/${entry}`, bytes, 'one.pdf');
    const two = await upload(alice, `/api/bank-transactions/${bankLineId}`, bytes, 'two.pdf');
    const stored = path.join(userFolder(aliceId), sha256(bytes));
    expect((await alice.delete(`/api/attachments/${one.body.id}`)).status).toBe(204);
    expect(fs.existsSync(stored)).toBe(true);
    expect((await download(alice, one.body.id)).status).toBe(404);
    expect((await alice.delete(`/api/attachments/${two.body.id}`)).status).toBe(204);
    expect(fs.existsSync(stored)).toBe(false);
    expect((await alice.delete(`/api/attachments/${two.body.id}`)).status).toBe(404);
  });

  it('when another user asks for, or deletes, an attachment of Alice, then it is 404 and it stays', async () => {
    const bob = await LedgerUser.open(t);
    const made = await attachToEntry(fixture('receipt.jpg'), 'mine.jpg');
    expect((await download(bob, made.body.id)).status).toBe(404);
    expect((await bob.delete(`/api/attachments/${made.body.id}`)).status).toBe(404);
    expect((await bob.get(`/api/entries/${entryId}/attachments`)).status).toBe(404);
    expect((await download(alice, made.body.id)).status).toBe(200);
  });

  it('when a statement is deleted, then its lines’ attachments go with it and their files are collected', async () => {
    const card = await alice.account('Card to delete', 'LIABILITY');
    const statement = await alice.statement(card, [
      { date: '2026-03-03', description: 'TAXI', amount: '9.00', type: 'debit' },
    ]);
    const bytes = new Uint8Array([...fixture('receipt.pdf'), 10, 121]);
    const made = await upload(alice, `/api/bank-transactions/${statement.txns[0]!.id}`, bytes, 'taxi.pdf');
    expect(made.status).toBe(201);
    const before = (await alice.get('/api/attachments/usage')).body;
    expect((await alice.delete(`/api/statements/${statement.id}`)).status).toBe(204);
    const after = (await alice.get('/api/attachments/usage')).body;
    expect(after).toMatchObject({ files: before.files - 1, bytes: before.bytes - bytes.byteLength });
    expect((await download(alice, made.body.id)).status).toBe(404);
  });

  it('when counts are asked for entries and bank lines, then each one holding files is counted and the rest left out', async () => {
    const empty = await newEntry(alice, 'No files');
    const res = await alice.get(
      `/api/attachments/counts?entry_ids=${entryId},${empty}&bank_transaction_ids=${bankLineId}`,
    );
    expect(res.status).toBe(200);
    const list = await alice.get(`/api/entries/${entryId}/attachments`);
    expect(res.body.entries).toEqual({ [entryId]: list.body.items.length });
    expect(res.body.bank_transactions[bankLineId]).toBeGreaterThanOrEqual(3);
    const tooMany = Array.from({ length: 201 }, () => entryId).join(',');
    expect((await alice.get(`/api/attachments/counts?entry_ids=${tooMany}`)).status).toBe(400);
  });
});

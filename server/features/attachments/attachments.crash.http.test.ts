import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachmentFixture, uploadAttachment } from '../../../test/support/attachments.ts';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.stop();
});

describe('a crash between writing a file and committing its row', () => {
  it('when the server starts again over files no row names and a half-written upload, then the first use of attachments removes them and keeps the named ones', async () => {
    const first = await startTestServer();
    const user = await LedgerUser.open(first);
    const userId = path.basename(user.file, '.sqlite');
    const bank = await user.account('Bank', 'ASSET');
    const food = await user.account('Food', 'EXPENSE');
    const entry = (await user.entry(bank, food, '2026-03-02', 'Corner cafe', '12.50')).id as string;
    const pdf = attachmentFixture('receipt.pdf');
    const kept = await uploadAttachment(user, `/api/entries/${entry}`, pdf, 'receipt.pdf');
    expect(kept.status).toBe(201);
    await first.server.close();

    // what a crash leaves: a file renamed to its hash whose row never committed, and a temporary file
    const folder = path.join(first.dataDir, 'attachments', userId);
    const png = attachmentFixture('receipt.png');
    fs.writeFileSync(path.join(folder, sha256(png)), png);
    fs.writeFileSync(path.join(folder, '.upload-00000000-0000-4000-8000-000000000000'), png.subarray(0, 10));

    const again = await startTestServer({ dataDir: first.dataDir });
    servers.push(again);
    const sameUser = { api: again.api, token: user.token };
    const list = await again.api.get(`/api/entries/${entry}/attachments`, user.token);
    expect(list.status).toBe(200);
    expect(fs.readdirSync(folder)).toEqual([sha256(pdf)]);
    // the file whose row was lost can be attached again, and is stored again
    const reattached = await uploadAttachment(sameUser, `/api/entries/${entry}`, png, 'receipt.png');
    expect(reattached.status).toBe(201);
    expect(fs.readdirSync(folder).sort()).toEqual([sha256(pdf), sha256(png)].sort());
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUser } from '../../../test/support/ledger-user.ts';
import { attachmentFixture, uploadAttachment } from '../../../test/support/attachments.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

const fixture = attachmentFixture;
const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');

let t: TestServer;

async function attach(user: LedgerUser, entryId: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const res = await uploadAttachment(user, `/api/entries/${entryId}`, bytes, name);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; sha256: string };
}

async function downloaded(user: LedgerUser, id: string): Promise<Uint8Array | number> {
  const res = await fetch(`${t.api.baseUrl}/api/attachments/${id}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : res.status;
}

async function userWithEntry(): Promise<{ user: LedgerUser; userId: string; entryId: string }> {
  const user = await LedgerUser.open(t);
  const bank = await user.account('Bank', 'ASSET');
  const food = await user.account('Food', 'EXPENSE');
  const entry = await user.entry(bank, food, '2026-03-02', 'Corner cafe', '12.50');
  return { user, userId: path.basename(user.file, '.sqlite'), entryId: entry.id };
}

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('attachments in backups', () => {
  it('when a backup is restored after its file was deleted and another attached, then the file comes back whole and the newer one leaves the disk', async () => {
    const { user, userId, entryId } = await userWithEntry();
    const pdf = fixture('receipt.pdf');
    const kept = await attach(user, entryId, pdf, 'receipt.pdf');
    const backup = await user.post('/api/backup');
    expect(backup.status).toBe(201);
    const backupFiles = path.join(t.dataDir, 'backups', userId, 'attachments');
    expect(fs.readdirSync(backupFiles)).toEqual([sha256(pdf)]);
    // reading which files a backup names leaves no side file of SQLite beside it
    expect(fs.readdirSync(path.dirname(backupFiles)).sort()).toEqual(['attachments', backup.body.name]);
    // a second backup keeps the same file once
    expect((await user.post('/api/backup')).status).toBe(201);
    expect(fs.readdirSync(backupFiles)).toEqual([sha256(pdf)]);

    expect((await user.delete(`/api/attachments/${kept.id}`)).status).toBe(204);
    const live = path.join(t.dataDir, 'attachments', userId);
    expect(fs.existsSync(path.join(live, sha256(pdf)))).toBe(false);
    const png = fixture('receipt.png');
    const later = await attach(user, entryId, png, 'later.png');

    const restored = await user.post(`/api/backups/${backup.body.name}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(await downloaded(user, kept.id)).toEqual(pdf);
    expect(await downloaded(user, later.id)).toBe(404);
    expect(fs.readdirSync(live).sort()).toEqual([sha256(pdf)]);
    // the ledger as it was before the restore keeps its file in the backups
    expect(fs.readdirSync(backupFiles).sort()).toEqual([sha256(pdf), sha256(png)].sort());
  });

  it('when a backup’s file is damaged and gone from the live folder, then the restore is 400 INVALID_BACKUP and nothing changes', async () => {
    const { user, userId, entryId } = await userWithEntry();
    const jpg = fixture('receipt.jpg');
    const made = await attach(user, entryId, jpg, 'receipt.jpg');
    const backup = await user.post('/api/backup');
    expect((await user.delete(`/api/attachments/${made.id}`)).status).toBe(204);
    const copy = path.join(t.dataDir, 'backups', userId, 'attachments', sha256(jpg));
    const damaged = fs.readFileSync(copy);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 3) ^ 0xff, damaged.length - 3);
    fs.writeFileSync(copy, damaged);
    const before = user.digest();
    const refused = await user.post(`/api/backups/${backup.body.name}/restore`);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_BACKUP']);
    expect(refused.body.detail).toContain('1 of its attached files');
    expect(user.digest()).toBe(before);
    expect((await user.get('/api/backups')).body.items).toHaveLength(1);
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startTestRelay, type TestRelay } from '../test/support/relay.ts';
import type { Api } from '../test/support/server.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { test, expect } from './support/fixtures.ts';
import { PASSWORD } from './support/people.ts';
import { Seed } from './support/seed.ts';
import { AttachmentsPanel } from './pages/attachments-panel.ts';
import { LedgerApp } from './pages/ledger-app.ts';

const FIXTURES = new URL('../test/fixtures/attachments/', import.meta.url);
const RELAY_SECRET = 'a relay password';
const PASSPHRASE = 'our receipts box';

let relay: TestRelay;
test.beforeAll(async () => {
  relay = await startTestRelay();
});
test.afterAll(async () => {
  await relay.stop();
});

async function attach(api: Api, token: string, entryId: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const encoded = new Response(form);
  const res = await api.request('POST', `/api/entries/${entryId}/attachments`, {
    rawBody: new Uint8Array(await encoded.arrayBuffer()),
    token,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
  if (res.status !== 201) throw new Error(`attach ${name}: ${res.status} ${res.text}`);
  return res.body as { id: string; sha256: string };
}

test('when receipts attached on one computer reach another, then it shows them with a preview, and one whose bytes have not come as waiting for sync, in English and Chinese', async ({
  ledger,
  otherLedger,
  browser,
}) => {
  // Ada's laptop: an entry with a receipt, and one whose file left her data folder before it was sent
  const ada = await Seed.user(ledger.api, 'Ada Lovelace');
  const checking = await ada.account('Checking', 'ASSET');
  const food = await ada.account('Food', 'EXPENSE');
  const entry = await ada.posted('2026-03-02', 'Corner cafe', food, checking, '12.50');
  const png = fs.readFileSync(new URL('receipt.png', FIXTURES));
  await attach(ledger.api, ada.token, entry, png, 'till.png');
  const lost = await attach(ledger.api, ada.token, entry, Buffer.concat([png, crypto.randomBytes(16)]), 'lost.png');
  const adaId = (await ledger.api.get('/api/auth/me', ada.token)).body.id as string;
  fs.rmSync(path.join(ledger.dataDir, 'attachments', adaId, lost.sha256));
  const made = await ledger.api.post(
    '/api/sync/group',
    {
      relay_url: relay.url,
      relay_username: 'ada-e2e',
      relay_password: RELAY_SECRET,
      register: true,
      passphrase: PASSPHRASE,
    },
    ada.token,
  );
  expect(made.status, made.text).toBe(201);
  const invite = (await ledger.api.post('/api/sync/invites', {}, ada.token)).body.invite_code as string;

  // Grace's desktop joins and reads the entry's receipts on her screen
  const grace = await Seed.user(otherLedger.api, 'Grace Hopper');
  const joined = await otherLedger.api.post(
    '/api/sync/join',
    {
      invite_code: invite,
      relay_username: 'grace-e2e',
      relay_password: RELAY_SECRET,
      register: true,
      passphrase: PASSPHRASE,
    },
    grace.token,
  );
  expect(joined.status, joined.text).toBe(200);
  const context = await browser.newContext({ baseURL: otherLedger.url });
  const page = await context.newPage();
  const other = new LedgerApp(page, { password: PASSWORD });
  await other.openSignedIn(grace);
  for (const l of [
    {
      code: 'en' as const,
      nav: 'Main',
      register: 'Journal entries',
      preview: 'Preview of till.png',
      save: 'Save till.png',
      waiting: 'Waiting for sync',
      saveLost: 'Save lost.png',
    },
    {
      code: 'zh' as const,
      nav: '主导航',
      register: '日记账分录',
      preview: 'till.png的预览',
      save: '保存till.png',
      waiting: '等待同步',
      saveLost: '保存lost.png',
    },
  ]) {
    if (l.code !== 'en') await other.chooseLanguage(l.code);
    await page.getByRole('navigation', { name: l.nav }).locator('a[href="/journal"]').click();
    const register = page.getByRole('table', { name: l.register });
    await register.getByRole('row').filter({ hasText: 'Corner cafe' }).getByRole('button').first().click();
    const panel = new AttachmentsPanel(other.journal.details);
    await panel.expectNames(['till.png', 'lost.png']);
    await expect(panel.item('till.png').getByRole('img', { name: l.preview })).toBeVisible();
    await expect(panel.root.getByRole('button', { name: l.save })).toBeVisible();
    await expect(panel.item('lost.png')).toContainText(l.waiting);
    await expect(panel.root.getByRole('button', { name: l.saveLost })).toHaveCount(0);
    await expectEveryControlNamed(page);
  }
  await context.close();
});

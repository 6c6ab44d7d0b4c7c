import { startTestRelay, type TestRelay } from '../test/support/relay.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { test, expect } from './support/fixtures.ts';
import { newEmail, PASSWORD } from './support/people.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';
import { LedgerApp } from './pages/ledger-app.ts';

const RELAY_SECRET = 'a relay password';
const PASSPHRASE = 'our kitchen table';

let relay: TestRelay;
test.beforeAll(async () => {
  relay = await startTestRelay();
});
test.afterAll(async () => {
  await relay.stop();
});

test('when one computer makes a group and another joins it by invite code and passphrase, then each one’s entries reach the other', async ({
  app,
  page,
  ledger,
  otherLedger,
  browser,
}, testInfo) => {
  // the first computer: Ada's books with an entry
  const ada = await Seed.user(ledger.api, 'Ada Lovelace');
  const checking = await ada.account('Checking', 'ASSET');
  const groceries = await ada.account('Groceries', 'EXPENSE');
  await ada.posted('2026-01-05', 'Corner market', groceries, checking, '40.00');
  await app.openSignedIn(ada);
  await app.go('Settings');
  const sync = app.sync;
  await expect(sync.createForm).toBeVisible();
  await expect(sync.joinForm).toBeVisible();
  await expectEveryControlNamed(page);

  // a wrong relay login is refused in words, and nothing is set up
  await sync.create({
    relayUrl: relay.url,
    username: 'ada-home',
    password: RELAY_SECRET,
    register: false,
    passphrase: PASSPHRASE,
  });
  await expect(sync.createForm.locator('..').getByRole('alert')).toContainText(
    'The relay refused the account name or password.',
  );
  expect((await ledger.api.get('/api/sync/status', ada.token)).body).toMatchObject({ in_group: false });

  await sync.create({
    relayUrl: relay.url,
    username: 'ada-home',
    password: RELAY_SECRET,
    register: true,
    passphrase: PASSPHRASE,
  });
  await expect(sync.panel.getByRole('status').first()).toHaveText(
    'The group is made and these books are on the relay.',
  );
  await expect(sync.fact('relay')).toHaveText(relay.url);
  await expect(sync.fact('waiting')).toHaveText('0');
  await expect(sync.fact('reachable')).toHaveText('Reachable');
  // a passphrase was given: no recovery code to show
  await expect(sync.panel.getByRole('textbox', { name: 'Your recovery code' })).toHaveCount(0);
  const invite = await sync.invite();
  await expect(sync.panel).toContainText('It does not hold the passphrase');
  await expectEveryControlNamed(page);
  await sync.panel.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'sync');

  // the second computer: Grace signs up there with her own login and joins
  const context = await browser.newContext({ baseURL: otherLedger.url });
  const other = new LedgerApp(await context.newPage(), { password: PASSWORD });
  await other.open();
  await other.signIn.signUp({ email: newEmail('grace'), name: 'Grace Hopper' });
  await other.go('Settings');
  await other.sync.join({
    invite,
    username: 'grace-home',
    password: RELAY_SECRET,
    register: true,
    passphrase: 'not our passphrase',
  });
  await expect(other.sync.joinForm.locator('..').getByRole('alert')).toContainText(
    'That passphrase is not the group’s.',
  );
  await other.sync.join({
    invite,
    username: 'grace-home',
    password: RELAY_SECRET,
    register: false,
    passphrase: PASSPHRASE,
  });
  await expect(other.sync.panel.getByRole('status').first()).toHaveText('Joined: these books are now the group’s.');
  await expect(other.sync.fact('relay')).toHaveText(relay.url);

  // Ada's entry is in Grace's journal; Grace's entry reaches Ada after "Sync now"
  await other.go('Journal');
  await expect(other.journal.register).toContainText('Corner market');
  await other.journal.typeEntry({
    date: '2026-01-07',
    memo: 'Bakery',
    lines: [
      { account: 'Groceries', debit: '6.50' },
      { account: 'Checking', credit: '6.50' },
    ],
  });
  await other.go('Settings');
  await other.sync.syncNow();
  await expect(other.sync.panel.getByRole('status').last()).toContainText('Synced:');
  await expect(other.sync.fact('waiting')).toHaveText('0');

  await sync.syncNow();
  await expect(sync.panel.getByRole('status').last()).toContainText('Synced:');
  await app.go('Journal');
  await expect(app.journal.register).toContainText('Bakery');
  await expect(app.journal.register).toContainText('Corner market');

  // History: whose change each is; Undo takes back this computer's entry just made (it is voided)
  await app.journal.typeEntry({
    date: '2026-01-09',
    memo: 'Hardware store',
    lines: [
      { account: 'Groceries', debit: '12.00' },
      { account: 'Checking', credit: '12.00' },
    ],
  });
  await app.go('History');
  const history = app.history;
  await expect(history.table.getByRole('row', { name: /Bakery/ }).first()).toContainText('Another computer');
  await expect(history.table.getByRole('row', { name: /Hardware store/ }).first()).toContainText('This computer');
  await history.undo();
  await expect(history.notice).toContainText('Undone: Entry');
  await expect(history.notice).toContainText('Hardware store');
  await expect(history.table.getByRole('row', { name: /Hardware store.*\(undone\)/ })).toHaveCount(1);
  await captureScreen(page, testInfo, 'history');
  await app.go('Journal');
  // the entry is voided by its reversal, as any posted entry is taken back
  await expect(app.journal.register).toContainText('Void: Hardware store (Undone)');
  await context.close();
});

test('when the Sync screen is used in Chinese, then a random key’s recovery code is shown once, refusals are in Chinese, and leaving asks first', async ({
  app,
  page,
  ledger,
}) => {
  const ada = await Seed.user(ledger.api, 'Ada Lovelace');
  await ada.account('Checking', 'ASSET');
  await app.openSignedIn(ada);
  await app.chooseLanguage('zh');
  // the History screen is the books' own: there before any sync group
  await app.goTo('history');
  await expect(app.history.table.getByRole('row', { name: /Checking/ }).first()).toContainText('这台电脑');
  await expect(app.history.table).toContainText('账户已创建：Checking');
  await app.openFromNav('/settings');
  const sync = app.sync;
  await expect(sync.createForm).toBeVisible();

  await sync.create({ relayUrl: relay.url, username: 'ada-zh', password: RELAY_SECRET, register: false });
  await expect(sync.createForm.locator('..').getByRole('alert')).toContainText('中继拒绝了账户名或密码');

  await sync.create({ relayUrl: relay.url, username: 'ada-zh', password: RELAY_SECRET, register: true });
  const code = await sync.recoveryCode();
  await expect(sync.panel).toContainText('它只显示这一次');
  await expect(sync.fact('reachable')).toHaveText('可以连接');
  await expectEveryControlNamed(page);
  const invite = await sync.invite();
  await expect(sync.panel).toContainText('邀请码不含口令');
  expect(invite).not.toContain(code);

  // "I have kept it" hides the code for good
  await sync.panel.getByRole('button', { name: '我已保存' }).first().click();
  await expect(sync.panel.getByRole('textbox', { name: '您的恢复码' })).toHaveCount(0);

  // leaving asks first; Escape keeps the group, the confirm button leaves it
  await sync.panel.getByRole('button', { name: '退出同步组…' }).click();
  await expect(sync.panel.getByRole('button', { name: '取消' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(sync.fact('relay')).toHaveText(relay.url);
  await sync.leave();
  await expect(sync.panel.getByRole('status').first()).toHaveText('这台电脑已退出同步组，账本仍保留在这里。');
  await expect(sync.createForm).toBeVisible();
  expect((await ledger.api.get('/api/sync/status', ada.token)).body).toMatchObject({ in_group: false });
});

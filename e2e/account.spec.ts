import { resetPassword } from '../test/support/reset-password.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { test, expect } from './support/fixtures.ts';
import { PASSWORD } from './support/people.ts';
import { Seed } from './support/seed.ts';

const TOKEN_KEY = 'personal-ledger.token';
const NEW_PASSWORD = 'a longer passphrase now';

test('when the password is changed and the session signed out from Settings, then every earlier token stops working, mistakes say what to do, and only the new password signs in', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api, 'Ada Lovelace');
  await app.openSignedIn(seed);
  await app.go('Settings');
  const panel = app.settings.accountPanel;
  await expect(panel).toContainText(`Signed in as Ada Lovelace (${seed.email}).`);
  await expectEveryControlNamed(page);

  // mistakes, each phrased as what to do; none of them changes anything
  await app.settings.changePassword('not my password', NEW_PASSWORD);
  await expect(panel.getByRole('alert')).toHaveText('The current password is wrong: type the one you sign in with.');
  await app.settings.changePassword(PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}!`);
  await expect(panel.getByRole('alert')).toHaveText('The two new passwords differ: type the same one twice.');
  await app.settings.changePassword(PASSWORD, ' '.repeat(8));
  await expect(panel.getByRole('alert')).toContainText('new_password must not be only white space');
  expect((await ledger.api.get('/api/accounts', seed.token)).status).toBe(200);

  // the change: this window goes on with a token of a new session; every other session ends
  await app.settings.changePassword(PASSWORD, NEW_PASSWORD);
  await expect(panel.getByRole('status')).toHaveText(
    'Password changed. Every other session is signed out; this one goes on.',
  );
  expect((await ledger.api.get('/api/accounts', seed.token)).status).toBe(401);
  await app.go('Accounts');
  await app.go('Settings');
  const token = await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY);
  expect((await ledger.api.get('/api/accounts', token!)).status).toBe(200);

  // sign out from the panel with the keyboard: the session ends on the server, not only here, and
  // the sign-in screen shows only once the server has ended it (the logout is held until then)
  let releaseLogout!: () => void;
  const logoutHeld = new Promise<void>((resolve) => (releaseLogout = resolve));
  let logoutSent!: () => void;
  const logoutArrived = new Promise<void>((resolve) => (logoutSent = resolve));
  await page.route('**/api/auth/logout', async (route) => {
    logoutSent();
    await logoutHeld;
    await route.continue();
  });
  await panel.getByRole('button', { name: 'Sign out of this session' }).focus();
  await page.keyboard.press('Enter');
  await logoutArrived;
  await expect(app.signIn.submit).toBeHidden();
  releaseLogout();
  await expect(app.signIn.submit).toBeVisible();
  await page.unroute('**/api/auth/logout');
  expect((await ledger.api.get('/api/accounts', token!)).status).toBe(401);

  await app.signIn.signIn({ email: seed.email });
  await expect(page.getByRole('alert')).toHaveText('Wrong email or password. Check both and try again.');
  await app.signIn.signIn({ email: seed.email, password: NEW_PASSWORD });
  // signed in again, on the screen the session ended on
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});

test('when someone else has locked the owner out, then the sign-in screen says how long in words and what to do, in Chinese too, and the owner’s reset command lets them in at once', async ({
  app,
  page,
  ledger,
}) => {
  const seed = await Seed.user(ledger.api);
  // another process on this computer guesses the owner's password five times
  for (let i = 0; i < 5; i += 1) {
    expect((await ledger.api.post('/api/auth/login', { email: seed.email, password: `guess ${i}` })).status).toBe(401);
  }
  await app.openSignedIn(seed);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Too many attempts: try again in 15 minutes.');
  await expect(alert).toContainText(`npm run reset-password -- ${seed.email}`);

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
  await page.getByRole('tab', { name: '登录' }).click();
  await page.getByLabel('电子邮箱').fill(seed.email);
  await page.getByLabel('密码').fill(PASSWORD);
  await page.getByLabel('密码').press('Enter');
  await expect(alert).toContainText('尝试次数过多：请在 15 分钟后重试。');
  await expect(alert).toContainText('终端');

  const reset = await resetPassword(ledger.dataDir, [seed.email], `${NEW_PASSWORD}\n`);
  expect(reset.code).toBe(0);
  await page.getByLabel('密码').fill(NEW_PASSWORD);
  await page.getByLabel('密码').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: '概览' })).toBeVisible();
});

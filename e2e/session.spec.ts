import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';

const TOKEN_KEY = 'personal-ledger.token';

test.describe('signing in and out', () => {
  test('when "stay signed in" is not chosen, then the token lives only in this window; when it is, it survives a reload; sign out drops it', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await app.openSignedIn(seed);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(
      await page.evaluate((key) => [localStorage.getItem(key), sessionStorage.getItem(key) !== null], TOKEN_KEY),
    ).toEqual([null, true]);

    await app.signOut();
    expect(await page.evaluate((key) => [localStorage.getItem(key), sessionStorage.getItem(key)], TOKEN_KEY)).toEqual([
      null,
      null,
    ]);

    await app.signIn.signIn({ email: seed.email, password: 'wrong password!' });
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password. Check both and try again.');

    await app.signIn.signIn({ email: seed.email, stay: true });
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(
      await page.evaluate((key) => [localStorage.getItem(key) !== null, sessionStorage.getItem(key)], TOKEN_KEY),
    ).toEqual([true, null]);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    await app.signOut();
    await page.reload();
    await expect(app.signIn.submit).toBeVisible();
  });

  test('when a request sent before signing out is refused after it, then the sign-in screen does not say the session ended', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await app.openSignedIn(seed);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // the journal screen's request is held until the session has ended on the server
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent!: () => void;
    const arrived = new Promise<void>((resolve) => (sent = resolve));
    const journalList = (url: URL) => url.pathname === '/api/journal-entries';
    await page.route(journalList, async (route) => {
      sent();
      await held;
      await route.continue();
    });
    await app.nav.getByRole('link', { name: 'Journal' }).click();
    await arrived;
    await app.signOut();
    const refused = page.waitForResponse((r) => journalList(new URL(r.url())) && r.status() === 401);
    release();
    await refused;
    await page.unroute(journalList);

    // the only alert is the answer to this sign-in, not "You have been signed out"
    await app.signIn.signIn({ email: seed.email, password: 'wrong password!' });
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password. Check both and try again.');
  });

  test('when the server no longer accepts the token, then the app returns to sign-in and says why', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    // a kept token the server cannot validate (as after a secret change)
    await app.open();
    await page.evaluate((key) => localStorage.setItem(key, 'not-a-valid-token'), TOKEN_KEY);
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText(
      'You have been signed out (Could not validate credentials). Please sign in again.',
    );
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();

    // a token that expires while the app is open: the next call answers 401
    await app.signIn.signIn({ email: seed.email });
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.route('**/api/accounts/balances*', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ detail: 'Could not validate credentials' }),
      }),
    );
    await app.nav.getByRole('link', { name: 'Accounts' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'You have been signed out (Could not validate credentials). Please sign in again.',
    );
    await expect(app.signIn.submit).toBeVisible();
  });
});

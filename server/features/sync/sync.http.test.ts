import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PASSWORD, startTestRelay, type TestRelay } from '../../../test/support/relay.ts';
import { ledgerFile, registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * Two computers, each the app with its own data folder and login, keep one set of books through a
 * relay on loopback: Alice makes a group, invites Bob, Bob joins with the passphrase; each one's
 * entries reach the other.
 */

const PASSPHRASE = 'our household books 2026';
let relay: TestRelay;
let laptop: TestServer;
let desktop: TestServer;
let relayUsers = 0;

/** The relay account's fields of a join (the invite names the relay). */
function joinLogin(register = true) {
  const { relay_url: _url, ...rest } = relayLogin(register);
  return rest;
}

function relayLogin(register = true) {
  relayUsers += 1;
  return {
    relay_url: relay.url,
    relay_username: `house${relayUsers}-${process.pid}`,
    relay_password: RELAY_PASSWORD,
    register,
  };
}

async function entryBetween(t: TestServer, token: string, debit: string, credit: string, amount: string, memo: string) {
  const res = await t.api.post(
    '/api/journal-entries',
    {
      entry_date: '2026-03-02',
      memo,
      auto_post: true,
      lines: [
        { account_id: debit, direction: 'DEBIT', amount },
        { account_id: credit, direction: 'CREDIT', amount },
      ],
    },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('sync between two computers through a relay', () => {
  beforeAll(async () => {
    relay = await startTestRelay();
    laptop = await startTestServer();
    desktop = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all([laptop.stop(), desktop.stop(), relay.stop()]);
  });

  it('when Alice makes a group and Bob joins by invite with the passphrase, then each one’s entries reach the other and the balances agree', async () => {
    const alice = await registerUser(laptop.api, 'Alice');
    const bank = (await laptop.api.post('/api/accounts', { name: 'Checking', type: 'ASSET' }, alice.token)).body.id;
    const food = (await laptop.api.post('/api/accounts', { name: 'Groceries', type: 'EXPENSE' }, alice.token)).body.id;
    await entryBetween(laptop, alice.token, food, bank, '42.50', 'Corner Shop');

    expect((await laptop.api.get('/api/sync/status', alice.token)).body).toMatchObject({
      in_group: false,
      changes_waiting: 0,
    });
    const made = await laptop.api.post('/api/sync/group', { ...relayLogin(), passphrase: PASSPHRASE }, alice.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.recovery_code).toBeNull();
    expect(made.body.status).toMatchObject({
      in_group: true,
      relay_url: relay.url,
      last_error: null,
      changes_waiting: 0,
    });

    // the books went to the group once: a row the log held already is not logged again
    const log = new Database(ledgerFile(laptop.dataDir, alice.id), { readonly: true });
    const messages = log
      .prepare('SELECT dataset, row_id, COUNT(*) AS n FROM change_log GROUP BY dataset, row_id')
      .all();
    log.close();
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.filter((m) => (m as { n: number }).n !== 1)).toEqual([]);

    const invite = await laptop.api.post('/api/sync/invites', {}, alice.token);
    expect(invite.status).toBe(201);
    expect(invite.body.invite_code).toMatch(/^PLSYNC1\./);
    expect(Buffer.from(invite.body.invite_code.slice(8), 'base64url').toString()).not.toContain(PASSPHRASE);

    const bob = await registerUser(desktop.api, 'Bob');
    const bobRelay = joinLogin();
    const wrong = await desktop.api.post(
      '/api/sync/join',
      { invite_code: invite.body.invite_code, ...bobRelay, passphrase: 'not the passphrase' },
      bob.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('SYNC_WRONG_KEY');
    expect((await desktop.api.get('/api/sync/status', bob.token)).body.in_group).toBe(false);
    expect((await desktop.api.get('/api/accounts', bob.token)).body.items).toEqual([]);

    const joined = await desktop.api.post(
      '/api/sync/join',
      { invite_code: invite.body.invite_code, ...bobRelay, register: false, passphrase: PASSPHRASE },
      bob.token,
    );
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ in_group: true, last_error: null });
    const names = (await desktop.api.get('/api/accounts', bob.token)).body.items.map((a: { name: string }) => a.name);
    expect(names.sort()).toEqual(['Checking', 'Groceries']);

    // Bob books on the desktop; Alice's laptop gets it at its next sync.
    await entryBetween(desktop, bob.token, food, bank, '7.25', 'Bakery');
    expect((await desktop.api.get('/api/sync/status', bob.token)).body.changes_waiting).toBe(1);
    const sent = await desktop.api.post('/api/sync/now', undefined, bob.token);
    expect(sent.status).toBe(200);
    expect(sent.body.sent).toBeGreaterThanOrEqual(1);
    expect(sent.body.status.changes_waiting).toBe(0);
    const got = await laptop.api.post('/api/sync/now', undefined, alice.token);
    expect(got.body.received).toBeGreaterThanOrEqual(1);
    for (const [t, token] of [
      [laptop, alice.token],
      [desktop, bob.token],
    ] as const) {
      const balance = await t.api.get(`/api/accounts/${food}/balance`, token);
      expect(balance.body.balance).toBe('49.75');
      const memos = (await t.api.get('/api/journal-entries', token)).body.items.map((e: { memo: string }) => e.memo);
      expect(memos.sort()).toEqual(['Bakery', 'Corner Shop']);
    }

    // Alice's history says the desktop made the bakery entry
    const history = (await laptop.api.get('/api/history', alice.token)).body.items;
    const bakery = history.find((i: { label: string }) => i.label.includes('Bakery'));
    expect(bakery).toMatchObject({
      kind: 'journal_entries',
      action: 'posted',
      this_device: false,
      device: joined.body.device,
    });

    // Leaving keeps the books and stops the sync.
    expect((await desktop.api.delete('/api/sync/group', bob.token)).status).toBe(204);
    expect((await desktop.api.get('/api/sync/status', bob.token)).body.in_group).toBe(false);
    expect((await desktop.api.get('/api/journal-entries', bob.token)).body.items).toHaveLength(2);
  });

  it('when a request cannot be done, then it is refused with the reason and the books stay out of any group', async () => {
    const carol = await registerUser(laptop.api, 'Carol');
    const now = await laptop.api.post('/api/sync/now', undefined, carol.token);
    expect([now.status, now.body.code]).toEqual([409, 'SYNC_NOT_SET_UP']);
    expect((await laptop.api.post('/api/sync/invites', {}, carol.token)).body.code).toBe('SYNC_NOT_SET_UP');
    expect((await laptop.api.delete('/api/sync/group', carol.token)).status).toBe(409);

    const garbage = await laptop.api.post(
      '/api/sync/join',
      { invite_code: 'PLSYNC1.bm90IGFuIGludml0ZQ', ...joinLogin(), passphrase: PASSPHRASE },
      carol.token,
    );
    expect([garbage.status, garbage.body.code], JSON.stringify(garbage.body)).toEqual([400, 'SYNC_BAD_INVITE']);

    const both = await laptop.api.post(
      '/api/sync/join',
      { invite_code: 'PLSYNC1.xxxxxxxxxxxx', ...joinLogin(), passphrase: PASSPHRASE, recovery_code: 'AAAA' },
      carol.token,
    );
    expect(both.status).toBe(400);

    // a relay nobody answers at
    const closed = await laptop.api.post(
      '/api/sync/group',
      { ...relayLogin(), relay_url: 'http://127.0.0.1:9', passphrase: PASSPHRASE },
      carol.token,
    );
    expect([closed.status, closed.body.code]).toEqual([502, 'SYNC_RELAY_UNREACHABLE']);

    // the relay's refusal of its own login is not the app's 401
    const refused = await laptop.api.post(
      '/api/sync/group',
      { ...relayLogin(false), relay_password: 'wrong password here', passphrase: PASSPHRASE },
      carol.token,
    );
    expect([refused.status, refused.body.code]).toEqual([403, 'SYNC_RELAY_LOGIN']);
    expect((await laptop.api.get('/api/sync/status', carol.token)).body.in_group).toBe(false);

    // a random key, shown once as a recovery code
    const random = await laptop.api.post('/api/sync/group', relayLogin(), carol.token);
    expect(random.status).toBe(201);
    expect(random.body.recovery_code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){13}$/);
    const again = await laptop.api.post('/api/sync/group', relayLogin(), carol.token);
    expect([again.status, again.body.code]).toEqual([409, 'SYNC_ALREADY_SET_UP']);
    expect((await laptop.api.get('/api/sync/status', carol.token)).body.relay_reachable).toBe(true);

    // a relay that stops answering: the sync says so, and the status keeps it
    const brief = await startTestRelay();
    const dave = await registerUser(laptop.api, 'Dave');
    const grouped = await laptop.api.post('/api/sync/group', { ...relayLogin(), relay_url: brief.url }, dave.token);
    expect(grouped.status).toBe(201);
    await brief.stop();
    const gone = await laptop.api.post('/api/sync/now', undefined, dave.token);
    expect([gone.status, gone.body.code]).toEqual([502, 'SYNC_RELAY_UNREACHABLE']);
    const status = (await laptop.api.get('/api/sync/status', dave.token)).body;
    expect(status.relay_reachable).toBe(false);
    expect(status.last_error).toContain('cannot be reached');
  });
});

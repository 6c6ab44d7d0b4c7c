import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { ledgerFile } from '../support/server.ts';
import { RELAY_PASSWORD, startTestRelay, type TestRelay } from '../support/relay.ts';
import { send, t } from '../support/openapi-session.ts';

// The sync's relays (docs/sync.md): one that answers, one that takes one registration an hour.
const relays: TestRelay[] = [];

/** Stops the relays the scenarios started. */
export async function stopRelays(): Promise<void> {
  await Promise.all(relays.map((r) => r.stop()));
}

async function relayNamed(limits: { registerPerHour?: number } = {}): Promise<TestRelay> {
  const relay = await startTestRelay({ limits: { registerPerHour: 10_000, ...limits } });
  relays.push(relay);
  if (limits.registerPerHour === 1) {
    // the hour's one registration, spent
    const json = { username: `spent-${process.pid}`, password: RELAY_PASSWORD };
    expect((await relay.api.post('/relay/register', json)).status).toBe(201);
  }
  return relay;
}
let relayNames = 0;
function relayLogin(url: string, register = true) {
  relayNames += 1;
  return { relay_url: url, relay_username: `oa${relayNames}-${process.pid}`, relay_password: RELAY_PASSWORD, register };
}
/** A user of the app of their own, for the sync's scenarios (each changes the user's group). */
async function appUser(): Promise<{ id: string; token: string }> {
  const email = `sync-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await send('POST', '/api/auth/register', {
    json: { email, name: 'Sync', password: 'correct horse battery' },
    token: null,
  });
  return { id: res.body.id, token: res.body.access_token };
}
/** A user whose books are in a group on `relay` (its key random, shown as the recovery code). */
async function grouped(relay: TestRelay): Promise<{ id: string; token: string; recoveryCode: string }> {
  const u = await appUser();
  const made = await send('POST', '/api/sync/group', { json: relayLogin(relay.url), token: u.token });
  expect(made.status).toBe(201);
  return { ...u, recoveryCode: made.body.recovery_code };
}
/** Signs the relay token a user's books keep out on the relay, as an expired one would be. */
async function revokeRelayToken(userId: string): Promise<void> {
  const db = new Database(ledgerFile(t.dataDir, userId), { readonly: true });
  const { sync_group } = db.prepare('SELECT sync_group FROM sync_state').get() as { sync_group: string };
  db.close();
  const { relay_url, token } = JSON.parse(sync_group) as { relay_url: string; token: string };
  const out = await fetch(`${relay_url}/relay/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(out.status).toBe(204);
}

/** The scenarios of the operations of history and undo and of the sync (test/openapi.test.ts runs them). */
export const SYNC_SCENARIOS: Record<string, () => Promise<void>> = {
  async 'GET /api/history'() {
    expect((await send('GET', '/api/history?limit=5')).status).toBe(200);
    expect((await send('GET', '/api/history?before=now')).status).toBe(400);
  },
  async 'POST /api/history/undo'() {
    const u = await appUser();
    expect((await send('POST', '/api/history/undo', { token: u.token })).status).toBe(409);
    await send('POST', '/api/accounts', { json: { name: 'Undone', type: 'ASSET' }, token: u.token });
    expect((await send('POST', '/api/history/undo', { token: u.token })).status).toBe(200);
  },
  async 'GET /api/sync/status'() {
    expect((await send('GET', '/api/sync/status')).status).toBe(200);
  },
  async 'POST /api/sync/group'() {
    const relay = await relayNamed();
    const u = await appUser();
    const post = (json: unknown) => send('POST', '/api/sync/group', { json, token: u.token });
    expect((await post({ relay_url: 'not a url' })).status).toBe(400);
    expect((await post(relayLogin('http://127.0.0.1:9'))).status).toBe(502);
    expect((await post(relayLogin(relay.url, false))).status).toBe(403);
    const limited = await relayNamed({ registerPerHour: 1 });
    expect((await post(relayLogin(limited.url))).status).toBe(429);
    expect((await post(relayLogin(relay.url))).status).toBe(201);
    expect((await post(relayLogin(relay.url))).status).toBe(409);
  },
  async 'POST /api/sync/join'() {
    const relay = await relayNamed();
    const owner = await grouped(relay);
    const code = (await send('POST', '/api/sync/invites', { json: { uses: 5 }, token: owner.token })).body
      .invite_code as string;
    const { g } = JSON.parse(Buffer.from(code.slice(8), 'base64url').toString()) as { g: string };
    const inviteTo = (r: string, i = 'not the invite') =>
      'PLSYNC1.' + Buffer.from(JSON.stringify({ r, g, i })).toString('base64url');
    const login = () => {
      const { relay_url: _url, ...rest } = relayLogin(relay.url);
      return rest;
    };
    const joiner = await appUser();
    const join = (json: unknown, token = joiner.token) => send('POST', '/api/sync/join', { json, token });
    const passphrase = 'long enough words';
    expect((await join({ invite_code: 'PLSYNC1.garbage-here', ...login(), passphrase })).status).toBe(400);
    expect((await join({ invite_code: inviteTo('http://127.0.0.1:9'), ...login(), passphrase })).status).toBe(502);
    const limited = await relayNamed({ registerPerHour: 1 });
    expect((await join({ invite_code: inviteTo(limited.url), ...login(), passphrase })).status).toBe(429);
    expect((await join({ invite_code: inviteTo(relay.url), ...login(), passphrase })).status).toBe(403);
    const busy = await appUser();
    await send('POST', '/api/accounts', { json: { name: 'Checking', type: 'ASSET' }, token: busy.token });
    expect((await join({ invite_code: code, ...login(), passphrase }, busy.token)).status).toBe(409);
    // the group's key is random: a passphrase is not it
    expect((await join({ invite_code: code, ...login(), passphrase })).status).toBe(400);
    expect((await join({ invite_code: code, ...login(), recovery_code: owner.recoveryCode })).status).toBe(200);
  },
  async 'POST /api/sync/invites'() {
    const post = (token: string, json: unknown = {}) => send('POST', '/api/sync/invites', { json, token });
    expect((await post((await appUser()).token)).status).toBe(409);
    const relay = await relayNamed();
    const owner = await grouped(relay);
    expect((await post(owner.token, { uses: 0 })).status).toBe(400);
    expect((await post(owner.token)).status).toBe(201);
    await revokeRelayToken(owner.id);
    expect((await post(owner.token)).status).toBe(403);
    const gone = await relayNamed();
    const stranded = await grouped(gone);
    await gone.stop();
    relays.splice(relays.indexOf(gone), 1);
    expect((await post(stranded.token)).status).toBe(502);
  },
  async 'POST /api/sync/now'() {
    const now = (token: string) => send('POST', '/api/sync/now', { token });
    expect((await now((await appUser()).token)).status).toBe(409);
    const relay = await relayNamed();
    const owner = await grouped(relay);
    expect((await now(owner.token)).status).toBe(200);
    await revokeRelayToken(owner.id);
    expect((await now(owner.token)).status).toBe(403);
    const gone = await relayNamed();
    const stranded = await grouped(gone);
    await gone.stop();
    relays.splice(relays.indexOf(gone), 1);
    expect((await now(stranded.token)).status).toBe(502);
  },
  async 'DELETE /api/sync/group'() {
    const leave = (token: string) => send('DELETE', '/api/sync/group', { token });
    expect((await leave((await appUser()).token)).status).toBe(409);
    const owner = await grouped(await relayNamed());
    expect((await leave(owner.token)).status).toBe(204);
  },
};

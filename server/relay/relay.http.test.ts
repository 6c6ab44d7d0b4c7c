import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import {
  MemoryReplica,
  createKeyedGroup,
  relayAccount,
  startTestRelay,
  type TestRelay,
} from '../../test/support/relay.ts';
import { keyFromPassphrase, makeKeyTest, newKeyId, newSalt } from '../sync/crypto.ts';
import { encodeSyncRequest, encryptMessage, sealedToBase64 } from '../sync/messages.ts';
import { RelayClient } from '../sync/relay-client.ts';
import { RELAY_FILE } from './relay-db.ts';

const relays: TestRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

async function relay(options: Parameters<typeof startTestRelay>[0] = {}): Promise<TestRelay> {
  const started = await startTestRelay(options);
  relays.push(started);
  return started;
}

function rows<T>(r: TestRelay, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(r.dataDir, RELAY_FILE), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const groupBody = () => ({
  salt: newSalt().toString('base64'),
  key_id: newKeyId(),
  key_test: sealedToBase64(makeKeyTest({ keyId: 'k', key: Buffer.alloc(32, 7) })),
});

describe('relay accounts', () => {
  it('when someone registers, logs in and logs out, then each token works until its session ends', async () => {
    const r = await relay();
    const registered = await r.api.post('/relay/register', { username: 'Ada', password: 'correct horse battery' });
    expect(registered.status).toBe(201);
    expect(registered.body.user.username).toBe('ada');
    const login = await r.api.post('/relay/login', { username: 'ada', password: 'correct horse battery' });
    expect(login.status).toBe(200);
    expect((await r.api.get('/relay/groups', login.body.access_token)).status).toBe(200);
    expect((await r.api.request('POST', '/relay/logout', { token: login.body.access_token })).status).toBe(204);
    const ended = await r.api.get('/relay/groups', login.body.access_token);
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ detail: 'Could not validate credentials' });
    expect((await r.api.get('/relay/groups', registered.body.access_token)).status).toBe(200);
    // only hashes are kept
    const stored = rows<{ password_hash: string }>(r, 'SELECT password_hash FROM relay_users');
    expect(stored[0]!.password_hash).toMatch(/^\$2[aby]\$/);
    const tokens = rows<{ token_hash: string }>(r, 'SELECT token_hash FROM relay_sessions');
    expect(tokens.map((t) => t.token_hash)).not.toContain(registered.body.access_token);
  });

  it('when a username is taken or a body is malformed, then the answer is a 4xx in the error shape and nothing is stored', async () => {
    const r = await relay();
    await r.api.post('/relay/register', { username: 'ada', password: 'correct horse battery' });
    const taken = await r.api.post('/relay/register', { username: 'ADA', password: 'another good password' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('USERNAME_TAKEN');
    const bad = await r.api.post('/relay/register', { username: 'a', password: 'short', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'password', 'username']);
    const notJson = await r.api.request('POST', '/relay/register', {
      rawBody: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('MALFORMED_JSON');
    const text = await r.api.request('POST', '/relay/register', {
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(rows(r, 'SELECT id FROM relay_users')).toHaveLength(1);
  });

  it('when a login fails five times for one username from one address, then the sixth is refused with Retry-After, even with the right password', async () => {
    const r = await relay();
    await r.api.post('/relay/register', { username: 'ada', password: 'correct horse battery' });
    for (let i = 0; i < 5; i++) {
      const wrong = await r.api.post('/relay/login', { username: 'ada', password: `wrong password ${i}` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ detail: 'Incorrect username or password' });
    }
    const refused = await r.api.post('/relay/login', { username: 'ada', password: 'correct horse battery' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('when registrations from one address pass the hourly limit, then the next is refused', async () => {
    const r = await relay({ limits: { registerPerHour: 2 } });
    for (const name of ['ada', 'bob']) {
      expect((await r.api.post('/relay/register', { username: name, password: 'correct horse battery' })).status).toBe(
        201,
      );
    }
    const third = await r.api.post('/relay/register', { username: 'cy', password: 'correct horse battery' });
    expect(third.status).toBe(429);
    expect(rows(r, 'SELECT id FROM relay_users')).toHaveLength(2);
  });

  it('when a request has no token, a malformed one, a foreign Host or any Origin, then it is refused', async () => {
    const r = await relay();
    const none = await r.api.get('/relay/groups');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: 'Not authenticated' });
    const malformed = await r.api.request('GET', '/relay/groups', { headers: { authorization: 'Bearer a b c' } });
    expect(malformed.status).toBe(401);
    const host = await withHost(r.url, 'evil.example:80');
    expect(host.status).toBe(403);
    expect(JSON.parse(host.text).code).toBe('FORBIDDEN_HOST');
    const origin = await r.api.request('GET', '/relay/health', { headers: { origin: r.url } });
    expect(origin.status).toBe(403);
    expect(origin.body.code).toBe('FORBIDDEN_ORIGIN');
    const unknown = await r.api.get('/relay/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });
});

/** GET /relay/health with any Host header (fetch sends only the URL's). */
function withHost(url: string, host: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, path: '/relay/health', headers: { host }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('relay binding', () => {
  it('when the relay listens on another address than loopback, then it answers whatever name it is reached by', async () => {
    const r = await relay({ host: '127.0.0.2' });
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    const named = await withHost(r.url, 'relay.home.example:4600');
    expect(named.status).toBe(200);
  });
});

describe('relay groups', () => {
  it('when a group is created, then only its members see it, with the salt, key id and key test as given', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const stranger = await relayAccount(r.url);
    const body = groupBody();
    const made = await r.api.post('/relay/groups', body, owner.token);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ salt: body.salt, key_id: body.key_id, key_test: body.key_test, members: 1 });
    expect((await r.api.get(`/relay/groups/${made.body.id}`, owner.token)).body.id).toBe(made.body.id);
    const hidden = await r.api.get(`/relay/groups/${made.body.id}`, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');
    expect((await r.api.get('/relay/groups', stranger.token)).body.groups).toEqual([]);
    const badSalt = await r.api.post(
      '/relay/groups',
      { ...body, salt: Buffer.alloc(15).toString('base64') },
      owner.token,
    );
    expect(badSalt.status).toBe(400);
    expect(badSalt.body.errors[0].field).toBe('salt');
  });

  it('when a member invites another account, then it joins once per use, again without spending one, and no further', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const [second, third] = [await relayAccount(r.url), await relayAccount(r.url)];
    const made = await r.api.post('/relay/groups', groupBody(), owner.token);
    const invite = await r.api.post(`/relay/groups/${made.body.id}/invites`, {}, owner.token);
    expect(invite.status).toBe(201);
    expect(invite.body.uses).toBe(1);
    const stored = rows<{ token_hash: string }>(r, 'SELECT token_hash FROM group_invites');
    expect(stored[0]!.token_hash).not.toBe(invite.body.invite);
    const joined = await r.api.post(`/relay/groups/${made.body.id}/join`, { invite: invite.body.invite }, second.token);
    expect(joined.status).toBe(200);
    expect(joined.body.members).toBe(2);
    const again = await r.api.post(`/relay/groups/${made.body.id}/join`, { invite: invite.body.invite }, second.token);
    expect(again.status).toBe(200);
    const spent = await r.api.post(`/relay/groups/${made.body.id}/join`, { invite: invite.body.invite }, third.token);
    expect(spent.status).toBe(403);
    expect(spent.body.code).toBe('INVITE_INVALID');
    const other = await r.api.post('/relay/groups', groupBody(), owner.token);
    const wrongGroup = await r.api.post(
      `/relay/groups/${other.body.id}/join`,
      { invite: invite.body.invite },
      third.token,
    );
    expect(wrongGroup.status).toBe(403);
    const strangerInvites = await r.api.post(`/relay/groups/${made.body.id}/invites`, {}, third.token);
    expect(strangerInvites.status).toBe(404);
  });

  it('when an invite has expired, then it is refused', async () => {
    let now = Date.UTC(2026, 10, 1);
    const r = await relay({ now: () => now });
    const owner = await relayAccount(r.url);
    const joiner = await relayAccount(r.url);
    const made = await r.api.post('/relay/groups', groupBody(), owner.token);
    const invite = await r.api.post(`/relay/groups/${made.body.id}/invites`, { expires_in_hours: 1 }, owner.token);
    now += 60 * 60 * 1000;
    const late = await r.api.post(`/relay/groups/${made.body.id}/join`, { invite: invite.body.invite }, joiner.token);
    expect(late.status).toBe(403);
    expect(late.body.code).toBe('INVITE_INVALID');
  });

  it('when the limits of groups per account and members per group are reached, then more are refused with LIMIT_REACHED', async () => {
    const r = await relay({ limits: { groupsPerUser: 2, membersPerGroup: 2 } });
    const owner = await relayAccount(r.url);
    const [second, third] = [await relayAccount(r.url), await relayAccount(r.url)];
    const first = await r.api.post('/relay/groups', groupBody(), owner.token);
    await r.api.post('/relay/groups', groupBody(), owner.token);
    const tooMany = await r.api.post('/relay/groups', groupBody(), owner.token);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('LIMIT_REACHED');
    const invite = await r.api.post(`/relay/groups/${first.body.id}/invites`, { uses: 2 }, owner.token);
    await r.api.post(`/relay/groups/${first.body.id}/join`, { invite: invite.body.invite }, second.token);
    const full = await r.api.post(`/relay/groups/${first.body.id}/join`, { invite: invite.body.invite }, third.token);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('LIMIT_REACHED');
    expect(rows(r, 'SELECT user_id FROM group_members WHERE group_id = ?', first.body.id)).toHaveLength(2);
  });

  it('when members leave, then the group goes on until the last one leaves, which deletes it and its messages', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const second = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const invite = await owner.invite(group.groupId);
    await second.join(group.groupId, invite.invite);
    const replica = new MemoryReplica();
    replica.write('accounts', 'a1', '{"name":"Cash"}');
    await replica.sync(owner.transport(), group);
    expect(
      (await r.api.request('DELETE', `/relay/groups/${group.groupId}/members/me`, { token: owner.token! })).status,
    ).toBe(204);
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(1);
    expect((await r.api.get(`/relay/groups/${group.groupId}`, owner.token)).status).toBe(404);
    await second.leave(group.groupId);
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(0);
    expect(rows(r, 'SELECT id FROM sync_groups')).toHaveLength(0);
    const again = await r.api.request('DELETE', `/relay/groups/${group.groupId}/members/me`, { token: second.token! });
    expect(again.status).toBe(404);
  });
});

describe('relay sync', () => {
  it('when one device syncs its changes, then another device of the group gets them, and neither gets its own back', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const [a, b] = [new MemoryReplica(), new MemoryReplica()];
    a.write('journal_entries', 'e1', '{"memo":"Rent"}');
    a.write('accounts', 'a1', '{"name":"Cash"}');
    const sent = await a.sync(owner.transport(), group);
    expect(sent).toMatchObject({ sent: 2, received: 0, requests: 1 });
    const got = await b.sync(owner.transport(), group);
    expect(got).toMatchObject({ sent: 0, received: 2, requests: 1 });
    expect(b.state()).toBe(a.state());
    b.write('accounts', 'a1', '{"name":"Petty cash"}');
    await b.sync(owner.transport(), group);
    const back = await a.sync(owner.transport(), group);
    expect(back.received).toBe(1);
    expect(a.state()).toBe(b.state());
    expect(a.applied).toBe(1);
  });

  it('when a new device has received the books, then its next sync sends none of them back and receives none again', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const [a, b] = [new MemoryReplica(), new MemoryReplica()];
    for (let i = 0; i < 30; i++) a.write('journal_entries', `e${i}`, `{"memo":"entry ${i}"}`);
    await a.sync(owner.transport(), group);
    expect(await b.sync(owner.transport(), group)).toMatchObject({ sent: 0, received: 30 });
    expect(await b.sync(owner.transport(), group)).toMatchObject({ sent: 0, received: 0, requests: 1 });
    b.write('accounts', 'a1', '{"name":"Cash"}');
    expect(await b.sync(owner.transport(), group)).toMatchObject({ sent: 1, received: 0 });
    expect(await a.sync(owner.transport(), group)).toMatchObject({ sent: 0, received: 1 });
    expect(a.state()).toBe(b.state());
  });

  it('when the same request is sent twice, then the second stores nothing and the trie is the same', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const a = new MemoryReplica();
    const message = a.write('accounts', 'a1', '{"name":"Cash"}');
    const request = encodeSyncRequest({
      groupId: group.groupId,
      keyId: group.keyId,
      since: '',
      node: a.clock.node,
      messages: [encryptMessage(group, message)],
    });
    const transport = owner.transport();
    await transport(request);
    const before = rows(r, 'SELECT * FROM messages');
    const merkleBefore = rows(r, 'SELECT merkle FROM group_merkles');
    await transport(request);
    expect(rows(r, 'SELECT * FROM messages')).toEqual(before);
    expect(rows(r, 'SELECT merkle FROM group_merkles')).toEqual(merkleBefore);
    const b = new MemoryReplica();
    await b.sync(transport, group);
    expect(b.state()).toBe(a.state());
  });

  it('when an envelope stored on the relay is altered, then the device refuses the whole answer and applies nothing', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const a = new MemoryReplica();
    a.write('accounts', 'a1', '{"name":"Cash"}');
    a.write('accounts', 'a2', '{"name":"Bank"}');
    await a.sync(owner.transport(), group);
    const file = new Database(path.join(r.dataDir, RELAY_FILE));
    const last = file.prepare('SELECT timestamp, content FROM messages ORDER BY timestamp DESC LIMIT 1').get() as {
      timestamp: string;
      content: Buffer;
    };
    last.content[last.content.length - 1]! ^= 1;
    file.prepare('UPDATE messages SET content = ? WHERE timestamp = ?').run(last.content, last.timestamp);
    file.close();
    const b = new MemoryReplica();
    await expect(b.sync(owner.transport(), group)).rejects.toMatchObject({ code: 'SYNC_TAMPERED' });
    expect(b.applied).toBe(0);
    expect(b.log.size).toBe(0);
  });

  it('when the relay lost envelopes (its file restored from an older copy), then the devices give them back', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const [a, b] = [new MemoryReplica(), new MemoryReplica()];
    a.write('accounts', 'a1', '{"name":"Cash"}');
    a.write('accounts', 'a2', '{"name":"Bank"}');
    await a.sync(owner.transport(), group);
    await b.sync(owner.transport(), group);
    const file = new Database(path.join(r.dataDir, RELAY_FILE));
    file.prepare('DELETE FROM messages').run();
    file.prepare('UPDATE group_merkles SET merkle = ?').run('{"hash":0}');
    file.close();
    b.write('accounts', 'a3', '{"name":"Card"}');
    await b.sync(owner.transport(), group);
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(3);
    const c = new MemoryReplica();
    await c.sync(owner.transport(), group);
    await a.sync(owner.transport(), group);
    expect(c.state()).toBe(b.state());
    expect(a.state()).toBe(b.state());
  });

  it('when a device holds a key from the wrong passphrase, then it is SYNC_WRONG_KEY before anything is sent or applied', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const salt = newSalt();
    const keyId = newKeyId();
    const key = await keyFromPassphrase('correct horse battery staple', salt);
    const made = await owner.createGroup({ salt, keyId, keyTest: makeKeyTest({ keyId, key }) });
    const fetched = await owner.group(made.id);
    const wrong = await keyFromPassphrase('correct horse battery stable', fetched.salt);
    const device = new MemoryReplica();
    device.write('accounts', 'a1', '{"name":"Cash"}');
    const group = { groupId: made.id, keyId, key: wrong, keyTest: fetched.keyTest };
    await expect(device.sync(owner.transport(), group)).rejects.toMatchObject({ code: 'SYNC_WRONG_KEY' });
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(0);
  });

  it('when a device writes more than a page, then the changes go in pages of 1000 both ways', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const [a, b] = [new MemoryReplica(), new MemoryReplica()];
    for (let i = 0; i < 2500; i++) a.write('journal_entries', `e${i}`, `{"memo":"entry ${i}"}`);
    expect(await a.sync(owner.transport(), group)).toMatchObject({ sent: 2500, received: 0, requests: 3 });
    expect(await b.sync(owner.transport(), group)).toMatchObject({ sent: 0, received: 2500, requests: 3 });
    expect(b.state()).toBe(a.state());
  });

  it("when a sync request is malformed, too big, of another key or of a group not the caller's, then it is refused and nothing is stored", async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const stranger = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const a = new MemoryReplica();
    const message = encryptMessage(group, a.write('accounts', 'a1', '{"name":"Cash"}'));
    const request = (fields: Partial<Parameters<typeof encodeSyncRequest>[0]>) =>
      encodeSyncRequest({
        groupId: group.groupId,
        keyId: group.keyId,
        since: '',
        node: '',
        messages: [message],
        ...fields,
      });
    const post = (body: Uint8Array | string, token = owner.token!, type = 'application/x-protobuf') =>
      r.api.request('POST', '/relay/sync', { rawBody: body, token, headers: { 'content-type': type } });
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [post(new Uint8Array([0xff, 0xff, 0xff])), 400, 'MALFORMED_PROTOBUF'],
      [post(request({}), owner.token!, 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [post(request({ keyId: 'another-key' })), 409, 'SYNC_KEY_MISMATCH'],
      [post(request({}), stranger.token!), 404, 'NOT_FOUND'],
      [post(request({ since: 'yesterday' })), 400, 'VALIDATION_ERROR'],
      [post(request({ node: 'me' })), 400, 'VALIDATION_ERROR'],
      [post(request({ messages: [{ ...message, isEncrypted: false }] })), 400, 'VALIDATION_ERROR'],
      [post(request({ messages: [{ ...message, timestamp: 'now' }] })), 400, 'VALIDATION_ERROR'],
      [post(request({ messages: [{ ...message, content: new Uint8Array(0) }] })), 400, 'VALIDATION_ERROR'],
      [post(request({ messages: Array.from({ length: 1001 }, () => message) })), 413, 'PAYLOAD_TOO_LARGE'],
      [post(new Uint8Array(17 * 1024 * 1024)), 413, 'PAYLOAD_TOO_LARGE'],
    ];
    for (const [answer, status, code] of cases) {
      const got = await answer;
      expect([got.status, got.body?.code]).toEqual([status, code]);
    }
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(0);
    const unauthenticated = await r.api.request('POST', '/relay/sync', {
      rawBody: request({}),
      headers: { 'content-type': 'application/x-protobuf' },
    });
    expect(unauthenticated.status).toBe(401);
  });

  it('when a relay answers something else than the contract, then the client says so instead of using it', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const lying = new RelayClient(r.url, {
      token: owner.token,
      fetch: async () => new Response(JSON.stringify({ groups: [{ id: 1 }] }), { status: 200 }),
    });
    await expect(lying.groups()).rejects.toMatchObject({ code: 'SYNC_BAD_ANSWER' });
    const gone = new RelayClient('http://127.0.0.1:9');
    await expect(gone.groups()).rejects.toMatchObject({ code: 'SYNC_RELAY_UNREACHABLE' });
  });

  it('when a connection is reset before any answer, then a sync is sent once more and a registration is not', async () => {
    const r = await relay();
    const owner = await relayAccount(r.url);
    const group = await createKeyedGroup(owner);
    const sent: string[] = [];
    /** fetch whose first request of each path meets a reset connection, as a stale kept-alive one does. */
    const resetting: typeof fetch = async (input, init) => {
      const url = String(input);
      sent.push(`${init?.method} ${new URL(url).pathname}`);
      if (sent.filter((line) => line.endsWith(new URL(url).pathname)).length === 1) {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
        });
      }
      return fetch(input, init);
    };
    const device = new MemoryReplica();
    device.write('accounts', 'a1', '{"name":"Cash"}');
    const client = new RelayClient(r.url, { token: owner.token, fetch: resetting });
    expect(await device.sync(client.transport(), group)).toMatchObject({ sent: 1, requests: 1 });
    await expect(
      new RelayClient(r.url, { fetch: resetting }).register('newcomer', 'correct horse battery'),
    ).rejects.toMatchObject({
      code: 'SYNC_RELAY_UNREACHABLE',
    });
    expect(sent).toEqual(['POST /relay/sync', 'POST /relay/sync', 'POST /relay/register']);
    expect(rows(r, 'SELECT timestamp FROM messages')).toHaveLength(1);
  });

  it('when the relay is asked for its document, then it describes every route with the relay error shape', async () => {
    const r = await relay();
    const doc = await r.api.get('/relay/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths).sort()).toEqual([
      '/relay/groups',
      '/relay/groups/{id}',
      '/relay/groups/{id}/invites',
      '/relay/groups/{id}/join',
      '/relay/groups/{id}/members/me',
      '/relay/health',
      '/relay/login',
      '/relay/logout',
      '/relay/openapi.json',
      '/relay/register',
      '/relay/sync',
    ]);
    expect(Object.keys(doc.body.paths['/relay/sync'].post.requestBody.content)).toEqual(['application/x-protobuf']);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc.body), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual(
      [],
    );
  });
});

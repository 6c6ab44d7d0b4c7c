/** The relay's SQL (Kysely, async, dialect-neutral). Row types stay here. */
import { merkle } from '@actual-app/crdt';
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { RelayDb, RelaySchema } from './relay-db.ts';

export type RelayTx = RelayDb | Transaction<RelaySchema>;

export interface UserRecord {
  id: string;
  username: string;
  passwordHash: string;
  passwordSetAt: number;
}

export interface GroupRecord {
  id: string;
  salt: string;
  keyId: string;
  keyTest: string;
  createdAt: string;
  members: number;
}

export interface StoredEnvelope {
  timestamp: string;
  isEncrypted: boolean;
  content: Buffer;
}

export async function insertUser(
  db: RelayTx,
  user: { id: string; username: string; passwordHash: string; now: number },
): Promise<boolean> {
  const result = await db
    .insertInto('relay_users')
    .values({
      id: user.id,
      username: user.username,
      password_hash: user.passwordHash,
      password_set_at: user.now,
      created_at: new Date(user.now).toISOString(),
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function userByName(db: RelayTx, username: string): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom('relay_users')
    .select(['id', 'username', 'password_hash', 'password_set_at'])
    .where('username', '=', username)
    .executeTakeFirst();
  return (
    row && { id: row.id, username: row.username, passwordHash: row.password_hash, passwordSetAt: row.password_set_at }
  );
}

export async function insertSession(
  db: RelayTx,
  session: { tokenHash: string; userId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('relay_sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** The user of a live session (not expired at `nowIso`), with the username. */
export async function sessionUser(
  db: RelayTx,
  tokenHash: string,
  nowIso: string,
): Promise<{ id: string; username: string } | undefined> {
  return db
    .selectFrom('relay_sessions')
    .innerJoin('relay_users', 'relay_users.id', 'relay_sessions.user_id')
    .select(['relay_users.id as id', 'relay_users.username as username'])
    .where('relay_sessions.token_hash', '=', tokenHash)
    .where('relay_sessions.expires_at', '>', nowIso)
    .executeTakeFirst();
}

/** An account's expired sessions, removed when it opens a new one (so they never pile up). */
export async function deleteExpiredSessions(db: RelayTx, userId: string, nowIso: string): Promise<void> {
  await db.deleteFrom('relay_sessions').where('user_id', '=', userId).where('expires_at', '<=', nowIso).execute();
}

export async function deleteSession(db: RelayTx, tokenHash: string): Promise<void> {
  await db.deleteFrom('relay_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function countGroupsOf(db: RelayTx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('group_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countMembers(db: RelayTx, groupId: string): Promise<number> {
  const row = await db
    .selectFrom('group_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertGroup(
  db: RelayTx,
  group: { id: string; salt: string; keyId: string; keyTest: string; createdBy: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('sync_groups')
    .values({
      id: group.id,
      salt: group.salt,
      key_id: group.keyId,
      key_test: group.keyTest,
      created_by: group.createdBy,
      created_at: group.createdAt,
    })
    .execute();
  await db
    .insertInto('group_merkles')
    .values({ group_id: group.id, merkle: JSON.stringify(merkle.emptyTrie()) })
    .execute();
}

export async function insertMember(db: RelayTx, groupId: string, userId: string, joinedAt: string): Promise<boolean> {
  const result = await db
    .insertInto('group_members')
    .values({ group_id: groupId, user_id: userId, joined_at: joinedAt })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteMember(db: RelayTx, groupId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('group_members')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const groupColumns = ['sync_groups.id', 'salt', 'key_id', 'key_test', 'sync_groups.created_at'] as const;

function groupRecord(
  row: { id: string; salt: string; key_id: string; key_test: string; created_at: string },
  members: number,
): GroupRecord {
  return { id: row.id, salt: row.salt, keyId: row.key_id, keyTest: row.key_test, createdAt: row.created_at, members };
}

/** A group as one of its members sees it; undefined when it does not exist or `userId` is not a member. */
export async function groupOfMember(db: RelayTx, groupId: string, userId: string): Promise<GroupRecord | undefined> {
  const row = await db
    .selectFrom('group_members')
    .innerJoin('sync_groups', 'sync_groups.id', 'group_members.group_id')
    .select(groupColumns)
    .where('group_members.group_id', '=', groupId)
    .where('group_members.user_id', '=', userId)
    .executeTakeFirst();
  return row && groupRecord(row, await countMembers(db, groupId));
}

export async function groupsOf(db: RelayTx, userId: string): Promise<GroupRecord[]> {
  const rows = await db
    .selectFrom('group_members')
    .innerJoin('sync_groups', 'sync_groups.id', 'group_members.group_id')
    .select([
      ...groupColumns,
      (eb) =>
        eb
          .selectFrom('group_members as m')
          .select((m) => m.fn.countAll<number>().as('n'))
          .whereRef('m.group_id', '=', 'sync_groups.id')
          .as('members'),
    ])
    .where('group_members.user_id', '=', userId)
    .orderBy('sync_groups.created_at')
    .orderBy('sync_groups.id')
    .execute();
  return rows.map((row) => groupRecord(row, Number(row.members)));
}

export async function groupExists(db: RelayTx, groupId: string): Promise<boolean> {
  const row = await db.selectFrom('sync_groups').select('id').where('id', '=', groupId).executeTakeFirst();
  return row !== undefined;
}

export async function insertInvite(
  db: RelayTx,
  invite: { tokenHash: string; groupId: string; createdBy: string; expiresAt: string; uses: number },
): Promise<void> {
  await db
    .insertInto('group_invites')
    .values({
      token_hash: invite.tokenHash,
      group_id: invite.groupId,
      created_by: invite.createdBy,
      expires_at: invite.expiresAt,
      uses_left: invite.uses,
    })
    .execute();
}

/** Takes one use of a live invite of `groupId`; false when there is none (unknown, another group's, expired or used up). */
export async function useInvite(db: RelayTx, tokenHash: string, groupId: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('group_invites')
    .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('group_id', '=', groupId)
    .where('expires_at', '>', nowIso)
    .where('uses_left', '>', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSpentInvites(db: RelayTx, groupId: string, nowIso: string): Promise<void> {
  await db
    .deleteFrom('group_invites')
    .where('group_id', '=', groupId)
    .where((eb) => eb.or([eb('uses_left', '<=', 0), eb('expires_at', '<=', nowIso)]))
    .execute();
}

export async function countInvites(db: RelayTx, groupId: string): Promise<number> {
  const row = await db
    .selectFrom('group_invites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function groupMerkle(db: RelayTx, groupId: string): Promise<string> {
  const row = await db
    .selectFrom('group_merkles')
    .select('merkle')
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return row.merkle;
}

export async function setGroupMerkle(db: RelayTx, groupId: string, merkle: string): Promise<void> {
  await db.updateTable('group_merkles').set({ merkle }).where('group_id', '=', groupId).execute();
}

/** Stores an envelope unless the group holds one with its timestamp already; true when it was new. */
export async function insertEnvelope(db: RelayTx, groupId: string, envelope: StoredEnvelope): Promise<boolean> {
  const result = await db
    .insertInto('messages')
    .values({
      group_id: groupId,
      timestamp: envelope.timestamp,
      is_encrypted: envelope.isEncrypted ? 1 : 0,
      content: envelope.content,
    })
    .onConflict((oc) => oc.columns(['group_id', 'timestamp']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * The group's envelopes after `since`, oldest first, but those of `node` (its timestamps' last 16
 * characters) when one is named: one page, at most `page.messages` of them, ending with the one that
 * brings their content to `page.bytes`. Two index ranges of the primary key: the timestamps and
 * sizes first, then the contents of the page alone.
 */
export async function envelopesSince(
  db: RelayTx,
  groupId: string,
  since: string,
  node: string,
  page: { messages: number; bytes: number },
): Promise<StoredEnvelope[]> {
  let sizes = db
    .selectFrom('messages')
    .select((eb) => ['timestamp', eb.fn<number>('length', ['content']).as('bytes')])
    .where('group_id', '=', groupId)
    .where('timestamp', '>', since);
  const ownNode = (eb: ExpressionBuilder<RelaySchema, 'messages'>) =>
    eb(eb.fn('substr', ['timestamp', eb.val(31)]), '!=', node);
  if (node !== '') sizes = sizes.where(ownNode);
  let last: string | undefined;
  let bytes = 0;
  for (const row of await sizes.orderBy('timestamp').limit(page.messages).execute()) {
    if (bytes >= page.bytes) break;
    last = row.timestamp;
    bytes += Number(row.bytes);
  }
  if (last === undefined) return [];
  let contents = db
    .selectFrom('messages')
    .select(['timestamp', 'is_encrypted', 'content'])
    .where('group_id', '=', groupId)
    .where('timestamp', '>', since)
    .where('timestamp', '<=', last);
  if (node !== '') contents = contents.where(ownNode);
  const rows = await contents.orderBy('timestamp').execute();
  return rows.map((row) => ({ timestamp: row.timestamp, isEncrypted: row.is_encrypted === 1, content: row.content }));
}

/** Deletes up to `limit` of a group's envelopes; answers how many. */
export async function deleteEnvelopes(db: RelayTx, groupId: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('messages')
    .where('group_id', '=', groupId)
    .where('timestamp', 'in', (eb) =>
      eb.selectFrom('messages').select('timestamp').where('group_id', '=', groupId).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteGroup(db: RelayTx, groupId: string): Promise<void> {
  await db.deleteFrom('sync_groups').where('id', '=', groupId).execute();
}

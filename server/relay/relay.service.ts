/**
 * The relay's use cases: accounts and their tokens, sync groups with their members and invites, and
 * the sync itself. Each writing use case is one transaction on the relay's file; nothing awaits
 * bcrypt or the network inside one.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { merkle } from '@actual-app/crdt';
import { DomainError, type FieldError } from '../domain/errors.ts';
import { LOGIN_LIMITS, AttemptLimiter, LoginLimiter, type LoginLimits } from '../http/rate-limit.ts';
import { NODE_PATTERN, parseTimestamp, readMerkle } from '../sync/clock.ts';
import { crashPoint } from '../sync/crash-point.ts';
import { SYNC_PAGE, encodeSyncResponse, envelope, type SyncRequestFields } from '../sync/messages.ts';
import type { GroupRecord } from './relay.repository.ts';
import * as repo from './relay.repository.ts';
import type { RelayDb } from './relay-db.ts';

export interface RelayLimits {
  /** Registrations per client address and hour (every attempt counts). */
  registerPerHour: number;
  login: LoginLimits;
  /** Groups one account belongs to at most. */
  groupsPerUser: number;
  /** Members of one group at most. */
  membersPerGroup: number;
  /** Live invites of one group at most. */
  invitesPerGroup: number;
  /** How long a token lives (days). */
  tokenDays: number;
}

const RELAY_LIMITS: RelayLimits = {
  registerPerHour: 10,
  login: LOGIN_LIMITS,
  groupsPerUser: 20,
  membersPerGroup: 10,
  invitesPerGroup: 20,
  tokenDays: 90,
};

/** Limits other than the defaults (tests). */
export type RelayLimitOptions = Partial<Omit<RelayLimits, 'login'>> & { login?: Partial<LoginLimits> };

/** A group's envelopes are deleted this many at a time once its last member leaves, each batch its own transaction. */
const DELETE_BATCH = 5000;

/** A login refused by its limits; the router answers 429 with Retry-After. */
export class TooManyAttempts extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('too many failed logins');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const BAD_CREDENTIALS = 'Could not validate credentials';

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** bcrypt reads at most 72 bytes; a longer password can never be the one set. */
function fitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') <= 72;
}

export interface RelaySession {
  userId: string;
  username: string;
  tokenHash: string;
}

export interface GroupView {
  id: string;
  salt: string;
  key_id: string;
  key_test: string;
  members: number;
  created_at: string;
}

function view(group: GroupRecord): GroupView {
  return {
    id: group.id,
    salt: group.salt,
    key_id: group.keyId,
    key_test: group.keyTest,
    members: group.members,
    created_at: group.createdAt,
  };
}

const NO_GROUP = 'No sync group of yours has that id';

export class RelayService {
  private readonly db: RelayDb;
  private readonly bcryptCost: number;
  private readonly now: () => number;
  readonly limits: RelayLimits;
  readonly registerLimiter: AttemptLimiter;
  private readonly loginLimiter: LoginLimiter;
  private decoyHash: Promise<string> | undefined;

  constructor(deps: { db: RelayDb; bcryptCost: number; now?: () => number; limits?: RelayLimitOptions }) {
    this.db = deps.db;
    this.bcryptCost = deps.bcryptCost;
    this.now = deps.now ?? Date.now;
    this.limits = { ...RELAY_LIMITS, ...deps.limits, login: { ...RELAY_LIMITS.login, ...deps.limits?.login } };
    this.registerLimiter = new AttemptLimiter(this.limits.registerPerHour, 60 * 60 * 1000, this.now);
    this.loginLimiter = new LoginLimiter(this.limits.login, this.now);
  }

  private async openSession(user: { id: string; username: string }) {
    const token = newToken();
    const now = this.now();
    await repo.deleteExpiredSessions(this.db, user.id, new Date(now).toISOString());
    await repo.insertSession(this.db, {
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.limits.tokenDays * 24 * 60 * 60 * 1000).toISOString(),
    });
    return { access_token: token, token_type: 'bearer' as const, user: { id: user.id, username: user.username } };
  }

  async register(username: string, password: string) {
    // bcryptjs's asynchronous API yields to the event loop: a hash never stalls other requests.
    const passwordHash = await bcrypt.hash(password, this.bcryptCost);
    const id = crypto.randomUUID();
    const inserted = await repo.insertUser(this.db, { id, username, passwordHash, now: this.now() });
    if (!inserted) throw new DomainError('USERNAME_TAKEN', 'That username is taken on this relay');
    return this.openSession({ id, username });
  }

  /** Login with the app's limits: failures counted per (address, username) and per address. */
  async login(address: string, username: string, password: string) {
    const name = username.trim().toLowerCase();
    const user = await repo.userByName(this.db, name);
    const attempt = this.loginLimiter.begin(address, name, user?.passwordSetAt ?? null);
    if (!attempt.allowed) {
      throw new TooManyAttempts(attempt.retryAfterSeconds);
    }
    // A decoy hash when there is no such user: the answer takes as long either way.
    this.decoyHash ??= bcrypt.hash('decoy password', this.bcryptCost);
    const hash = user?.passwordHash ?? (await this.decoyHash);
    const matches = await bcrypt.compare(fitsBcrypt(password) ? password : '', hash);
    if (!user || !matches) throw new DomainError('INVALID_CREDENTIALS', 'Incorrect username or password');
    attempt.succeeded();
    return this.openSession(user);
  }

  async logout(session: RelaySession): Promise<void> {
    await repo.deleteSession(this.db, session.tokenHash);
  }

  /** The session of a bearer token, or undefined when it is unknown or expired. */
  async session(token: string): Promise<RelaySession | undefined> {
    const tokenHash = hashToken(token);
    const user = await repo.sessionUser(this.db, tokenHash, new Date(this.now()).toISOString());
    return user && { userId: user.id, username: user.username, tokenHash };
  }

  async listGroups(userId: string): Promise<GroupView[]> {
    return (await repo.groupsOf(this.db, userId)).map(view);
  }

  async createGroup(userId: string, input: { salt: string; keyId: string; keyTest: string }): Promise<GroupView> {
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.countGroupsOf(trx, userId)) >= this.limits.groupsPerUser) {
        throw new DomainError(
          'LIMIT_REACHED',
          `An account belongs to at most ${this.limits.groupsPerUser} sync groups`,
        );
      }
      const id = crypto.randomUUID();
      const createdAt = new Date(this.now()).toISOString();
      await repo.insertGroup(trx, { id, ...input, createdBy: userId, createdAt });
      await repo.insertMember(trx, id, userId, createdAt);
      return view((await repo.groupOfMember(trx, id, userId))!);
    });
  }

  async getGroup(userId: string, groupId: string): Promise<GroupView> {
    const group = await repo.groupOfMember(this.db, groupId, userId);
    if (!group) throw new DomainError('NOT_FOUND', NO_GROUP);
    return view(group);
  }

  async createInvite(userId: string, groupId: string, input: { expiresInHours: number; uses: number }) {
    const invite = newToken();
    const expiresAt = new Date(this.now() + input.expiresInHours * 60 * 60 * 1000).toISOString();
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.groupOfMember(trx, groupId, userId))) throw new DomainError('NOT_FOUND', NO_GROUP);
      await repo.deleteSpentInvites(trx, groupId, new Date(this.now()).toISOString());
      if ((await repo.countInvites(trx, groupId)) >= this.limits.invitesPerGroup) {
        throw new DomainError('LIMIT_REACHED', `A group has at most ${this.limits.invitesPerGroup} open invites`);
      }
      await repo.insertInvite(trx, {
        tokenHash: hashToken(invite),
        groupId,
        createdBy: userId,
        expiresAt,
        uses: input.uses,
      });
    });
    return { invite, group_id: groupId, expires_at: expiresAt, uses: input.uses };
  }

  /** Joins a group with one of its invites; joining a group one is already in changes nothing and spends no use. */
  async join(userId: string, groupId: string, invite: string): Promise<GroupView> {
    return this.db.transaction().execute(async (trx) => {
      const already = await repo.groupOfMember(trx, groupId, userId);
      if (already) return view(already);
      const invalid = new DomainError(
        'INVITE_INVALID',
        'This invite is not valid for that group: it is unknown, expired or used up',
      );
      if (!(await repo.groupExists(trx, groupId))) throw invalid;
      if (!(await repo.useInvite(trx, hashToken(invite), groupId, new Date(this.now()).toISOString()))) throw invalid;
      if ((await repo.countMembers(trx, groupId)) >= this.limits.membersPerGroup) {
        throw new DomainError('LIMIT_REACHED', `A sync group has at most ${this.limits.membersPerGroup} members`);
      }
      if ((await repo.countGroupsOf(trx, userId)) >= this.limits.groupsPerUser) {
        throw new DomainError(
          'LIMIT_REACHED',
          `An account belongs to at most ${this.limits.groupsPerUser} sync groups`,
        );
      }
      await repo.insertMember(trx, groupId, userId, new Date(this.now()).toISOString());
      return view((await repo.groupOfMember(trx, groupId, userId))!);
    });
  }

  /** Leaves a group; the last member to leave takes the group and its envelopes away. */
  async leave(userId: string, groupId: string): Promise<void> {
    const empty = await this.db.transaction().execute(async (trx) => {
      if (!(await repo.deleteMember(trx, groupId, userId))) throw new DomainError('NOT_FOUND', NO_GROUP);
      return (await repo.countMembers(trx, groupId)) === 0;
    });
    if (!empty) return;
    // In batches, each its own transaction: a big group's deletion never holds other groups' syncs for long.
    while ((await repo.deleteEnvelopes(this.db, groupId, DELETE_BATCH)) > 0);
    await repo.deleteGroup(this.db, groupId);
  }

  /**
   * One sync exchange, as Actual's sync server does it: the group's envelopes after `since` that do
   * not come from the caller's node (one page, oldest first, read before this request's are
   * stored), then this request's envelopes stored unless their timestamps are there already (a
   * replay changes nothing) and the new ones added to the group's trie, which is answered too.
   */
  async sync(userId: string, request: SyncRequestFields): Promise<Uint8Array> {
    checkSyncRequest(request);
    const answer = await this.db.transaction().execute(async (trx) => {
      const group = await repo.groupOfMember(trx, request.groupId, userId);
      if (!group) throw new DomainError('NOT_FOUND', NO_GROUP);
      if (request.keyId !== group.keyId) {
        throw new DomainError(
          'SYNC_KEY_MISMATCH',
          "The request's key id is not the group's: this device holds another key than the group's",
        );
      }
      const page = await repo.envelopesSince(trx, group.id, request.since, request.node, SYNC_PAGE);
      let trie = readMerkle(await repo.groupMerkle(trx, group.id));
      if (trie === null) throw new Error(`the stored merkle trie of group ${group.id} is not readable`);
      for (const message of request.messages) {
        const stored = await repo.insertEnvelope(trx, group.id, {
          timestamp: message.timestamp,
          isEncrypted: message.isEncrypted,
          content: Buffer.from(message.content.buffer, message.content.byteOffset, message.content.byteLength),
        });
        if (stored) trie = merkle.insert(trie, parseTimestamp(message.timestamp)!);
        crashPoint('relay-envelope-stored');
      }
      trie = merkle.prune(trie);
      const merkleJson = JSON.stringify(trie);
      await repo.setGroupMerkle(trx, group.id, merkleJson);
      return encodeSyncResponse(
        page.map((row) => envelope(row.timestamp, row.isEncrypted, row.content)),
        merkleJson,
      );
    });
    crashPoint('relay-committed');
    return answer;
  }
}

/** Refuses a sync request whose fields or envelopes are malformed or too large, naming each. */
function checkSyncRequest(request: SyncRequestFields): void {
  if (request.messages.length > SYNC_PAGE.messages) {
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `A sync request carries at most ${SYNC_PAGE.messages} messages, not ${request.messages.length}`,
    );
  }
  const errors: FieldError[] = [];
  if (request.groupId === '' || request.groupId.length > 100)
    errors.push({ field: 'groupId', message: 'is required (at most 100 characters)' });
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(request.keyId))
    errors.push({ field: 'keyId', message: 'must be 1 to 64 letters, digits, _ or -' });
  if (request.since !== '' && parseTimestamp(request.since) === null)
    errors.push({ field: 'since', message: 'must be a timestamp or empty' });
  if (request.node !== '' && !NODE_PATTERN.test(request.node))
    errors.push({ field: 'fileId', message: 'must be a node id (16 hexadecimal digits) or empty' });
  request.messages.forEach((message, i) => {
    if (errors.length >= 20) return;
    if (parseTimestamp(message.timestamp) === null)
      errors.push({ field: `messages.${i}.timestamp`, message: 'must be a timestamp' });
    if (!message.isEncrypted)
      errors.push({ field: `messages.${i}.isEncrypted`, message: 'must be true: the relay stores only ciphertext' });
    if (message.content.length === 0 || message.content.length > SYNC_PAGE.envelopeBytes)
      errors.push({ field: `messages.${i}.content`, message: `must be 1 to ${SYNC_PAGE.envelopeBytes} bytes` });
  });
  if (errors.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `Invalid sync request: ${errors[0]!.field} ${errors[0]!.message}`,
      errors,
    );
  }
}

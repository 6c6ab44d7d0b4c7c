/**
 * The books' sync group: made or joined through a household's relay, synced on demand and in the
 * background (docs/sync.md). The group's key is kept in the ledger file on this computer (the
 * relay never has it); the relay account's token with it.
 */
import { changeLogOf, markEverything } from '../../db/change-log.ts';
import type { LedgerDb, LedgerLease } from '../../db/stores.ts';
import type { CreateGroupInput, CreateInviteInput, JoinGroupInput, SyncStatusDto } from '../../contract/sync.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  checkKeyTest,
  keyFromPassphrase,
  keyFromRecoveryCode,
  makeKeyTest,
  newKeyId,
  newSalt,
  randomKey,
  recoveryCode,
} from '../../sync/crypto.ts';
import { sealedFromBase64, sealedToBase64 } from '../../sync/messages.ts';
import { RelayClient } from '../../sync/relay-client.ts';
import type { SyncGroup } from '../../sync/sync-client.ts';
import { syncLedger, thisDevice } from './ledger-store.ts';
import { AttachmentTransfer } from './attachment-transfer.ts';

/** What the ledger keeps of its group (sync_state.sync_group). */
interface StoredGroup {
  relay_url: string;
  relay_username: string;
  token: string;
  group_id: string;
  key_id: string;
  key: string;
  key_test: string;
}

interface SyncState {
  node: string;
  sync_group: string | null;
  since: string | null;
  last_sync_at: string | null;
  last_error: string | null;
}

/** How many waiting changes the status counts exactly; past it, "at least". */
const WAITING_COUNT_LIMIT = 10_000;

const INVITE_PREFIX = 'PLSYNC1.';

/** How a kept error says the relay did not answer (the status's relay_reachable). */
const UNREACHABLE_PREFIX = 'No answer from the relay: ';

function stateOf(db: LedgerDb): SyncState {
  thisDevice(db);
  return db.allSql<SyncState>(
    'SELECT node, sync_group, since, last_sync_at, last_error FROM sync_state WHERE id = 1',
  )[0]!;
}

function groupOf(state: SyncState): StoredGroup | null {
  return state.sync_group === null ? null : (JSON.parse(state.sync_group) as StoredGroup);
}

function requireGroup(db: LedgerDb): { state: SyncState; group: StoredGroup } {
  const state = stateOf(db);
  const group = groupOf(state);
  if (!group) throw new DomainError('SYNC_NOT_SET_UP', 'These books are in no sync group; create or join one first');
  return { state, group };
}

/** The relay's refusal of its own login is not this app's: a 401 here would sign the user out. */
async function atRelay<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'INVALID_CREDENTIALS' || error.code === 'NOT_AUTHENTICATED'))
      throw new DomainError('SYNC_RELAY_LOGIN', `The relay refused the login: ${error.message}`);
    throw error;
  }
}

async function signedIn(
  url: string,
  input: { relay_username: string; relay_password: string; register: boolean },
  fetcher?: typeof fetch,
): Promise<RelayClient> {
  const relay = new RelayClient(url, { fetch: fetcher, timeoutMs: 30_000 });
  await atRelay(() =>
    input.register
      ? relay.register(input.relay_username, input.relay_password)
      : relay.login(input.relay_username, input.relay_password),
  );
  return relay;
}

function readInvite(code: string): { relay_url: string; group_id: string; invite: string } {
  const bad = () =>
    new DomainError('SYNC_BAD_INVITE', 'This is not an invite code of a sync group', [
      { field: 'invite_code', message: 'not an invite code' },
    ]);
  const text = code.trim();
  if (!text.startsWith(INVITE_PREFIX)) throw bad();
  try {
    const value = JSON.parse(Buffer.from(text.slice(INVITE_PREFIX.length), 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { r, g, i } = value;
    if (typeof r !== 'string' || typeof g !== 'string' || typeof i !== 'string' || !/^https?:\/\//.test(r)) throw bad();
    return { relay_url: r, group_id: g, invite: i };
  } catch {
    throw bad();
  }
}

function syncGroupOf(group: StoredGroup): SyncGroup {
  return {
    groupId: group.group_id,
    keyId: group.key_id,
    key: Buffer.from(group.key, 'base64'),
    keyTest: sealedFromBase64(group.key_test),
  };
}

export interface SyncServiceOptions {
  /** A lease on a user's ledger, for the background sync. */
  lease: (userId: string) => Promise<LedgerLease>;
  /** The users whose books are in a group when the server starts. */
  members: () => string[];
  /** How often the books of a group sync in the background (ms); 0: never. */
  intervalMs: number;
  log: (line: string) => void;
  fetch?: typeof fetch;
  /** A user's attachments folder (`<data>/attachments/<user id>`): their files' bytes sync through it. */
  attachmentsDir?: (userId: string) => string;
}

export class SyncService {
  private readonly options: SyncServiceOptions;
  /** The users whose books are in a group: the background sync's round. */
  private readonly members = new Set<string>();
  /** One sync per user at a time: a second asks wait for the first. */
  private readonly running = new Map<string, Promise<{ sent: number; received: number }>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(options: SyncServiceOptions) {
    this.options = options;
  }

  status(db: LedgerDb): SyncStatusDto {
    const state = stateOf(db);
    const group = groupOf(state);
    const since = state.since ?? '';
    const [{ waiting }] = db.allSql<{ waiting: bigint }>(
      'SELECT COUNT(*) AS waiting FROM (SELECT 1 FROM change_log WHERE node = ? AND timestamp > ? LIMIT ?)',
      state.node,
      since,
      WAITING_COUNT_LIMIT,
    ) as [{ waiting: bigint }];
    return {
      in_group: group !== null,
      relay_url: group?.relay_url ?? null,
      group_id: group?.group_id ?? null,
      device: state.node,
      last_sync_at: state.last_sync_at,
      last_error: state.last_error,
      relay_reachable:
        state.last_sync_at === null && state.last_error === null
          ? null
          : !(state.last_error ?? '').startsWith(UNREACHABLE_PREFIX),
      changes_waiting: group === null ? 0 : Number(waiting),
    };
  }

  async createGroup(
    userId: string,
    db: LedgerDb,
    input: CreateGroupInput,
  ): Promise<{ status: SyncStatusDto; recovery_code: string | null }> {
    if (groupOf(stateOf(db)))
      throw new DomainError('SYNC_ALREADY_SET_UP', 'These books are in a sync group already; leave it first');
    const relay = await signedIn(input.relay_url, input, this.options.fetch);
    const salt = newSalt();
    const key = input.passphrase === undefined ? randomKey() : await keyFromPassphrase(input.passphrase, salt);
    const keyId = newKeyId();
    const keyTest = makeKeyTest({ keyId, key });
    const made = await atRelay(() => relay.createGroup({ salt, keyId, keyTest }));
    this.keep(db, {
      relay_url: relay.url,
      relay_username: input.relay_username,
      token: relay.token!,
      group_id: made.id,
      key_id: keyId,
      key: key.toString('base64'),
      key_test: sealedToBase64(made.keyTest),
    });
    // The books so far go to the group as this device's changes.
    db.transaction(() => markEverything(db));
    this.members.add(userId);
    await this.syncNow(userId, db).catch(() => undefined);
    return { status: this.status(db), recovery_code: input.passphrase === undefined ? recoveryCode(key) : null };
  }

  async join(userId: string, db: LedgerDb, input: JoinGroupInput): Promise<SyncStatusDto> {
    if (groupOf(stateOf(db)))
      throw new DomainError('SYNC_ALREADY_SET_UP', 'These books are in a sync group already; leave it first');
    const invite = readInvite(input.invite_code);
    const key0 = input.recovery_code === undefined ? null : keyFromRecoveryCode(input.recovery_code);
    if (db.existsSql('SELECT 1 FROM accounts LIMIT 1') || db.existsSql('SELECT 1 FROM journal_entries LIMIT 1'))
      throw new DomainError(
        'SYNC_LEDGER_NOT_EMPTY',
        "Join a group with empty books: these books have accounts or entries, which would be merged into the group's",
      );
    const relay = await signedIn(invite.relay_url, input, this.options.fetch);
    const group = await atRelay(() => relay.join(invite.group_id, invite.invite));
    const key = key0 ?? (await keyFromPassphrase(input.passphrase!, group.salt));
    checkKeyTest({ keyId: group.keyId, key }, group.keyTest);
    this.keep(db, {
      relay_url: relay.url,
      relay_username: input.relay_username,
      token: relay.token!,
      group_id: group.id,
      key_id: group.keyId,
      key: key.toString('base64'),
      key_test: sealedToBase64(group.keyTest),
    });
    this.members.add(userId);
    await this.syncNow(userId, db).catch(() => undefined);
    return this.status(db);
  }

  async invite(
    db: LedgerDb,
    input: CreateInviteInput,
  ): Promise<{ invite_code: string; expires_at: string; uses: number }> {
    const { group } = requireGroup(db);
    const relay = new RelayClient(group.relay_url, {
      token: group.token,
      fetch: this.options.fetch,
      timeoutMs: 30_000,
    });
    const made = await atRelay(() =>
      relay.invite(group.group_id, { expiresInHours: input.expires_in_hours, uses: input.uses }),
    );
    const code = Buffer.from(JSON.stringify({ r: group.relay_url, g: group.group_id, i: made.invite })).toString(
      'base64url',
    );
    return { invite_code: INVITE_PREFIX + code, expires_at: made.expires_at, uses: made.uses };
  }

  async leave(userId: string, db: LedgerDb): Promise<void> {
    const { group } = requireGroup(db);
    await this.running.get(userId)?.catch(() => undefined);
    const relay = new RelayClient(group.relay_url, {
      token: group.token,
      fetch: this.options.fetch,
      timeoutMs: 30_000,
    });
    // Leaving works offline too: the relay forgets the member when it next hears (or never, harmlessly).
    await relay.leave(group.group_id).catch(() => undefined);
    db.transaction(() =>
      db.runSql('UPDATE sync_state SET sync_group = NULL, since = NULL, last_error = NULL WHERE id = 1'),
    );
    this.members.delete(userId);
  }

  /** Syncs the books now (waits for one already running); the outcome is kept for the status. */
  syncNow(userId: string, db: LedgerDb): Promise<{ sent: number; received: number }> {
    const already = this.running.get(userId);
    if (already) return already;
    const run = this.runSync(db, userId).finally(() => this.running.delete(userId));
    this.running.set(userId, run);
    return run;
  }

  private async runSync(db: LedgerDb, userId: string): Promise<{ sent: number; received: number }> {
    const { state, group } = requireGroup(db);
    const relay = new RelayClient(group.relay_url, {
      token: group.token,
      fetch: this.options.fetch,
      timeoutMs: 60_000,
    });
    try {
      const dir = this.options.attachmentsDir?.(userId);
      const files = dir === undefined ? undefined : new AttachmentTransfer(dir);
      const result = await atRelay(() => syncLedger(db, relay.transport(), syncGroupOf(group), state.since, files));
      db.transaction(() =>
        db.runSql(
          'UPDATE sync_state SET since = ?, last_sync_at = ?, last_error = NULL WHERE id = 1',
          result.since,
          new Date().toISOString(),
        ),
      );
      return { sent: result.sent, received: result.received };
    } catch (error) {
      const why =
        error instanceof DomainError
          ? `${error.code === 'SYNC_RELAY_UNREACHABLE' ? UNREACHABLE_PREFIX : ''}${error.message}`
          : 'The sync failed';
      if (db.sqlite.open) db.transaction(() => db.runSql('UPDATE sync_state SET last_error = ? WHERE id = 1', why));
      throw error;
    }
  }

  private keep(db: LedgerDb, group: StoredGroup): void {
    db.transaction(() => {
      changeLogOf(db).node();
      db.runSql(
        'UPDATE sync_state SET sync_group = ?, since = NULL, last_sync_at = NULL, last_error = NULL WHERE id = 1',
        JSON.stringify(group),
      );
    });
  }

  /** Finds the users whose books are in a group, then syncs them every `intervalMs`. */
  start(): void {
    if (this.options.intervalMs <= 0) return;
    for (const userId of this.options.members()) this.members.add(userId);
    if (this.stopped) return;
    this.timer = setInterval(() => void this.round(), this.options.intervalMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    for (const userId of [...this.members]) {
      if (this.stopped) return;
      if (this.running.has(userId)) continue;
      const lease = await this.options.lease(userId).catch(() => undefined);
      if (!lease) continue;
      try {
        await this.syncNow(userId, lease.db);
      } catch {
        // kept as the status's last_error; the next round tries again
      } finally {
        lease.release();
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }
}

/**
 * One sync of a ledger with its group's relay, as Actual's client does it:
 *
 * 1. Send the ledger's messages after `since` (encrypted) and ask for the group's after `since`
 *    that do not come from this node.
 * 2. Check every answered envelope (authentic under the group key, well formed) before any is
 *    applied; move the ledger clock past each timestamp; apply them through the ledger.
 * 3. A page full on either side: go on from where both sides are complete.
 * 4. Otherwise compare the relay's merkle trie with the ledger's. The same: done, and the next
 *    sync asks from the ledger clock's latest time (both sides hold everything up to it). Different: the
 *    earliest minute they differ at is where to exchange again, every node's envelopes included
 *    (this device's own, which a restored ledger may lack); a bounded number of times.
 *
 * The ledger side is the `SyncStore` (the change log, written in the same transaction as every
 * local write, and the apply step, through the same path as a local write); the network is the
 * `SyncTransport`. Neither is known here.
 */
import { DomainError } from '../domain/errors.ts';
import { merkleDiff, parseTimestamp, readMerkle, timestampAt, type LedgerClock } from './clock.ts';
import { crashPoint } from './crash-point.ts';
import { checkKeyTest, type GroupKey, type Sealed } from './crypto.ts';
import {
  SYNC_PAGE,
  decodeSyncResponse,
  decryptEnvelope,
  encodeSyncRequest,
  encryptMessage,
  firstPage,
  isFullPage,
  type SyncMessage,
} from './messages.ts';

/** What the sync needs of a ledger. */
export interface SyncStore {
  /** The ledger's clock; the sync moves it past every timestamp it receives, before `apply`. */
  readonly clock: LedgerClock;
  /**
   * The messages of the ledger's change log with timestamps after `since`, oldest first, at most
   * `limit`: its own and those it received (so that a relay that lost some gets them back).
   */
  pending(since: string, limit: number): SyncMessage[] | Promise<SyncMessage[]>;
  /**
   * Applies received messages, in one transaction: each whose timestamp the log does not hold yet
   * is added to the log and to the clock's trie (`clock.track`, once per timestamp), and takes
   * effect when it is the latest for its (dataset, row); those the log holds already change
   * nothing. The clock is saved in the same transaction.
   */
  apply(messages: SyncMessage[]): void | Promise<void>;
}

/** Posts a protobuf SyncRequest to the relay and answers its SyncResponse bytes (errors as DomainErrors). */
export type SyncTransport = (request: Uint8Array) => Promise<Uint8Array>;

export interface SyncGroup extends GroupKey {
  groupId: string;
  /** The group's key test as the relay keeps it: checked before anything is applied. */
  keyTest: Sealed;
}

export interface SyncLimits {
  /** Rounds from a merkle difference at most in one sync (Actual: about 10). */
  diffRounds: number;
  /** Requests at most in one sync; a first sync of N messages takes about N / 1000. */
  requests: number;
}

const SYNC_LIMITS: SyncLimits = { diffRounds: 10, requests: 10_000 };

export interface SyncResult {
  /**
   * The `since` of the next sync: the ledger clock's latest time when the ledger and the relay were
   * found to hold the same messages (a ledger's later messages, its own or received, are later still).
   */
  since: string;
  sent: number;
  received: number;
  requests: number;
}

/** The last timestamp of a non-empty list. */
function lastOf(list: readonly { timestamp: string }[]): string {
  return list[list.length - 1]!.timestamp;
}

export async function syncOnce(options: {
  store: SyncStore;
  transport: SyncTransport;
  group: SyncGroup;
  /** The `since` the last sync answered, or null before the first. */
  since: string | null;
  limits?: Partial<SyncLimits>;
}): Promise<SyncResult> {
  const { store, transport, group } = options;
  const limits = { ...SYNC_LIMITS, ...options.limits };
  checkKeyTest(group, group.keyTest);
  let cursor = options.since ?? timestampAt(0);
  let ownLeftOut = true;
  let diffRounds = 0;
  const result = { since: options.since ?? timestampAt(0), sent: 0, received: 0, requests: 0 };
  for (;;) {
    if (result.requests >= limits.requests) {
      throw new DomainError('SYNC_OUT_OF_SYNC', `The sync did not finish in ${limits.requests} requests; try again`);
    }
    const pending = await store.pending(cursor, SYNC_PAGE.messages);
    const outgoing = firstPage(pending.map((message) => encryptMessage(group, message)));
    const request = encodeSyncRequest({
      groupId: group.groupId,
      keyId: group.keyId,
      since: cursor,
      node: ownLeftOut ? store.clock.node : '',
      messages: outgoing,
    });
    const response = decodeSyncResponse(await transport(request));
    crashPoint('sync-answered');
    result.requests += 1;
    const relayTrie = readMerkle(response.merkle);
    if (relayTrie === null)
      throw new DomainError('SYNC_BAD_ANSWER', 'The relay answered a merkle trie that is not one');
    // Every envelope is checked before any is applied: one that fails refuses the whole answer.
    const incoming = response.messages.map((envelope) => decryptEnvelope(group, envelope));
    for (const message of incoming) store.clock.recv(parseTimestamp(message.timestamp)!);
    if (incoming.length > 0) {
      await store.apply(incoming);
      crashPoint('sync-page-applied');
    }
    result.sent += outgoing.length;
    result.received += incoming.length;

    const oursLeft = outgoing.length < pending.length || pending.length >= SYNC_PAGE.messages;
    const theirsLeft = isFullPage(response.messages);
    if (oursLeft || theirsLeft) {
      // Everything up to the earlier of the two pages' ends has been exchanged both ways.
      const ends = [...(oursLeft ? [lastOf(outgoing)] : []), ...(theirsLeft ? [lastOf(incoming)] : [])];
      cursor = ends.reduce((a, b) => (a < b ? a : b));
      continue;
    }
    const clock = store.clock;
    const diff = merkleDiff(clock.merkle, relayTrie);
    // The same messages on both sides: everything up to the clock's latest time is on the relay and here.
    if (diff === null) return { ...result, since: clock.latest };
    diffRounds += 1;
    if (diffRounds > limits.diffRounds) {
      throw new DomainError(
        'SYNC_OUT_OF_SYNC',
        `This ledger and the relay still differ after ${limits.diffRounds} rounds; try again later`,
      );
    }
    cursor = timestampAt(diff);
    ownLeftOut = false;
  }
}

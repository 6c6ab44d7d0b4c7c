/**
 * Each ledger's own hybrid logical clock over @actual-app/crdt.
 *
 * The package keeps one clock for the whole module (`setClock`/`getClock`), which `Timestamp.send`
 * and `Timestamp.recv` move. The server holds many users' ledgers at once, so every ledger keeps its
 * own `Clock` and every send or recv runs inside `withClock`, which puts that clock in place, runs a
 * synchronous function and puts the previous one back. Nothing awaits in between, so no other
 * ledger's work can run while the module's clock is borrowed.
 */
import {
  Timestamp,
  deserializeClock,
  getClock,
  makeClientId,
  makeClock,
  merkle,
  serializeClock,
  setClock,
  type Clock,
} from '@actual-app/crdt';
import { DomainError } from '../domain/errors.ts';

/** The merkle trie of the timestamps a ledger holds (minute keys in base 3, each node the XOR of the hashes below). */
export type MerkleTrie = Clock['merkle'];

/** A node id: 16 hexadecimal digits, one per device and ledger (the last field of its timestamps). */
export const NODE_PATTERN = /^[0-9A-Fa-f]{16}$/;

/** A timestamp as the package writes it: `2026-11-28T12:00:00.000Z-0000-0123456789ABCDEF`. */
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z-[0-9A-F]{4}-[0-9A-Fa-f]{16}$/;

/** Reads a timestamp written as TIMESTAMP_PATTERN says, or answers null. */
export function parseTimestamp(text: string): Timestamp | null {
  if (!TIMESTAMP_PATTERN.test(text)) return null;
  const timestamp = Timestamp.parse(text);
  // Date.parse accepts 2026-02-31; a timestamp must write back exactly as it was read.
  return timestamp !== null && timestamp.toString() === text ? timestamp : null;
}

/**
 * Runs `fn` with `clock` as the package's module clock and restores the one before. `fn` must be
 * synchronous: a promise would let another ledger's work run while this clock is in place.
 */
export function withClock<T>(clock: Clock, fn: () => T): T {
  const previous = getClock();
  setClock(clock);
  try {
    const result = fn();
    if (result !== null && typeof (result as { then?: unknown })?.then === 'function') {
      throw new Error('withClock runs synchronous work only: nothing may await while a ledger clock is in place');
    }
    return result;
  } finally {
    setClock(previous);
  }
}

/** The package's drift error said as the sync's own error. */
function clockError(error: unknown): never {
  if (error instanceof Timestamp.ClockDriftError) {
    throw new DomainError(
      'SYNC_CLOCK_DRIFT',
      "A change from another device is dated more than 5 minutes ahead of this computer's clock; check both clocks",
    );
  }
  if (error instanceof Timestamp.OverflowError) {
    throw new DomainError('SYNC_CLOCK_OVERFLOW', 'Too many changes in one millisecond; try again');
  }
  throw error;
}

/**
 * One ledger's clock: the latest timestamp it has issued or received, and the merkle trie of every
 * timestamp in its change log. The ledger persists it (`serialize`) in the same transaction as the
 * changes that moved it.
 */
export class LedgerClock {
  private readonly clock: Clock;

  private constructor(clock: Clock) {
    this.clock = clock;
  }

  /** A new clock for a ledger on this device (a fresh node id unless one is given). */
  static create(node: string = makeClientId()): LedgerClock {
    if (!NODE_PATTERN.test(node)) throw new Error(`a node id is 16 hexadecimal digits, not "${node}"`);
    return new LedgerClock(makeClock(new Timestamp(0, 0, node), merkle.emptyTrie()));
  }

  /** A clock as `serialize` wrote it. */
  static deserialize(text: string): LedgerClock {
    const clock = deserializeClock(text);
    if (!NODE_PATTERN.test(clock.timestamp.node())) throw new Error('the stored clock has no valid node id');
    return new LedgerClock(clock);
  }

  /**
   * A ledger's clock as its change log leaves it: its node, past `latest` (the log's latest
   * timestamp, of any node; null for an empty log), with the trie given.
   */
  static resume(node: string, latest: string | null, trie: MerkleTrie): LedgerClock {
    const clock = LedgerClock.create(node);
    const last = latest === null ? null : parseTimestamp(latest);
    if (last !== null) clock.clock.timestamp = makeClock(new Timestamp(last.millis(), last.counter(), node)).timestamp;
    clock.clock.merkle = trie;
    return clock;
  }

  serialize(): string {
    return serializeClock(this.clock);
  }

  /** This device's node id for this ledger: the last 16 characters of every timestamp it issues. */
  get node(): string {
    return this.clock.timestamp.node();
  }

  /** The latest timestamp issued or received. */
  get latest(): string {
    return this.clock.timestamp.toString();
  }

  get merkle(): MerkleTrie {
    return this.clock.merkle;
  }

  /** The timestamp of a local change: later than every timestamp this clock has issued or received. */
  send(): Timestamp {
    try {
      return withClock(this.clock, () => Timestamp.send()!);
    } catch (error) {
      clockError(error);
    }
  }

  /** Moves the clock past a timestamp received from another device (SYNC_CLOCK_DRIFT when it is far ahead). */
  recv(timestamp: Timestamp): void {
    try {
      withClock(this.clock, () => Timestamp.recv(timestamp));
    } catch (error) {
      clockError(error);
    }
  }

  /**
   * Adds a timestamp newly written to the ledger's change log to the trie. Once per timestamp: the
   * trie XORs hashes, so a second insert of the same timestamp takes it out again.
   */
  track(timestamp: Timestamp): void {
    this.clock.merkle = merkle.prune(merkle.insert(this.clock.merkle, timestamp));
  }
}

/**
 * The earliest time (ms) at which two tries differ, or null when they hold the same timestamps.
 * The relay's trie comes from the network: `readMerkle` checks it first.
 */
export function merkleDiff(ours: MerkleTrie, theirs: MerkleTrie): number | null {
  // An empty trie may be written `{}` or `{"hash":0}`; the package tells them apart.
  if ((ours.hash ?? 0) === (theirs.hash ?? 0)) return null;
  return merkle.diff(theirs, ours);
}

/** A trie's greatest depth: one level per base-3 digit of a minute number. */
const MERKLE_DEPTH = 16;

/**
 * A merkle trie read from JSON that another machine wrote: refused (null) unless it is an object
 * of nodes `{ hash?: integer, "0"?, "1"?, "2"? }` at most 16 deep. Walked with a stack, never
 * recursively, so no input can run it out of stack.
 */
export function readMerkle(json: string): MerkleTrie | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node) || depth > MERKLE_DEPTH) return null;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'hash') {
        if (!Number.isSafeInteger(child)) return null;
      } else if (key === '0' || key === '1' || key === '2') stack.push([child, depth + 1]);
      else return null;
    }
  }
  return value as MerkleTrie;
}

/** The smallest timestamp at a time (ms): `since` that many milliseconds, every node included. */
export function timestampAt(millis: number): string {
  return new Timestamp(millis, 0, '0').toString();
}

/** The trie of no timestamps. */
export function emptyTrie(): MerkleTrie {
  return merkle.emptyTrie();
}

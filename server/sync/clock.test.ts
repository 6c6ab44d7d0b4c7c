import { Timestamp, getClock, merkle } from '@actual-app/crdt';
import { describe, expect, it } from 'vitest';
import { LedgerClock, merkleDiff, parseTimestamp, readMerkle, timestampAt, withClock } from './clock.ts';

describe('LedgerClock', () => {
  it('when two ledgers send and receive interleaved, then each keeps its own node and its own increasing order', () => {
    const a = LedgerClock.create('aaaaaaaaaaaaaaaa');
    const b = LedgerClock.create('bbbbbbbbbbbbbbbb');
    const fromA: string[] = [];
    const fromB: string[] = [];
    for (let i = 0; i < 200; i++) {
      if (i % 3 === 0) fromB.push(b.send().toString());
      fromA.push(a.send().toString());
      if (i % 7 === 0) fromB.push(b.send().toString());
    }
    expect(fromA.every((t) => t.endsWith('aaaaaaaaaaaaaaaa'))).toBe(true);
    expect(fromB.every((t) => t.endsWith('bbbbbbbbbbbbbbbb'))).toBe(true);
    for (const list of [fromA, fromB]) {
      for (let i = 1; i < list.length; i++) expect(list[i]! > list[i - 1]!).toBe(true);
    }
    // the package's module clock is left as it was found
    expect(getClock()).toBeUndefined();
  });

  it('when one ledger receives a later timestamp, then only that ledger moves past it', () => {
    const a = LedgerClock.create('aaaaaaaaaaaaaaaa');
    const b = LedgerClock.create('bbbbbbbbbbbbbbbb');
    const ahead = new Timestamp(Date.now() + 60_000, 5, 'cccccccccccccccc');
    a.recv(ahead);
    const afterA = a.send().toString();
    const afterB = b.send().toString();
    expect(afterA > ahead.toString()).toBe(true);
    expect(afterB < ahead.toString()).toBe(true);
    expect(b.latest).toBe(afterB);
  });

  it('when a received timestamp is far ahead of this clock, then it is refused as SYNC_CLOCK_DRIFT and the clock stays', () => {
    const a = LedgerClock.create('aaaaaaaaaaaaaaaa');
    const before = a.send().toString();
    expect(() => a.recv(new Timestamp(Date.now() + 3_600_000, 0, 'cccccccccccccccc'))).toThrow(
      expect.objectContaining({ code: 'SYNC_CLOCK_DRIFT' }),
    );
    expect(a.latest).toBe(before);
  });

  it('when a clock is serialized and read back, then it goes on from the same time, node and trie', () => {
    const a = LedgerClock.create();
    const sent = a.send();
    a.track(sent);
    const copy = LedgerClock.deserialize(a.serialize());
    expect(copy.node).toBe(a.node);
    expect(copy.latest).toBe(sent.toString());
    expect(merkleDiff(copy.merkle, a.merkle)).toBeNull();
    expect(copy.send().toString() > sent.toString()).toBe(true);
  });

  it('when two ledgers track different timestamps, then their tries differ from the earliest one the other lacks', () => {
    const a = LedgerClock.create('aaaaaaaaaaaaaaaa');
    const b = LedgerClock.create('bbbbbbbbbbbbbbbb');
    const shared = new Timestamp(Date.UTC(2026, 0, 1, 10, 0), 0, 'cccccccccccccccc');
    const onlyA = new Timestamp(Date.UTC(2026, 0, 1, 12, 30), 0, 'aaaaaaaaaaaaaaaa');
    a.track(shared);
    b.track(shared);
    expect(merkleDiff(a.merkle, b.merkle)).toBeNull();
    a.track(onlyA);
    const diff = merkleDiff(a.merkle, b.merkle);
    expect(diff).not.toBeNull();
    expect(diff!).toBeLessThanOrEqual(onlyA.millis());
    b.track(onlyA);
    expect(merkleDiff(a.merkle, b.merkle)).toBeNull();
  });

  it('when one trie is empty as `{}` and the other as the package makes it, then they do not differ', () => {
    expect(merkleDiff(LedgerClock.create().merkle, {})).toBeNull();
  });

  it('when a clock is made from a malformed node id, then it is refused', () => {
    expect(() => LedgerClock.create('not-a-node')).toThrow(/16 hexadecimal/);
  });
});

describe('withClock', () => {
  it('when the work returns a promise, then it is refused and the previous clock is back', () => {
    const a = LedgerClock.create();
    expect(() => withClock(JSON.parse(a.serialize()), () => Promise.resolve(1))).toThrow(/synchronous/);
    expect(getClock()).toBeUndefined();
  });

  it('when the work throws, then the previous clock is back', () => {
    const outer = { timestamp: Timestamp.zero, merkle: {} } as unknown as Parameters<typeof withClock>[0];
    const inner = { timestamp: Timestamp.zero, merkle: {} } as unknown as Parameters<typeof withClock>[0];
    withClock(outer, () => {
      expect(() =>
        withClock(inner, () => {
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(getClock()).toBe(outer);
    });
  });
});

describe('timestamps and tries from the network', () => {
  it('when a timestamp is well formed, then it reads back to the same text; otherwise null', () => {
    const text = '2026-11-28T12:00:00.000Z-0000-0123456789ABCDEF';
    expect(parseTimestamp(text)?.toString()).toBe(text);
    expect(parseTimestamp('2026-02-31T12:00:00.000Z-0000-0123456789ABCDEF')).toBeNull();
    expect(parseTimestamp('2026-11-28T12:00:00.000Z-0000-0123')).toBeNull();
    expect(parseTimestamp('x')).toBeNull();
    expect(timestampAt(0)).toBe('1970-01-01T00:00:00.000Z-0000-0000000000000000');
  });

  it('when a trie is deeper than 16 levels or holds foreign keys, then it is refused', () => {
    const trie = merkle.insert(merkle.emptyTrie(), new Timestamp(Date.UTC(2026, 0, 1), 0, 'aaaaaaaaaaaaaaaa'));
    expect(readMerkle(JSON.stringify(trie))).toEqual(trie);
    let deep: Record<string, unknown> = { hash: 1 };
    for (let i = 0; i < 17; i++) deep = { '0': deep, hash: 1 };
    expect(readMerkle(JSON.stringify(deep))).toBeNull();
    expect(readMerkle('{"hash":1,"3":{}}')).toBeNull();
    expect(readMerkle('{"hash":"1"}')).toBeNull();
    expect(readMerkle('[1]')).toBeNull();
    expect(readMerkle('{')).toBeNull();
  });
});

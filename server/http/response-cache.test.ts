import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.ts';
import type { VersionedLedger } from './route.ts';

/** A ledger whose change version the test sets. */
function ledgerAt(version: { now: string }): VersionedLedger {
  return { changeVersion: () => version.now };
}

describe('ResponseCache bounds', () => {
  it('when a ledger’s kept answers pass 4 MB, then the least recently used go first, and a fresh read keeps one', () => {
    const ledger = ledgerAt({ now: 'v1' });
    const cache = new ResponseCache();
    const keys = Array.from({ length: 10 }, (_, i) => `page${i}`);
    // ten answers of 400 KB: 4,000 KB, all kept
    for (const key of keys) cache.set(ledger, key, 'v1', Buffer.alloc(400 * 1024));
    for (const key of keys) expect(cache.get(ledger, key), key).toBeDefined();
    // read page0 again: page1 is now the least recently used
    expect(cache.get(ledger, 'page0')).toBeDefined();
    cache.set(ledger, 'page10', 'v1', Buffer.alloc(400 * 1024));
    expect(cache.get(ledger, 'page1')).toBeUndefined();
    for (const key of [...keys.filter((k) => k !== 'page1'), 'page10'])
      expect(cache.get(ledger, key), key).toBeDefined();
  });

  it('when a ledger has 256 answers kept, then one more lets the oldest go; each ledger has its own', () => {
    const ledger = ledgerAt({ now: 'v1' });
    const other = ledgerAt({ now: 'v1' });
    const cache = new ResponseCache();
    cache.set(other, 'k0', 'v1', Buffer.from('{}'));
    for (let i = 0; i <= 256; i++) cache.set(ledger, `k${i}`, 'v1', Buffer.from('{}'));
    expect(cache.get(ledger, 'k0')).toBeUndefined();
    expect(cache.get(ledger, 'k1')).toBeDefined();
    expect(cache.get(other, 'k0')).toBeDefined();
  });

  it('when the ledger has changed, or an answer is over 512 KB, then nothing is given', () => {
    const version = { now: 'v1' };
    const ledger = ledgerAt(version);
    const cache = new ResponseCache();
    cache.set(ledger, 'page', 'v1', Buffer.from('{"items":[]}'));
    cache.set(ledger, 'huge', 'v1', Buffer.alloc(512 * 1024 + 1));
    expect(cache.get(ledger, 'huge')).toBeUndefined();
    expect(cache.get(ledger, 'page')?.toString()).toBe('{"items":[]}');
    version.now = 'v2';
    expect(cache.get(ledger, 'page')).toBeUndefined();
  });
});

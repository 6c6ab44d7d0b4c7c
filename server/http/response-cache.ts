import type { VersionedLedger } from './route.ts';

interface Kept {
  version: string;
  /** the JSON answer as sent: bytes, so that giving it again encodes nothing */
  body: Buffer;
}

const MAX_ENTRIES = 256;
const MAX_BODY_BYTES = 512 * 1024;
/** per ledger: a screen's answer is 10–40 KB (a register page of 50 rows ~30 KB), so ~100–400 of them */
const MAX_TOTAL_BYTES = 4 * 1024 * 1024;

/**
 * The JSON answers of a ledger's pure reads (balances, reports, register pages: routes marked
 * `cacheable`), kept per ledger and per request URL and day, and given again while the ledger's
 * change version is the same (SqliteDb.changeVersion: nothing committed by any connection, no
 * row written by this one). A screen that refreshes, a second window or the advisor's tools asking
 * the same question get the answer without recomputing it. Bounded (least recently used out).
 */
export class ResponseCache {
  private readonly byLedger = new WeakMap<VersionedLedger, Map<string, Kept>>();
  private readonly sizes = new WeakMap<Map<string, Kept>, { bytes: number }>();

  get(ledger: VersionedLedger, key: string): Buffer | undefined {
    const kept = this.byLedger.get(ledger);
    const hit = kept?.get(key);
    if (!kept || !hit) return undefined;
    if (hit.version !== ledger.changeVersion()) return undefined;
    // most recently used last
    kept.delete(key);
    kept.set(key, hit);
    return hit.body;
  }

  set(ledger: VersionedLedger, key: string, version: string, body: Buffer): void {
    if (body.length > MAX_BODY_BYTES) return;
    let kept = this.byLedger.get(ledger);
    if (!kept) {
      kept = new Map();
      this.byLedger.set(ledger, kept);
      this.sizes.set(kept, { bytes: 0 });
    }
    const size = this.sizes.get(kept)!;
    const old = kept.get(key);
    if (old) size.bytes -= old.body.length;
    kept.delete(key);
    kept.set(key, { version, body });
    size.bytes += body.length;
    for (const [oldest, entry] of kept) {
      if (kept.size <= MAX_ENTRIES && size.bytes <= MAX_TOTAL_BYTES) break;
      kept.delete(oldest);
      size.bytes -= entry.body.length;
    }
  }
}

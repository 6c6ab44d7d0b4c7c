import crypto from 'node:crypto';

/**
 * A new row's id: a UUID version 7, which begins with the millisecond it was made (RFC 9562), the
 * rest random. Each new row's key then goes at the end of its table's id index, on a page the last
 * rows already changed, where a random id (version 4) lands on any page of the index: one page more
 * for each commit to write, in every index keyed by an id. Made from Node's version 4 UUID (from a
 * pool of random bytes) with its first 48 bits replaced by the time and its version digit by 7:
 * half a microsecond an id, a sixth of the uuid package's v7, which counts in a million-entry
 * import. Ids made in the same millisecond sort among themselves at random.
 */
export function newRowId(): string {
  const random = crypto.randomUUID();
  const now = Date.now();
  if (now !== prefixMs) {
    const time = now.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8)}-7`;
    prefixMs = now;
  }
  return prefix + random.slice(15);
}

/** The time part of the last id, kept for the ids made in the same millisecond. */
let prefixMs = -1;
let prefix = '';

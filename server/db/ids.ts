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

/**
 * The id of the entry a schedule's occurrence books: a UUID of version 8 (RFC 9562, custom) made
 * from a SHA-256 of the schedule's id and the date, so that every device that books the same
 * occurrence makes the same entry, and two bookings of it merge into one.
 */
export function occurrenceEntryId(scheduleId: string, date: string): string {
  const hex = crypto.createHash('sha256').update(`schedule-occurrence\n${scheduleId}\n${date}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

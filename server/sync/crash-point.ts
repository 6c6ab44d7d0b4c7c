/**
 * Test-only kill points of the sync: a process whose environment holds
 * `LEDGER_TEST_SIGKILL_AT=<point>:<n>` kills itself with SIGKILL the n-th time its work reaches
 * `<point>`, so that the crash tests (test/hardening/sync-crash.test.ts) kill a replica or the relay
 * at a point reached by work, never after a time. Only those tests set the variable; unset, each
 * point costs one comparison.
 */

/** Where the sync's work can be cut short. */
export type CrashPoint =
  /** A replica applied one more received message, inside the apply's transaction. */
  | 'apply-message'
  /** A replica has the relay's answer to a sync request (the relay stored what it sent), nothing applied yet. */
  | 'sync-answered'
  /** A replica committed the messages of one answer; the sync goes on. */
  | 'sync-page-applied'
  /** A replica finished the exchange; its trie and the next sync's `since` are not kept yet. */
  | 'sync-exchanged'
  /** The relay stored one more envelope of a request, inside the request's transaction. */
  | 'relay-envelope-stored'
  /** The relay committed a sync request's envelopes and has not answered it yet. */
  | 'relay-committed';

function armedPoint(setting: string | undefined): { point: string; at: number } | null {
  const match = /^([a-z-]+):(\d+)$/.exec(setting ?? '');
  return match ? { point: match[1]!, at: Number(match[2]) } : null;
}

const armed = armedPoint(process.env.LEDGER_TEST_SIGKILL_AT);
let reached = 0;

/** Counts a pass through `point`; the armed count's pass kills this process at once. */
export function crashPoint(point: CrashPoint): void {
  if (armed === null || armed.point !== point) return;
  reached += 1;
  if (reached === armed.at) process.kill(process.pid, 'SIGKILL');
}

/**
 * The reads of reconciling: reconcile-status of the checking account from the cleared day totals,
 * beside the raw recount from its lines that those totals replace; and the unmatched list (bank
 * lines and entries, from maintained counts), first and a deep page, with bench/probe.ts asking
 * the server meanwhile.
 *
 *   node bench/reconcile.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 *
 * bench/reconcile-status.ts measures reconcile-status alone on an account of a million lines.
 */
import Database from 'better-sqlite3';
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { Random } from './lib/random.ts';
import { besideRaw } from './lib/results.ts';
import { rawTimed, summarize, timed, timeEach } from './lib/stats.ts';

/** Two lines in three of the checking account ticked cleared straight in the file; returns its line count. */
function clearTwoInThree(bench: Bench): number {
  const writer = new Database(bench.ledgerFile);
  writer.pragma('busy_timeout = 10000');
  const { checking } = bench.ids;
  const lines = (
    writer.prepare('SELECT COUNT(*) AS n FROM journal_lines WHERE account_id = ?').get(checking) as { n: number }
  ).n;
  writer
    .prepare(
      "UPDATE journal_lines SET cleared = 'cleared' WHERE account_id = ? AND cleared = 'uncleared' AND rowid % 3 <> 0",
    )
    .run(checking);
  writer.close();
  return lines;
}

/** reconcile-status of the account with the most lines, after ticking two lines in three cleared. */
async function reconcileStatus(bench: Bench): Promise<void> {
  const { client, counts, ids, ledgerFile } = bench;
  await bench.attempt('reconcile_status', 'reconcile-status of the checking account, any date', 'ms', async () => {
    const lines = clearTwoInThree(bench);
    const random = new Random('reconcile');
    const dates = Array.from(
      { length: counts.read + 5 },
      () => `${random.int(2020, 2025)}-${String(random.int(1, 12)).padStart(2, '0')}-28`,
    );
    // a new balance each time: no kept answer is given again
    const api = await timed(
      client,
      counts.read,
      (i) => `/api/accounts/${ids.checking}/reconcile?statement_date=${dates[i]}&statement_balance=${i}.00`,
    );
    const raw = new Database(ledgerFile, { readonly: true });
    const recount = raw.prepare(
      `SELECT SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net, SUM(l.cleared = 'uncleared') AS u
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = ? AND l.entry_date <= ? AND e.status = 'posted' AND e.reverses_entry_id IS NULL`,
    );
    const rawS = rawTimed(Math.min(counts.read, 20), (i) => recount.get(ids.checking, dates[i]!));
    raw.close();
    return {
      ...besideRaw(api, 'recount from the lines', rawS, { text: 'p50 ≤ 2 ms', stat: 'p50', atMost: 2 }),
      note: `${lines} lines on the account, two in three cleared`,
    };
  });
}

/** The unmatched list, first and a deep page, 5 reads each with the probe. */
async function unmatchedLists(bench: Bench): Promise<void> {
  const { client } = bench;
  for (const [id, label, pageOf] of [
    ['unmatched_first', 'unmatched list (bank lines and entries), first page', () => 1],
    ['unmatched_deep', 'unmatched list, a deep page', (total: number) => Math.max(1, Math.floor((total / 50) * 0.9))],
  ] as const) {
    await bench.attempt(id, label, 'ms', async () => {
      const total = (await client.json('GET', '/api/reconciliation/unmatched?per_page=1')).total as number;
      const page = pageOf(total);
      const { result, stall } = await bench.probed(id, () =>
        timeEach(5, () => client.ok('GET', `/api/reconciliation/unmatched?per_page=50&page=${page}`)),
      );
      return {
        summary: summarize(result),
        note: `page ${page} of ${Math.ceil(total / 50)}; longest silence ${stall.maxMs.toFixed(0)} ms, ${stall.over50}/${stall.n} probes over 50 ms`,
      };
    });
  }
}

export const reconcile: Area = {
  name: 'reconcile',
  run: async (bench) => {
    await reconcileStatus(bench);
    await unmatchedLists(bench);
  },
};

runAlone(import.meta, [reconcile]);

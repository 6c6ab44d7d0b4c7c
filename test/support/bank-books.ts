/**
 * For the sync tests of statements, matches and reconciliations: one device's changes handed to
 * another as a sync hands them over (its clock moved past each, then applied), and the counts and
 * totals the triggers keep beside the same recounted from the rows (an oracle of its own SQL).
 */
import { DATASETS, readRowValue } from '../../server/db/change-log.ts';
import type { LedgerDb } from '../../server/db/stores.ts';
import { parseTimestamp } from '../../server/sync/clock.ts';
import { LedgerSyncStore } from '../../server/features/sync/ledger-store.ts';

/** Hands every change `from` has logged to `to`; answers how many it had. */
export function exchange(from: LedgerDb, to: LedgerDb): number {
  const messages = new LedgerSyncStore(from).pending('', 1_000_000);
  const store = new LedgerSyncStore(to);
  const clock = store.clock;
  for (const message of messages) clock.recv(parseTimestamp(message.timestamp)!);
  store.apply(messages);
  return messages.length;
}

const LIVE = "('auto_accepted', 'accepted', 'pending_review')";

/** The unmatched day counts and cleared day totals as kept (rows fallen to zero left out), and recounted. */
export function keptAndRecounted(db: LedgerDb): { kept: unknown; recounted: unknown } {
  const kept = {
    transactions: db.allSql(
      'SELECT account_id, day, transactions AS n FROM unmatched_transaction_day_counts WHERE transactions > 0 ORDER BY 1, 2',
    ),
    entries: db.allSql(
      'SELECT account_id, day, entries AS n FROM unmatched_entry_day_counts WHERE entries > 0 ORDER BY 1, 2',
    ),
    cleared: db.allSql(
      `SELECT account_id, day, cleared_debit_minor AS d, cleared_credit_minor AS c, uncleared_lines AS u, cleared_lines AS k
         FROM account_cleared_day_totals
        WHERE cleared_debit_minor <> 0 OR cleared_credit_minor <> 0 OR uncleared_lines <> 0 OR cleared_lines <> 0
        ORDER BY 1, 2`,
    ),
  };
  const recounted = {
    transactions: db.allSql(
      `SELECT t.account_id, t.date AS day, COUNT(*) AS n FROM bank_transactions t
        WHERE NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ${LIVE})
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    entries: db.allSql(
      `SELECT l.account_id, l.entry_date AS day, COUNT(DISTINCT l.entry_id) AS n FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.entry_id = e.id AND m.status IN ${LIVE})
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    cleared: db.allSql(
      `SELECT l.account_id, l.entry_date AS day,
              SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'DEBIT' THEN l.amount_minor ELSE 0 END) AS d,
              SUM(CASE WHEN l.cleared <> 'uncleared' AND l.direction = 'CREDIT' THEN l.amount_minor ELSE 0 END) AS c,
              SUM(l.cleared = 'uncleared') AS u, SUM(l.cleared = 'cleared') AS k
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE e.status = 'posted' AND e.reverses_entry_id IS NULL
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  };
  return { kept, recounted };
}

/** Bank lines with two live matches, or entries with two on one bank account: never, after any merge. */
export function doubleMatches(db: LedgerDb): unknown[] {
  return db.allSql(
    `SELECT m.bank_transaction_id AS line, NULL AS entry FROM reconciliation_matches m
      WHERE m.status IN ${LIVE} GROUP BY m.bank_transaction_id HAVING COUNT(*) > 1
     UNION ALL
     SELECT NULL, m.entry_id FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
      WHERE m.status IN ${LIVE} GROUP BY m.entry_id, t.account_id HAVING COUNT(*) > 1`,
  );
}

/** Every row of every synced table as the log writes it, in key order: equal texts, equal books. */
export function syncedRows(db: LedgerDb): string {
  const out: Record<string, unknown[]> = {};
  for (const dataset of DATASETS) {
    const keys = db
      .allSql<Record<string, unknown>>(
        `SELECT ${dataset.key.join(', ')} FROM ${dataset.table} ORDER BY ${dataset.key.join(', ')}`,
      )
      .map((row) => dataset.key.map((k) => String(row[k])).join(' '));
    out[dataset.name] = keys.map((key) => readRowValue(db, dataset, key));
  }
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** The maintained totals, and the same recounted from the lines of every posted or void entry. */
export function accountTotals(db: LedgerDb): { kept: string; recount: string } {
  const kept = db.allSql(
    'SELECT account_id, day, debit_minor AS d, credit_minor AS c FROM account_day_totals WHERE debit_minor <> 0 OR credit_minor <> 0 ORDER BY account_id, day',
  );
  const recount = db.allSql(
    `SELECT l.account_id, l.entry_date AS day,
            SUM(CASE WHEN l.direction = 'DEBIT' THEN l.amount_minor ELSE 0 END) AS d,
            SUM(CASE WHEN l.direction = 'CREDIT' THEN l.amount_minor ELSE 0 END) AS c
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE e.status IN ('posted', 'void') GROUP BY l.account_id, l.entry_date ORDER BY l.account_id, l.entry_date`,
  );
  const text = (rows: unknown[]) =>
    JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return { kept: text(kept), recount: text(recount) };
}

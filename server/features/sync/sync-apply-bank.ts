/**
 * Applying received statements, bank lines, reconciliation runs, matches and bank reconciliations
 * (docs/sync.md, "The merge rules"). Every write goes to the same tables a local import, match or
 * reconciliation writes, so the counts and totals their triggers keep (unmatched lines and entries
 * per day, cleared totals, the entry search's bank text) stay exact.
 *
 * The rules on top of last-writer-wins per row:
 * - **Twin bank lines.** The same bank file imported on two devices gives two lines with one bank
 *   id (dedupe key) on one account. The line imported first (created_at, then id) is kept on every
 *   device; its twin is not stored (where it was, it is deleted as this device's change), and a
 *   match naming the twin names the kept line.
 * - **Rival matches.** At most one live match per bank line, and per entry and bank account. A live
 *   match arriving where a rival is live: the higher rank (a match a person or a run took over a
 *   proposal), then the later clock, stays live; the other is superseded, and its entry and bank
 *   line are free again.
 * - **A void outranks a match**: a live match of an entry voided elsewhere is rejected.
 * - **Reconciliations** of one account are kept in the order they were finished (created_at, then
 *   id), wherever they arrive: the later one is the account's last reconciliation on every device.
 *
 * What the rules change beyond the row received (a rival superseded, the lines of its entry
 * uncleared, a match pointed at a kept twin, matches gone with a deleted statement) depends on the
 * order messages arrive in; it is logged as this device's change at the end of the batch wherever
 * it differs from the row's latest message, so that every device ends with the same rows. Those
 * changes are the merge's, not a person's: Undo passes them by (no write_ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { changeLogOf, datasetOf, readRowValue, type Dataset, type RowValue } from '../../db/change-log.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { LIVE_MATCH_STATUSES } from '../../domain/reconciliation/index.ts';
import { columnsOf, lastLiveValue, nextSeq, upsert } from './sync-apply.ts';

export const BANK_DATASETS: ReadonlySet<string> = new Set([
  'statements',
  'bank_transactions',
  'reconciliation_runs',
  'reconciliation_matches',
  'bank_reconciliations',
]);

const LIVE = new Set<string>(LIVE_MATCH_STATUSES);
const LIVE_SQL = `(${LIVE_MATCH_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** The datasets whose rows a bank apply may change besides the row it applies. */
// a twin that gave way is deleted as this device's change: the line is one line wherever imported
const SIDE_EFFECTS = new Set(['reconciliation_matches', 'journal_entries', 'bank_transactions']);

/**
 * Per ledger, while a batch of received changes is applied: the rows the rules touched
 * ("dataset\0row"), and the statements that arrived or had lines arrive.
 */
interface Batch {
  touched: Set<string>;
  imports: Set<string>;
}
const batches = new WeakMap<LedgerDb, Batch>();

/** Starts a batch (applyReceived): from now the rules' own changes are gathered. */
export function beginBankBatch(db: LedgerDb): void {
  batches.set(db, { touched: new Set(), imports: new Set() });
}

/** The row's latest message (highest rank, then latest) as (rank, timestamp), or the lowest when none. */
function standing(db: LedgerDb, dataset: string, rowId: string): { rank: bigint; timestamp: string } {
  const [row] = db.allSql<{ rank: bigint; timestamp: string }>(
    'SELECT rank, timestamp FROM change_log WHERE dataset = ? AND row_id = ? ORDER BY rank DESC, timestamp DESC LIMIT 1',
    dataset,
    rowId,
  );
  return row ?? { rank: -1n, timestamp: '' };
}

function outranks(a: { rank: bigint; timestamp: string }, b: { rank: bigint; timestamp: string }): boolean {
  return a.rank !== b.rank ? a.rank > b.rank : a.timestamp > b.timestamp;
}

/** The kept line that holds a received line's bank id on its account (its twin), or null. */
function twinOf(db: LedgerDb, lineId: string): string | null {
  const live = lastLiveValue(db, 'bank_transactions', lineId);
  if (live === null) return null;
  const [row] = db.allSql<{ id: string }>(
    'SELECT id FROM bank_transactions WHERE account_id = ? AND dedupe_key = ?',
    live.account_id,
    live.dedupe_key,
  );
  return row?.id ?? null;
}

/** A received match naming a bank line that gave way to its twin names the twin instead. */
export function redirectBankValue(db: LedgerDb, dataset: Dataset, value: RowValue): RowValue {
  if (dataset.name !== 'reconciliation_matches') return value;
  const lineId = String(value.bank_transaction_id);
  if (db.existsSql('SELECT 1 FROM bank_transactions WHERE id = ?', lineId)) return value;
  const twin = twinOf(db, lineId);
  return twin === null ? value : { ...value, bank_transaction_id: twin };
}

/** Applies a bank dataset's winning value (null: deleted), gathering what the rules change beside it. */
export function applyBankRow(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  const batch = batches.get(db);
  // inside a batch every mark left so far is a received change's; those after the write are the rules'
  if (batch) db.runSql('DELETE FROM change_dirty');
  switch (dataset.name) {
    case 'statements':
      applyStatement(db, dataset, rowId, value);
      break;
    case 'bank_transactions':
      applyLine(db, dataset, rowId, value);
      break;
    case 'reconciliation_matches':
      applyMatch(db, dataset, rowId, value);
      break;
    case 'bank_reconciliations':
      applyReconciliation(db, dataset, rowId, value);
      break;
    default:
      if (value === null) db.runSql(`DELETE FROM ${dataset.table} WHERE id = ?`, rowId);
      else upsert(db, dataset, columnsOf(db, dataset.table, value));
  }
  if (!batch) return;
  if (dataset.name === 'reconciliation_matches') batch.touched.add(`${dataset.name}\u0000${rowId}`);
  if (value !== null && dataset.name === 'statements') batch.imports.add(rowId);
  if (value !== null && dataset.name === 'bank_transactions') batch.imports.add(String(value.statement_id));
  for (const mark of db.allSql<{ dataset: string; row_id: string }>('SELECT dataset, row_id FROM change_dirty'))
    if (SIDE_EFFECTS.has(mark.dataset)) batch.touched.add(`${mark.dataset}\u0000${mark.row_id}`);
  db.runSql('DELETE FROM change_dirty');
}

function applyStatement(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (value !== null) {
    upsert(db, dataset, columnsOf(db, dataset.table, value), () => nextSeq(db, dataset.table));
    return;
  }
  const [here] = db.allSql<{ account_id: string }>('SELECT account_id FROM statements WHERE id = ?', rowId);
  if (!here) return;
  // as statements.repository's deleteStatement: its lines and their matches go with it, and the
  // account's unmatched day counts left at zero, which would otherwise keep the account
  db.runSql('DELETE FROM statements WHERE id = ?', rowId);
  db.runSql('DELETE FROM unmatched_transaction_day_counts WHERE account_id = ? AND transactions = 0', here.account_id);
}

/** Which of two imports of one bank line is kept: the first imported (created_at, then id). */
function importedFirst(a: RowValue, b: RowValue): boolean {
  const [ca, cb] = [String(a.created_at), String(b.created_at)];
  return ca !== cb ? ca < cb : String(a.id) < String(b.id);
}

function applyLine(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (value === null) {
    db.runSql('DELETE FROM bank_transactions WHERE id = ?', rowId);
    return;
  }
  const columns = columnsOf(db, dataset.table, value);
  if (db.existsSql('SELECT 1 FROM bank_transactions WHERE id = ?', rowId)) {
    upsert(db, dataset, columns);
    return;
  }
  const [twin] = db.allSql<{ id: string; created_at: string }>(
    'SELECT id, created_at FROM bank_transactions WHERE account_id = ? AND dedupe_key = ?',
    value.account_id,
    value.dedupe_key,
  );
  if (twin && importedFirst(twin, value)) return;
  if (twin) {
    // The arriving line was imported first: the twin here gives way, its matches move to the arriving
    // line (the counts follow by their triggers), and the twin goes without them.
    db.runSql('UPDATE bank_transactions SET dedupe_key = dedupe_key || char(0) WHERE id = ?', twin.id);
    upsert(db, dataset, columns, () => nextSeq(db, dataset.table));
    // a live match steps out of the counts and back in around the move: the unmatched counts'
    // triggers count a live match moved between lines of one entry as taken twice
    const moving = db.allSql<{ id: string; status: string }>(
      'SELECT id, status FROM reconciliation_matches WHERE bank_transaction_id = ?',
      twin.id,
    );
    for (const m of moving)
      if (LIVE.has(m.status)) db.runSql("UPDATE reconciliation_matches SET status = 'pending' WHERE id = ?", m.id);
    db.runSql(
      'UPDATE reconciliation_matches SET bank_transaction_id = ? WHERE bank_transaction_id = ?',
      rowId,
      twin.id,
    );
    for (const m of moving)
      if (LIVE.has(m.status)) db.runSql('UPDATE reconciliation_matches SET status = ? WHERE id = ?', m.status, m.id);
    db.runSql('DELETE FROM bank_transactions WHERE id = ?', twin.id);
    return;
  }
  upsert(db, dataset, columns, () => nextSeq(db, dataset.table));
}

/** The live matches here other than `rowId` that one on this bank line and entry would clash with. */
function rivalsOf(db: LedgerDb, rowId: string, lineId: string, entryId: string): string[] {
  const [line] = db.allSql<{ account_id: string }>('SELECT account_id FROM bank_transactions WHERE id = ?', lineId);
  if (!line) return [];
  return db
    .allSql<{ id: string }>(
      `SELECT id FROM reconciliation_matches WHERE bank_transaction_id = ? AND status IN ${LIVE_SQL} AND id <> ?
       UNION ALL
       SELECT m.id FROM reconciliation_matches m JOIN bank_transactions t ON t.id = m.bank_transaction_id
        WHERE m.entry_id = ? AND m.status IN ${LIVE_SQL} AND t.account_id = ? AND m.id <> ?`,
      lineId,
      rowId,
      entryId,
      line.account_id,
      rowId,
    )
    .map((r) => r.id)
    .filter((id, i, all) => all.indexOf(id) === i);
}

/** A rival steps aside: superseded (its entry and line free again, by their triggers), naming the winner once it is here. */
function supersede(db: LedgerDb, id: string, by: string | null, at: unknown): void {
  db.runSql(
    "UPDATE reconciliation_matches SET status = 'superseded', superseded_by_id = COALESCE(?, superseded_by_id), updated_at = ?, version = version + 1 WHERE id = ?",
    by,
    at,
    id,
  );
}

const VOIDED = 'the entry was voided';

function applyMatch(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (value === null) {
    db.runSql('DELETE FROM reconciliation_matches WHERE id = ?', rowId);
    return;
  }
  let row = value;
  const [entry] = db.allSql<{ status: string; updated_at: string }>(
    'SELECT status, updated_at FROM journal_entries WHERE id = ?',
    value.entry_id,
  );
  if (LIVE.has(String(value.status)) && entry?.status === 'void') {
    // matched on one computer while voided on another: the void wins, the match is rejected
    upsert(
      db,
      dataset,
      columnsOf(db, dataset.table, {
        ...value,
        status: 'rejected',
        rejected_at: entry.updated_at,
        reject_reason: VOIDED,
        updated_at: entry.updated_at,
        version: String(BigInt(String(value.version)) + 1n),
      }),
    );
    return;
  }
  const rivals = LIVE.has(String(value.status))
    ? rivalsOf(db, rowId, String(value.bank_transaction_id), String(value.entry_id))
    : [];
  const mine = standing(db, dataset.name, rowId);
  // a rival whose own latest message has already given it up (rejected, superseded) steps aside
  const winner = rivals.find((r) => {
    const theirs = standing(db, dataset.name, r);
    return theirs.rank < 2n && outranks(theirs, mine);
  });
  if (winner !== undefined)
    row = {
      ...value,
      status: 'superseded',
      superseded_by_id: winner,
      version: String(BigInt(String(value.version)) + 1n),
    };
  else for (const rival of rivals) supersede(db, rival, null, value.updated_at);
  upsert(db, dataset, columnsOf(db, dataset.table, row));
  if (winner === undefined)
    for (const rival of rivals)
      db.runSql('UPDATE reconciliation_matches SET superseded_by_id = ? WHERE id = ?', rowId, rival);
}

/**
 * A reconciliation takes its place in its account's order by when it was finished: the ones here
 * finished after it move after it (their creation order is this device's only).
 */
function applyReconciliation(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (value === null) {
    db.runSql('DELETE FROM bank_reconciliations WHERE id = ?', rowId);
    return;
  }
  const here = db.existsSql('SELECT 1 FROM bank_reconciliations WHERE id = ?', rowId);
  upsert(db, dataset, columnsOf(db, dataset.table, value), () => nextSeq(db, dataset.table));
  if (here) return;
  const later = db.allSql<{ id: string }>(
    `SELECT id FROM bank_reconciliations WHERE account_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id`,
    value.account_id,
    value.created_at,
    rowId,
  );
  for (const { id } of later)
    db.runSql('UPDATE bank_reconciliations SET seq = (SELECT MAX(seq) + 1 FROM bank_reconciliations) WHERE id = ?', id);
}

/** Moves rows to the end of their table's creation order (seq, this device's only), in the order given. */
function moveToEnd(db: LedgerDb, table: 'statements' | 'bank_transactions', ids: readonly string[]): void {
  for (const id of ids) db.runSql(`UPDATE ${table} SET seq = (SELECT MAX(seq) + 1 FROM ${table}) WHERE id = ?`, id);
}

/**
 * Statements and their lines are listed in creation order (seq, kept on each device). Received
 * ones take their place by when they were imported (created_at, then id; within one import, the
 * order its lines were made in, which is the order they arrive in): statements imported after one
 * that arrived, with their lines, move after it. So every device lists them alike.
 */
function orderImports(db: LedgerDb, imports: ReadonlySet<string>): void {
  const arrived = [...imports]
    .flatMap((id) =>
      db.allSql<{ id: string; seq: bigint; created_at: string }>(
        'SELECT id, seq, created_at FROM statements WHERE id = ?',
        id,
      ),
    )
    .sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  for (const statement of arrived) {
    const later = db
      .allSql<{ id: string; seq: bigint }>(
        // the index by time: then put in this device's order (those few imported later)
        'SELECT id, seq FROM statements WHERE (created_at, id) > (?, ?) ORDER BY created_at, id',
        statement.created_at,
        statement.id,
      )
      .sort((x, y) => (x.seq < y.seq ? -1 : 1));
    if (later.length === 0) continue;
    const [seq] = db.allSql<{ seq: bigint }>('SELECT seq FROM statements WHERE id = ?', statement.id);
    if (later.some((s) => s.seq < seq!.seq))
      moveToEnd(
        db,
        'statements',
        later.map((s) => s.id),
      );
    const [last] = db.allSql<{ seq: bigint | null }>(
      'SELECT MAX(seq) AS seq FROM bank_transactions WHERE statement_id = ?',
      statement.id,
    );
    if (last?.seq === null || last === undefined) continue;
    const laterLines = later.flatMap((s) =>
      db.allSql<{ id: string; seq: bigint }>('SELECT id, seq FROM bank_transactions WHERE statement_id = ?', s.id),
    );
    if (laterLines.some((l) => l.seq < last.seq!))
      moveToEnd(
        db,
        'bank_transactions',
        laterLines.sort((a, b) => (a.seq < b.seq ? -1 : 1)).map((l) => l.id),
      );
  }
}

/** A row as JSON text reads it back: integers as decimal strings, as the log writes them. */
function plain(value: RowValue | null): unknown {
  return value === null
    ? null
    : JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}

/**
 * Ends a batch: each row the rules changed whose state now differs from its latest message is
 * logged as this device's change (not one Undo takes back).
 */
export function logBankSideEffects(db: LedgerDb): void {
  const batch = batches.get(db);
  batches.delete(db);
  if (!batch) return;
  orderImports(db, batch.imports);
  if (batch.touched.size === 0) return;
  db.runSql('DELETE FROM change_dirty');
  for (const key of batch.touched) {
    const [name, rowId] = key.split('\u0000') as [string, string];
    const dataset = datasetOf(name)!;
    const [latest] = db.allSql<{ value: string | null }>(
      'SELECT value FROM change_log WHERE dataset = ? AND row_id = ? ORDER BY rank DESC, timestamp DESC LIMIT 1',
      name,
      rowId,
    );
    const logged = latest?.value ? (JSON.parse(latest.value) as unknown) : null;
    if (!isDeepStrictEqual(plain(readRowValue(db, dataset, rowId)), logged))
      db.runSql('INSERT INTO change_dirty (dataset, row_id) VALUES (?, ?)', name, rowId);
  }
  const log = changeLogOf(db);
  const [before] = db.allSql<{ last: string | null }>('SELECT MAX(timestamp) AS last FROM change_log');
  while (log.take() > 0);
  db.runSql('UPDATE change_log SET write_ts = NULL WHERE timestamp > ? AND node = ?', before?.last ?? '', log.node());
}

/**
 * An entry arrived void (voided on another computer while matched here): its live matches are
 * rejected, as the void of a matched entry's proposal is here, and their bank lines are free again.
 */
export function rejectMatchesOfVoid(db: LedgerDb, entryId: string): void {
  const live = db.allSql<{ id: string }>(
    `SELECT id FROM reconciliation_matches WHERE entry_id = ? AND status IN ${LIVE_SQL}`,
    entryId,
  );
  if (live.length === 0) return;
  const batch = batches.get(db);
  const [entry] = db.allSql<{ updated_at: string }>('SELECT updated_at FROM journal_entries WHERE id = ?', entryId);
  for (const { id } of live) {
    db.runSql(
      `UPDATE reconciliation_matches SET status = 'rejected', rejected_at = ?, reject_reason = ?, updated_at = ?,
         version = version + 1 WHERE id = ?`,
      entry!.updated_at,
      VOIDED,
      entry!.updated_at,
      id,
    );
    batch?.touched.add(`reconciliation_matches\u0000${id}`);
  }
  // the lines the matches had cleared are uncleared by their triggers: logged where they differ
  batch?.touched.add(`journal_entries\u0000${entryId}`);
}

/** A counted entry's lines are never rewritten; their cleared state moves (a match, a tick, a reconciliation). */
export function applyLineStates(db: LedgerDb, lines: readonly RowValue[]): void {
  for (const line of lines)
    db.runSql(
      'UPDATE journal_lines SET cleared = ? WHERE id = ? AND cleared <> ?',
      line.cleared,
      line.id,
      line.cleared,
    );
}

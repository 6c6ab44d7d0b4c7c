/**
 * Applying changes received from the household's other devices (docs/sync.md, "The merge rules").
 *
 * A message is logged once (its timestamp is its key; a replay changes nothing) and takes effect
 * when it is its row's winner: the highest rank, then the latest timestamp (change_log.rank). It is
 * written through the same tables and the same maintained totals as a local write, and the marks
 * its writes leave are not logged again: they are another device's change, logged as received.
 *
 * The bookkeeping rules on top of last-writer-wins:
 * - An entry's lines travel inside its value; a posted or void entry outranks a draft, so no merge
 *   takes a posted entry back to a draft, and a posted entry's lines are never rewritten. An entry
 *   counts in the maintained totals from the moment it first arrives posted (or void), as locally.
 * - Deleting an account that another device has posted to keeps the account, deactivated; an entry
 *   that arrives for an account deleted here brings the account back, deactivated.
 * - Two accounts of the same name from two devices are both kept (the one with the greater id is
 *   told apart in the name index only).
 */
import type { LedgerDb } from '../../db/stores.ts';
import { changeLogOf, datasetOf, readRowValue, type Dataset, type RowValue } from '../../db/change-log.ts';
import { nameKey } from '../accounts/accounts.model.ts';
import { applyPosting } from '../totals/totals.service.ts';
import type { PostedLine } from '../totals/totals.model.ts';
import { BOOKED_ENTRY_STATUSES, type AccountType, type Direction } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import { crashPoint } from '../../sync/crash-point.ts';
import {
  applyBankRow,
  applyLineStates,
  BANK_DATASETS,
  beginBankBatch,
  logBankSideEffects,
  redirectBankValue,
  rejectMatchesOfVoid,
} from './sync-apply-bank.ts';
import { applyInvestmentRow, deferHoldings, rebuildDeferredHoldings } from './sync-apply-investments.ts';

/** A change as the sync hands it over: value '' and column 'deleted' for a deleted row. */
export interface ReceivedChange {
  timestamp: string;
  dataset: string;
  row: string;
  column: string;
  value: string;
}

const COUNTED = new Set<string>(BOOKED_ENTRY_STATUSES);
const ENTRY_REFS = ['reversal_entry_id', 'reverses_entry_id', 'corrects_entry_id', 'corrected_by_entry_id'] as const;

/** Column name → declared type, per table (the STRICT tables take integers only as integers). */
const columnTypes = new Map<string, Map<string, string>>();

function typesOf(db: LedgerDb, table: string): Map<string, string> {
  let types = columnTypes.get(table);
  if (!types) {
    types = new Map(
      db
        .allSql<{ name: string; type: string }>('SELECT name, type FROM pragma_table_info(?)', table)
        .map((c) => [c.name, c.type.toUpperCase()]),
    );
    columnTypes.set(table, types);
  }
  return types;
}

/** A value's columns as SQLite takes them: integers back from their decimal strings; unknown columns refused. */
export function columnsOf(
  db: LedgerDb,
  table: string,
  row: RowValue,
  skip: readonly string[] = [],
): [string, unknown][] {
  const types = typesOf(db, table);
  const out: [string, unknown][] = [];
  for (const [name, value] of Object.entries(row)) {
    if (skip.includes(name) || Array.isArray(value)) continue;
    const type = types.get(name);
    if (type === undefined)
      throw new DomainError('SYNC_BAD_ANSWER', `A change names a column this app does not have: ${table}.${name}`);
    out.push([name, type === 'INTEGER' && value !== null ? BigInt(value as string) : value]);
  }
  return out;
}

/** Writes a row: an UPDATE of the one here (its local columns kept), else an INSERT with them (`local`). */
export function upsert(
  db: LedgerDb,
  dataset: Dataset,
  columns: [string, unknown][],
  local: () => [string, unknown][] = () => [],
): void {
  const keyValues = dataset.key.map((k) => columns.find(([n]) => n === k)?.[1]);
  const here = db.existsSql(`SELECT 1 FROM ${dataset.table} WHERE ${whereKey(dataset)}`, ...keyValues);
  if (here) {
    const updates = columns.filter(([n]) => !dataset.key.includes(n));
    if (updates.length > 0)
      db.runSql(
        `UPDATE ${dataset.table} SET ${updates.map(([n]) => `${n} = ?`).join(', ')} WHERE ${whereKey(dataset)}`,
        ...updates.map(([, v]) => v),
        ...keyValues,
      );
    return;
  }
  const all = [...columns, ...local()];
  db.runSql(
    `INSERT INTO ${dataset.table} (${all.map(([n]) => n).join(', ')}) VALUES (${all.map(() => '?').join(', ')})`,
    ...all.map(([, v]) => v),
  );
}

/** The next creation order of a table kept on this device only. */
export function nextSeq(db: LedgerDb, table: string): [string, unknown][] {
  return [['seq', db.allSql<{ next: bigint }>(`SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM ${table}`)[0]!.next]];
}

function whereKey(dataset: Dataset): string {
  return dataset.key.map((k) => `${k} = ?`).join(' AND ');
}

function replaceChildren(db: LedgerDb, dataset: Dataset, parentId: string, value: RowValue): void {
  for (const child of dataset.children ?? []) {
    db.runSql(`DELETE FROM ${child.table} WHERE ${child.parent} = ?`, parentId);
    for (const row of (value[child.name] as RowValue[] | undefined) ?? []) {
      const columns = columnsOf(db, child.table, row);
      columns.push([child.parent, parentId]);
      db.runSql(
        `INSERT INTO ${child.table} (${columns.map(([n]) => n).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        ...columns.map(([, v]) => v),
      );
    }
  }
}

/** The latest value the log holds for a row that was not a deletion, or null. */
export function lastLiveValue(db: LedgerDb, dataset: string, rowId: string): RowValue | null {
  const [row] = db.allSql<{ value: string }>(
    'SELECT value FROM change_log WHERE dataset = ? AND row_id = ? AND value IS NOT NULL ORDER BY rank DESC, timestamp DESC LIMIT 1',
    dataset,
    rowId,
  );
  return row ? (JSON.parse(row.value) as RowValue) : null;
}

/** The columns that name an account and keep it from being deleted (no ON DELETE CASCADE), read once. */
let accountRefs: { table: string; column: string }[] | undefined;

/** Whether anything that keeps an account (a line, a statement, a sub-account …) names it. */
function referenced(db: LedgerDb, accountId: string): boolean {
  accountRefs ??= db
    .allSql<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .flatMap(({ name }) =>
      db
        .allSql<{ table: string; from: string; on_delete: string }>(
          'SELECT "table", "from", on_delete FROM pragma_foreign_key_list(?)',
          name,
        )
        .filter((fk) => fk.table === 'accounts' && fk.on_delete !== 'CASCADE' && fk.on_delete !== 'SET NULL')
        .map((fk) => ({ table: name, column: fk.from })),
    );
  return accountRefs.some(({ table, column }) =>
    db.existsSql(`SELECT 1 FROM ${table} WHERE ${column} = ? LIMIT 1`, accountId),
  );
}

function applyAccount(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (value === null) {
    if (referenced(db, rowId)) db.runSql('UPDATE accounts SET is_active = 0 WHERE id = ?', rowId);
    else db.runSql('DELETE FROM accounts WHERE id = ?', rowId);
    return;
  }
  const key = nameKey(String(value.name));
  const [holder] = db.allSql<{ id: string }>('SELECT id FROM accounts WHERE name_key = ? AND id <> ?', key, rowId);
  let own = key;
  if (holder) {
    // Both kept; the smaller id keeps the plain key, whichever arrived first.
    if (holder.id < rowId) own = `${key}\u0000${rowId}`;
    else db.runSql('UPDATE accounts SET name_key = ? WHERE id = ?', `${key}\u0000${holder.id}`, holder.id);
  }
  db.runSql('UPDATE accounts SET name_key = ? WHERE id = ?', own, rowId);
  upsert(db, dataset, columnsOf(db, 'accounts', value), () => [['name_key', own]]);
}

/** Foreign keys of a table: the column and the table it names (read once per table). */
const foreignKeys = new Map<string, { column: string; table: string; to: string }[]>();

function foreignKeysOf(db: LedgerDb, table: string): { column: string; table: string; to: string }[] {
  let keys = foreignKeys.get(table);
  if (!keys) {
    keys = db
      .allSql<{ table: string; from: string; to: string | null }>(
        'SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)',
        table,
      )
      .map((fk) => ({ column: fk.from, table: fk.table, to: fk.to ?? 'id' }))
      // an entry naming another (a void's reversal) is filled in when both are here (applyEntry)
      .filter((fk) => !(table === 'journal_entries' && fk.table === 'journal_entries'));
    foreignKeys.set(table, keys);
  }
  return keys;
}

/**
 * Whether every row a value names is here. An account deleted here that an arriving row names is
 * brought back, deactivated (the merge keeps an account another device has used); a row never
 * received yet is missing, and the value waits for it (change_parked).
 */
function dependenciesHere(db: LedgerDb, dataset: Dataset, value: RowValue): boolean {
  const rows: [string, RowValue][] = [[dataset.table, value]];
  for (const child of dataset.children ?? [])
    for (const row of (value[child.name] as RowValue[] | undefined) ?? []) rows.push([child.table, row]);
  for (const [table, row] of rows) {
    for (const fk of foreignKeysOf(db, table)) {
      const target = row[fk.column];
      if (target === null || target === undefined) continue;
      if (db.existsSql(`SELECT 1 FROM ${fk.table} WHERE ${fk.to} = ?`, target)) continue;
      const live = fk.table === 'accounts' ? lastLiveValue(db, 'accounts', String(target)) : null;
      if (live === null || !dependenciesHere(db, datasetOf('accounts')!, live)) return false;
      applyAccount(db, datasetOf('accounts')!, String(target), { ...live, is_active: '0' });
    }
  }
  return true;
}

function applyEntry(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  const [local] = db.allSql<{ status: string }>('SELECT status FROM journal_entries WHERE id = ?', rowId);
  if (value === null) {
    // Only a draft is ever deleted; a posted entry outranks the deletion and never gets here.
    if (local) db.runSql('DELETE FROM journal_entries WHERE id = ?', rowId);
    return;
  }
  const wasCounted = local !== undefined && COUNTED.has(local.status);
  const lines = (value.lines as RowValue[] | undefined) ?? [];
  const types = new Map(
    lines.map((l) => [
      String(l.account_id),
      db.allSql<{ type: AccountType }>('SELECT type FROM accounts WHERE id = ?', l.account_id)[0]!.type,
    ]),
  );
  const refs = new Map<string, string>();
  const row: RowValue = { ...value };
  for (const column of ENTRY_REFS) {
    const target = row[column];
    if (typeof target === 'string') {
      refs.set(column, target);
      if (!db.existsSql('SELECT 1 FROM journal_entries WHERE id = ?', target)) row[column] = null;
    }
  }
  upsert(db, dataset, columnsOf(db, 'journal_entries', row), () => nextSeq(db, 'journal_entries'));
  if (!wasCounted) replaceChildren(db, dataset, rowId, value);
  else applyLineStates(db, lines);
  if (value.status === 'void') rejectMatchesOfVoid(db, rowId);
  if (!wasCounted && COUNTED.has(String(value.status))) {
    const posted: PostedLine[] = lines.map((l) => ({
      accountId: String(l.account_id),
      accountType: types.get(String(l.account_id))!,
      direction: l.direction as Direction,
      amountMinor: BigInt(l.amount_minor as string),
      currency: String(l.currency),
    }));
    applyPosting(db, String(value.entry_date), posted);
  }
  // An entry that names one received earlier: that one names it back (a void's reversal, a correction).
  for (const target of refs.values()) {
    const other = lastLiveValue(db, 'journal_entries', target);
    if (other === null) continue;
    for (const column of ENTRY_REFS)
      if (other[column] === rowId) db.runSql(`UPDATE journal_entries SET ${column} = ? WHERE id = ?`, rowId, target);
  }
}

/** Applies a row's winning value, or parks it until the rows it names are here; answers whether it applied. */
function applyRow(db: LedgerDb, dataset: Dataset, rowId: string, received: RowValue | null): boolean {
  const value = received === null ? null : redirectBankValue(db, dataset, received);
  if (value !== null && !dependenciesHere(db, dataset, value)) {
    db.runSql('INSERT OR IGNORE INTO change_parked (dataset, row_id) VALUES (?, ?)', dataset.name, rowId);
    return false;
  }
  db.runSql('DELETE FROM change_parked WHERE dataset = ? AND row_id = ?', dataset.name, rowId);
  if (applyWinner(db, dataset, rowId, value)) return true;
  // set aside by its own rule (a sale of units another device sold first): it waits too
  db.runSql('INSERT OR IGNORE INTO change_parked (dataset, row_id) VALUES (?, ?)', dataset.name, rowId);
  return false;
}

/** Writes a row's winning value; answers false when a rule sets it aside (sync-apply-investments.ts). */
function applyWinner(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): boolean {
  const own = applyInvestmentRow(db, dataset, rowId, value);
  if (own !== undefined) return own;
  if (dataset.name === 'accounts') applyAccount(db, dataset, rowId, value);
  else if (dataset.name === 'journal_entries') applyEntry(db, dataset, rowId, value);
  else if (BANK_DATASETS.has(dataset.name)) applyBankRow(db, dataset, rowId, value);
  else if (value === null) db.runSql(`DELETE FROM ${dataset.table} WHERE ${whereKey(dataset)}`, ...rowId.split(' '));
  else {
    const seq = (dataset.local ?? []).includes('seq');
    upsert(db, dataset, columnsOf(db, dataset.table, value), () => (seq ? nextSeq(db, dataset.table) : []));
    replaceChildren(db, dataset, rowId, value);
  }
  return true;
}

/**
 * Applies received changes in one transaction (the sync's SyncStore.apply): this device's own
 * marks are logged first, then each change not logged yet is logged and, when it wins its row,
 * applied. Answers how many were new.
 */
export function applyReceived(db: LedgerDb, changes: readonly ReceivedChange[]): number {
  const log = changeLogOf(db);
  return db.transaction(() => {
    while (log.take() > 0);
    db.runSql('PRAGMA defer_foreign_keys = ON');
    beginBankBatch(db);
    let fresh = 0;
    const arrived: { dataset: Dataset; change: ReceivedChange; value: RowValue | null }[] = [];
    for (const change of changes) {
      const dataset = datasetOf(change.dataset);
      if (!dataset)
        throw new DomainError('SYNC_BAD_ANSWER', `A change names data this app does not keep: ${change.dataset}`);
      const deleted = change.column === 'deleted';
      let value: RowValue | null = null;
      if (!deleted) {
        try {
          value = JSON.parse(change.value) as RowValue;
        } catch {
          throw new DomainError('SYNC_BAD_ANSWER', 'A change carries a value that is not JSON');
        }
      }
      const rank = value !== null && dataset.rank ? dataset.rank(value) : 0;
      const logged = db.runSql(
        'INSERT OR IGNORE INTO change_log (timestamp, node, dataset, row_id, value, rank) VALUES (?, ?, ?, ?, ?, ?)',
        change.timestamp,
        change.timestamp.slice(-16),
        change.dataset,
        change.row,
        deleted ? null : change.value,
        rank,
      );
      if (logged === 0) continue;
      fresh += 1;
      arrived.push({ dataset, change, value });
    }
    // Each applied once the whole batch is logged: a row created and deleted within it (a bank
    // line whose statement was deleted) is never applied in between, where it could displace its twin.
    // Each holding a trade arrives for is rebuilt once, after them all.
    deferHoldings(true);
    try {
      for (const { dataset, change, value } of arrived) {
        const [winner] = db.allSql<{ timestamp: string }>(
          'SELECT timestamp FROM change_log WHERE dataset = ? AND row_id = ? ORDER BY rank DESC, timestamp DESC LIMIT 1',
          change.dataset,
          change.row,
        );
        if (winner?.timestamp === change.timestamp) applyRow(db, dataset, change.row, value);
        crashPoint('apply-message');
      }
    } finally {
      deferHoldings(false);
    }
    rebuildDeferredHoldings(db);
    applyParked(db);
    logBankSideEffects(db);
    // The marks the changes left are theirs, logged as received.
    db.runSql('DELETE FROM change_dirty');
    return fresh;
  });
}

/** Applies the parked rows whose rows they name have come, until none more can be. */
function applyParked(db: LedgerDb): void {
  for (let progress = true; progress;) {
    progress = false;
    for (const parked of db.allSql<{ dataset: string; row_id: string }>('SELECT dataset, row_id FROM change_parked')) {
      const [winner] = db.allSql<{ value: string | null }>(
        'SELECT value FROM change_log WHERE dataset = ? AND row_id = ? ORDER BY rank DESC, timestamp DESC LIMIT 1',
        parked.dataset,
        parked.row_id,
      );
      const value = winner?.value ? (JSON.parse(winner.value) as RowValue) : null;
      if (applyRow(db, datasetOf(parked.dataset)!, parked.row_id, value)) progress = true;
    }
  }
}

/** A row's value as this ledger holds it now (for tests and the history's words). */
export function currentValue(db: LedgerDb, dataset: string, rowId: string): RowValue | null {
  const d = datasetOf(dataset);
  return d ? readRowValue(db, d, rowId) : null;
}

/** Puts a row back as it was (Undo): the value given, or no row for null, through the merge's writes. */
export function applyRestored(db: LedgerDb, dataset: Dataset, rowId: string, value: RowValue | null): void {
  if (!applyWinner(db, dataset, rowId, value))
    db.runSql('INSERT OR IGNORE INTO change_parked (dataset, row_id) VALUES (?, ?)', dataset.name, rowId);
}

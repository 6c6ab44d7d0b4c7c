/**
 * The books' history, read from the change log: every change with its device, time and what it
 * changed; and Undo, which reverts this device's last write (docs/sync.md, "History and undo").
 */
import { changeLogOf, datasetOf, readRowValue, type RowValue } from '../../db/change-log.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { HistoryItem, HistoryPage } from '../../contract/sync.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import { voidEntry } from '../journal/journal.service.ts';
import type { VoidGuard } from '../journal/journal.service.ts';
import { thisDevice } from './ledger-store.ts';
import { applyRestored } from './sync-apply.ts';

interface LoggedRow {
  timestamp: string;
  node: string;
  dataset: string;
  row_id: string;
  value: string | null;
  undo: bigint;
  undone_at: string | null;
}

function parse(value: string | null): RowValue | null {
  return value === null ? null : (JSON.parse(value) as RowValue);
}

/** The message of a row just before `timestamp` (any device), or null when the row was new then. */
function before(db: LedgerDb, dataset: string, rowId: string, timestamp: string): RowValue | null | undefined {
  const [row] = db.allSql<{ value: string | null }>(
    'SELECT value FROM change_log WHERE dataset = ? AND row_id = ? AND timestamp < ? ORDER BY timestamp DESC LIMIT 1',
    dataset,
    rowId,
    timestamp,
  );
  return row === undefined ? undefined : parse(row.value);
}

/** An entry's amount: its debits per currency, as "42.50 USD". */
function entryAmount(value: RowValue): string {
  const sums = new Map<string, bigint>();
  for (const line of (value.lines as RowValue[] | undefined) ?? [])
    if (line.direction === 'DEBIT' && line.automatic !== '1')
      sums.set(String(line.currency), (sums.get(String(line.currency)) ?? 0n) + BigInt(String(line.amount_minor)));
  return [...sums].map(([currency, minor]) => `${formatMinor(minor, currency)} ${currency}`).join(' + ');
}

/** What a change did, from the row before and after. */
function actionOf(
  dataset: string,
  previous: RowValue | null | undefined,
  value: RowValue | null,
): HistoryItem['action'] {
  if (value === null) return 'deleted';
  if (previous === null || previous === undefined)
    return dataset === 'journal_entries' && value.status === 'posted' ? 'posted' : 'created';
  if (dataset === 'journal_entries' && previous.status !== value.status)
    return value.status === 'void' ? 'voided' : 'posted';
  if (dataset === 'accounts' && previous.is_active !== value.is_active)
    return value.is_active === '0' ? 'deactivated' : 'changed';
  return 'changed';
}

/** The words that name a row to its owner: an entry's date, memo and amount, an account's name … */
function labelOf(dataset: string, rowId: string, value: RowValue | null): string {
  if (value === null) return rowId;
  switch (dataset) {
    case 'journal_entries':
      return [value.entry_date, value.memo, entryAmount(value)].filter((p) => p !== null && p !== '').join(' · ');
    case 'accounts':
    case 'rules':
    case 'schedules':
      return String(value.name);
    case 'settings':
      return `${String(value.key)} = ${String(value.value)}`;
    case 'prices':
      return `${String(value.from_currency)}/${String(value.to_currency)} ${String(value.rate)} · ${String(value.date)}`;
    case 'statements':
      return String(value.name);
    case 'bank_transactions':
      return `${String(value.date)} · ${String(value.description)}`;
    case 'reconciliation_matches':
      return String(value.status).replace('_', ' ');
    case 'bank_reconciliations':
      return String(value.statement_date);
    case 'securities':
      return `${String(value.symbol)} · ${String(value.name)}`;
    case 'security_prices':
      return `${String(value.price)} · ${String(value.date)}`;
    case 'trades':
      return [value.trade_date, value.kind, value.price].filter((p) => p !== null && p !== undefined).join(' · ');
    case 'attachments':
      return String(value.file_name);
    default:
      return rowId;
  }
}

const KIND_WORDS: Record<string, string> = {
  journal_entries: 'Entry',
  accounts: 'Account',
  rules: 'Rule',
  schedules: 'Schedule',
  schedule_occurrences: 'Scheduled occurrence',
  budget_lines: 'Budget line',
  prices: 'Rate',
  settings: 'Setting',
  csv_mappings: 'CSV mapping',
  currency_trading_accounts: 'Trading account',
  statements: 'Statement',
  bank_transactions: 'Bank line',
  reconciliation_runs: 'Reconciliation run',
  reconciliation_matches: 'Match',
  bank_reconciliations: 'Reconciliation',
  securities: 'Security',
  investment_accounts: 'Investment settings',
  security_prices: 'Security price',
  trades: 'Trade',
  attachment_files: 'Stored file',
  attachments: 'Attachment',
};

export const HISTORY_PAGE = { default: 50, max: 200 } as const;

/** One page of the history, newest first, before `before` (a timestamp) when given. */
export function historyPage(db: LedgerDb, query: { before?: string; limit?: number }): HistoryPage {
  const mine = thisDevice(db);
  const limit = query.limit ?? HISTORY_PAGE.default;
  // '~' sorts after every timestamp: the first page is the same index range as the others
  const rows = db.allSql<LoggedRow>(
    // a file's chunks are its bytes on their way, not a change in words: the file's own row says it
    `SELECT timestamp, node, dataset, row_id, value, undo, undone_at FROM change_log
      WHERE timestamp < ? AND dataset <> 'attachment_chunks' ORDER BY timestamp DESC LIMIT ?`,
    query.before ?? '~',
    limit + 1,
  );
  const items = rows.slice(0, limit).map((row): HistoryItem => {
    const value = parse(row.value);
    const action = actionOf(row.dataset, before(db, row.dataset, row.row_id, row.timestamp), value);
    const label = labelOf(row.dataset, row.row_id, value ?? before(db, row.dataset, row.row_id, row.timestamp) ?? null);
    const kind = KIND_WORDS[row.dataset] ?? row.dataset;
    return {
      timestamp: row.timestamp,
      at: row.timestamp.slice(0, 24),
      device: row.node,
      this_device: row.node === mine,
      kind: row.dataset,
      row: row.row_id,
      action,
      label,
      summary: `${kind} ${action}: ${label}`,
      by_undo: row.undo === 1n,
      undone: row.undone_at !== null,
    };
  });
  return { items, next_before: rows.length > limit ? items[items.length - 1]!.timestamp : null };
}

/**
 * Reverts this device's last write that is not undone yet (nor itself an undo): each row it
 * changed goes back to what it was before; a posted entry it made or posted is voided instead (a
 * posted entry is never taken back), a void cannot be undone. The undo is a write of its own,
 * logged (and synced) like any other.
 */
export function undoLast(db: LedgerDb, guard: VoidGuard, today: string): { undone: HistoryItem[] } {
  const log = changeLogOf(db);
  const node = thisDevice(db);
  const [last] = db.allSql<{ write_ts: string }>(
    `SELECT write_ts FROM change_log WHERE node = ? AND undo = 0 AND undone_at IS NULL AND write_ts IS NOT NULL
      ORDER BY timestamp DESC LIMIT 1`,
    node,
  );
  if (!last) throw new DomainError('NOTHING_TO_UNDO', 'This computer has made no change that can be undone');
  const changes = db.allSql<LoggedRow>(
    'SELECT timestamp, node, dataset, row_id, value, undo, undone_at FROM change_log WHERE write_ts = ? ORDER BY timestamp DESC',
    last.write_ts,
  );
  const undone = changes.map((row) => {
    const value = parse(row.value);
    return {
      row,
      item: {
        timestamp: row.timestamp,
        at: row.timestamp.slice(0, 24),
        device: row.node,
        this_device: true,
        kind: row.dataset,
        row: row.row_id,
        action: actionOf(row.dataset, before(db, row.dataset, row.row_id, last.write_ts), value),
        label: labelOf(row.dataset, row.row_id, value ?? before(db, row.dataset, row.row_id, last.write_ts) ?? null),
        summary: '',
        by_undo: false,
        undone: true,
      } satisfies HistoryItem,
    };
  });
  log.undoing = true;
  try {
    db.transaction(() => {
      for (const { row } of undone) {
        const dataset = datasetOf(row.dataset);
        if (!dataset) continue;
        const previous = before(db, row.dataset, row.row_id, last.write_ts) ?? null;
        const current = readRowValue(db, dataset, row.row_id);
        if (row.dataset === 'journal_entries' && current !== null && current.status !== 'draft') {
          if (current.status === 'void')
            throw new DomainError('UNDO_NOT_POSSIBLE', 'A void cannot be undone: enter the entry again instead');
          // made or posted by the write: a posted entry is undone by voiding it
          if (previous === null || previous.status === 'draft') {
            try {
              voidEntry(db, row.row_id, 'Undone', guard, today);
            } catch (error) {
              // a reconciled line or a trade's entry is voided only where it is kept: say why undo cannot
              if (error instanceof DomainError && error.code === 'INVALID_STATUS')
                throw new DomainError('UNDO_NOT_POSSIBLE', `This change cannot be undone: ${error.message}`);
              throw error;
            }
            continue;
          }
        }
        applyRestored(db, dataset, row.row_id, previous);
      }
      db.runSql('UPDATE change_log SET undone_at = ? WHERE write_ts = ?', new Date().toISOString(), last.write_ts);
    });
  } finally {
    log.undoing = false;
  }
  return {
    undone: undone.map(({ item }) => ({
      ...item,
      summary: `${KIND_WORDS[item.kind] ?? item.kind} ${item.action}: ${item.label}`,
    })),
  };
}

import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';
import type { EntryStatus, SourceType } from '../../contract/journal.ts';

export interface JournalLine {
  id: string;
  accountId: string;
  accountName: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
}

export interface JournalEntry {
  id: string;
  entryDate: string;
  memo: string | null;
  status: EntryStatus;
  sourceType: SourceType;
  createdAt: string;
  updatedAt: string;
  postedAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  reversalEntryId: string | null;
  reversesEntryId: string | null;
  lines: JournalLine[];
}

type EntryRow = {
  id: string;
  entry_date: string;
  memo: string | null;
  status: string;
  source_type: string;
  created_at: string;
  updated_at: string;
  posted_at: string | null;
  voided_at: string | null;
  void_reason: string | null;
  reversal_entry_id: string | null;
  reverses_entry_id: string | null;
};

const ENTRY_COLUMNS = [
  'id',
  'entry_date',
  'memo',
  'status',
  'source_type',
  'created_at',
  'updated_at',
  'posted_at',
  'voided_at',
  'void_reason',
  'reversal_entry_id',
  'reverses_entry_id',
] as const;

function linesOf(db: LedgerDb, entryIds: readonly string[]): Map<string, JournalLine[]> {
  const out = new Map<string, JournalLine[]>();
  for (let i = 0; i < entryIds.length; i += 500) {
    const rows = db.all(
      db.qb
        .selectFrom('journal_lines as l')
        .innerJoin('accounts as a', 'a.id', 'l.account_id')
        .select(['l.id', 'l.entry_id', 'l.account_id', 'a.name as account_name', 'l.direction', 'l.amount_minor', 'l.currency'])
        .where('l.entry_id', 'in', entryIds.slice(i, i + 500))
        .orderBy('l.entry_id')
        .orderBy('l.line_no'),
    );
    for (const row of rows) {
      const list = out.get(row.entry_id) ?? [];
      list.push({
        id: row.id,
        accountId: row.account_id,
        accountName: row.account_name,
        direction: row.direction as Direction,
        amountMinor: row.amount_minor,
        currency: row.currency,
      });
      out.set(row.entry_id, list);
    }
  }
  return out;
}

function toEntries(db: LedgerDb, rows: EntryRow[]): JournalEntry[] {
  const lines = linesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    entryDate: row.entry_date,
    memo: row.memo,
    status: row.status as EntryStatus,
    sourceType: row.source_type as SourceType,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    postedAt: row.posted_at,
    voidedAt: row.voided_at,
    voidReason: row.void_reason,
    reversalEntryId: row.reversal_entry_id,
    reversesEntryId: row.reverses_entry_id,
    lines: lines.get(row.id) ?? [],
  }));
}

export function findEntry(db: LedgerDb, id: string): JournalEntry | undefined {
  const row = db.first(db.qb.selectFrom('journal_entries').select(ENTRY_COLUMNS).where('id', '=', id));
  return row ? toEntries(db, [row])[0] : undefined;
}

export interface EntryFilter {
  status?: EntryStatus | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  accountId?: string | undefined;
  sourceType?: SourceType | undefined;
}

/** Entries by date, then creation, newest first. */
export function listEntries(db: LedgerDb, filter: EntryFilter, limit: number, offset: number): { items: JournalEntry[]; total: number } {
  let query = db.qb.selectFrom('journal_entries as e');
  if (filter.status) query = query.where('e.status', '=', filter.status);
  if (filter.sourceType) query = query.where('e.source_type', '=', filter.sourceType);
  if (filter.startDate) query = query.where('e.entry_date', '>=', filter.startDate);
  if (filter.endDate) query = query.where('e.entry_date', '<=', filter.endDate);
  if (filter.accountId) {
    const accountId = filter.accountId;
    query = query.where('e.id', 'in', (eb) => {
      let lines = eb.selectFrom('journal_lines as l').select('l.entry_id').where('l.account_id', '=', accountId);
      if (filter.startDate) lines = lines.where('l.entry_date', '>=', filter.startDate);
      if (filter.endDate) lines = lines.where('l.entry_date', '<=', filter.endDate);
      return lines;
    });
  }
  const total = db.first(query.select((eb) => eb.fn.countAll<bigint>().as('n')))!.n;
  const rows = db.all(
    query
      .select(ENTRY_COLUMNS.map((c) => `e.${c}` as const))
      .orderBy('e.entry_date', 'desc')
      .orderBy('e.created_at', 'desc')
      .orderBy('e.seq', 'desc')
      .limit(limit)
      .offset(offset),
  );
  return { items: toEntries(db, rows), total: Number(total) };
}

export interface NewLine {
  accountId: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
}

export function insertEntry(
  db: LedgerDb,
  entry: Omit<JournalEntry, 'lines'>,
  lines: readonly NewLine[],
  newId: () => string,
): void {
  const seq = db.first(db.qb.selectFrom('journal_entries').select((eb) => eb.fn.max<bigint | null>('seq').as('s')))!.s ?? 0n;
  db.run(
    db.qb.insertInto('journal_entries').values({
      id: entry.id,
      seq: seq + 1n,
      entry_date: entry.entryDate,
      memo: entry.memo,
      status: entry.status,
      source_type: entry.sourceType,
      created_at: entry.createdAt,
      updated_at: entry.updatedAt,
      posted_at: entry.postedAt,
      voided_at: entry.voidedAt,
      void_reason: entry.voidReason,
      reversal_entry_id: entry.reversalEntryId,
      reverses_entry_id: entry.reversesEntryId,
    }),
  );
  insertLines(db, entry.id, entry.entryDate, lines, newId);
}

function insertLines(db: LedgerDb, entryId: string, entryDate: string, lines: readonly NewLine[], newId: () => string): void {
  lines.forEach((line, index) => {
    db.run(
      db.qb.insertInto('journal_lines').values({
        id: newId(),
        entry_id: entryId,
        line_no: BigInt(index + 1),
        account_id: line.accountId,
        direction: line.direction,
        amount_minor: line.amountMinor,
        currency: line.currency,
        entry_date: entryDate,
      }),
    );
  });
}

/** Replaces a draft's date, memo and lines. */
export function rewriteDraft(
  db: LedgerDb,
  id: string,
  fields: { entryDate: string; memo: string | null; updatedAt: string },
  lines: readonly NewLine[],
  newId: () => string,
): void {
  db.run(
    db.qb
      .updateTable('journal_entries')
      .set({ entry_date: fields.entryDate, memo: fields.memo, updated_at: fields.updatedAt })
      .where('id', '=', id)
      .where('status', '=', 'draft'),
  );
  db.run(db.qb.deleteFrom('journal_lines').where('entry_id', '=', id));
  insertLines(db, id, fields.entryDate, lines, newId);
}

export function markPosted(db: LedgerDb, id: string, at: string): void {
  db.run(db.qb.updateTable('journal_entries').set({ status: 'posted', posted_at: at, updated_at: at }).where('id', '=', id).where('status', '=', 'draft'));
}

export function markVoid(db: LedgerDb, id: string, fields: { at: string; reason: string | null; reversalEntryId: string }): void {
  db.run(
    db.qb
      .updateTable('journal_entries')
      .set({ status: 'void', voided_at: fields.at, void_reason: fields.reason, reversal_entry_id: fields.reversalEntryId, updated_at: fields.at })
      .where('id', '=', id)
      .where('status', '=', 'posted'),
  );
}

import type { LedgerDb } from '../../db/stores.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Cost } from '../../domain/exchange.ts';
import type { Frequency } from '../../domain/schedules.ts';
import type { Schedule, ScheduleFields, ScheduleLine } from './schedules.model.ts';

type Row = {
  id: string;
  name: string;
  memo: string | null;
  frequency: string;
  interval: bigint;
  start_date: string;
  end_date: string | null;
  auto_post: bigint;
  next_date: string | null;
  created_at: string;
  updated_at: string;
};

const COLUMNS =
  'id, name, memo, frequency, interval, start_date, end_date, auto_post, next_date, created_at, updated_at';

function withLines(db: LedgerDb, rows: Row[]): Schedule[] {
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    memo: row.memo,
    frequency: row.frequency as Frequency,
    interval: Number(row.interval),
    startDate: row.start_date,
    endDate: row.end_date,
    autoPost: row.auto_post === 1n,
    nextDate: row.next_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lines: db
      .allSql<{
        account_id: string;
        name: string;
        direction: string;
        amount_minor: bigint;
        currency: string;
        cost_minor: bigint | null;
        cost_currency: string | null;
      }>(
        `SELECT l.account_id, a.name, l.direction, l.amount_minor, l.currency, l.cost_minor, l.cost_currency
           FROM schedule_lines l JOIN accounts a ON a.id = l.account_id
          WHERE l.schedule_id = ? ORDER BY l.line_no`,
        row.id,
      )
      .map((l) => ({
        accountId: l.account_id,
        accountName: l.name,
        direction: l.direction as Direction,
        amountMinor: l.amount_minor,
        currency: l.currency,
        cost:
          l.cost_minor === null || l.cost_currency === null
            ? null
            : { amountMinor: l.cost_minor, currency: l.cost_currency },
      })),
  }));
}

export function findSchedule(db: LedgerDb, id: string): Schedule | undefined {
  return withLines(db, db.allSql<Row>(`SELECT ${COLUMNS} FROM schedules WHERE id = ?`, id))[0];
}

/** Schedules by their next occurrence (ended ones last), then creation. */
export function listSchedules(db: LedgerDb, limit: number, offset: number): { items: Schedule[]; total: number } {
  const total = Number(db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM schedules')[0]!.n);
  const rows = db.allSql<Row>(
    `SELECT ${COLUMNS} FROM schedules ORDER BY next_date IS NULL, next_date, seq LIMIT ? OFFSET ?`,
    limit,
    offset,
  );
  return { items: withLines(db, rows), total };
}

/** Schedules whose next occurrence is on or before `date`: a range of the next_date index. */
export function schedulesDueBy(db: LedgerDb, date: string): Schedule[] {
  return withLines(
    db,
    db.allSql<Row>(`SELECT ${COLUMNS} FROM schedules WHERE next_date <= ? ORDER BY next_date, seq`, date),
  );
}

export type NewScheduleLine = Omit<ScheduleLine, 'accountName' | 'cost'> & { cost?: Cost | null };

function writeLines(db: LedgerDb, id: string, lines: readonly NewScheduleLine[]): void {
  db.runSql('DELETE FROM schedule_lines WHERE schedule_id = ?', id);
  lines.forEach((l, i) =>
    db.runSql(
      'INSERT INTO schedule_lines (schedule_id, line_no, account_id, direction, amount_minor, currency, cost_minor, cost_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      id,
      i + 1,
      l.accountId,
      l.direction,
      l.amountMinor,
      l.currency,
      l.cost?.amountMinor ?? null,
      l.cost?.currency ?? null,
    ),
  );
}

export function insertSchedule(
  db: LedgerDb,
  id: string,
  fields: ScheduleFields,
  lines: readonly NewScheduleLine[],
): void {
  db.runSql(
    `INSERT INTO schedules (id, seq, name, memo, frequency, interval, start_date, end_date, auto_post, next_date, created_at, updated_at)
     VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM schedules), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    fields.name,
    fields.memo,
    fields.frequency,
    fields.interval,
    fields.startDate,
    fields.endDate,
    fields.autoPost ? 1 : 0,
    fields.nextDate,
    fields.updatedAt,
    fields.updatedAt,
  );
  writeLines(db, id, lines);
}

export function updateSchedule(
  db: LedgerDb,
  id: string,
  fields: ScheduleFields,
  lines: readonly NewScheduleLine[],
): void {
  db.runSql(
    `UPDATE schedules SET name = ?, memo = ?, frequency = ?, interval = ?, start_date = ?, end_date = ?, auto_post = ?,
            next_date = ?, updated_at = ? WHERE id = ?`,
    fields.name,
    fields.memo,
    fields.frequency,
    fields.interval,
    fields.startDate,
    fields.endDate,
    fields.autoPost ? 1 : 0,
    fields.nextDate,
    fields.updatedAt,
    id,
  );
  writeLines(db, id, lines);
}

export function setNextDate(db: LedgerDb, id: string, nextDate: string | null): void {
  db.runSql('UPDATE schedules SET next_date = ? WHERE id = ?', nextDate, id);
}

export function deleteSchedule(db: LedgerDb, id: string): void {
  db.runSql('DELETE FROM schedules WHERE id = ?', id);
}

/**
 * Claims an occurrence: true when this call recorded it, false when it was already booked or
 * skipped (by this connection or any other: the primary key decides).
 */
export function claimOccurrence(db: LedgerDb, scheduleId: string, date: string, skipped: boolean, at: string): boolean {
  return (
    db.runSql(
      `INSERT INTO schedule_occurrences (schedule_id, date, entry_id, skipped, created_at) VALUES (?, ?, NULL, ?, ?)
       ON CONFLICT (schedule_id, date) DO NOTHING`,
      scheduleId,
      date,
      skipped ? 1 : 0,
      at,
    ) === 1
  );
}

export function setOccurrenceEntry(db: LedgerDb, scheduleId: string, date: string, entryId: string): void {
  db.runSql(
    'UPDATE schedule_occurrences SET entry_id = ? WHERE schedule_id = ? AND date = ?',
    entryId,
    scheduleId,
    date,
  );
}

export interface OccurrenceRow {
  date: string;
  entryId: string | null;
  skipped: boolean;
}

/** The recorded (booked or skipped) occurrences of a schedule in [from, to]: a primary-key range. */
export function recordedOccurrences(db: LedgerDb, scheduleId: string, from: string, to: string): OccurrenceRow[] {
  return db
    .allSql<{ date: string; entry_id: string | null; skipped: bigint }>(
      'SELECT date, entry_id, skipped FROM schedule_occurrences WHERE schedule_id = ? AND date >= ? AND date <= ? ORDER BY date',
      scheduleId,
      from,
      to,
    )
    .map((r) => ({ date: r.date, entryId: r.entry_id, skipped: r.skipped === 1n }));
}

/** The date of the latest booked (not skipped) occurrence. */
export function lastBookedDate(db: LedgerDb, scheduleId: string): string | null {
  const [row] = db.allSql<{ date: string }>(
    'SELECT date FROM schedule_occurrences WHERE schedule_id = ? AND skipped = 0 ORDER BY date DESC LIMIT 1',
    scheduleId,
  );
  return row?.date ?? null;
}

/** Whether a schedule books a line on the account. */
export function hasScheduleLinesOn(db: LedgerDb, accountId: string): boolean {
  return db.existsSql('SELECT 1 FROM schedule_lines WHERE account_id = ? LIMIT 1', accountId);
}

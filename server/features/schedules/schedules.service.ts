import type { LedgerDb } from '../../db/stores.ts';
import { newRowId, occurrenceEntryId } from '../../db/ids.ts';
import {
  MAX_UPCOMING_DAYS,
  MAX_UPCOMING_OCCURRENCES,
  type OccurrenceDto,
  type RunResultDto,
  type ScheduleDto,
  type ScheduleInput,
} from '../../contract/schedules.ts';
import { addDays } from '../../domain/dates.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor } from '../../domain/money.ts';
import {
  isOccurrence,
  nextOccurrence,
  occurrenceAfter,
  occurrencesBetween,
  type Recurrence,
} from '../../domain/schedules.ts';
import type { AccountDeleteGuard } from '../accounts/accounts.service.ts';
import { checkLines, createEntry } from '../journal/journal.service.ts';
import {
  claimOccurrence,
  deleteSchedule,
  findSchedule,
  hasScheduleLinesOn,
  insertSchedule,
  lastBookedDate,
  listSchedules,
  recordedOccurrences,
  schedulesDueBy,
  setNextDate,
  setOccurrenceEntry,
  updateSchedule,
} from './schedules.repository.ts';
import type { Schedule } from './schedules.model.ts';

/**
 * Scheduled entries (CONTRACT §17). A schedule keeps `next_date`, the first occurrence not yet
 * booked; booking walks from it to today, and every occurrence it books or skips gets a row whose
 * primary key (schedule, date) lets it become at most one entry, whoever books it and however often.
 */

/** Occurrences one run books at most (the rest stay due for the next run), and per transaction. */
const MAX_BOOKED_PER_RUN = 1000;
const BOOKED_PER_TRANSACTION = 100;

const recurrenceOf = (s: Pick<Schedule, 'frequency' | 'interval' | 'startDate' | 'endDate'>): Recurrence => ({
  frequency: s.frequency,
  interval: s.interval,
  startDate: s.startDate,
  endDate: s.endDate,
});

/** The sum of the debit lines, in the first line's currency: what the occurrence moves. */
function amountOf(s: Schedule): { amount: string; currency: string } {
  const currency = s.lines[0]?.currency ?? 'USD';
  const minor = s.lines
    .filter((l) => l.direction === 'DEBIT' && l.currency === currency)
    .reduce((sum, l) => sum + l.amountMinor, 0n);
  return { amount: formatMinor(minor, currency), currency };
}

/** The next occurrence that is neither booked nor skipped; bounded by the skips recorded ahead. */
function nextOpenDate(db: LedgerDb, s: Schedule): string | null {
  let date = s.nextDate;
  if (date === null) return null;
  const recorded = new Set(recordedOccurrences(db, s.id, date, '9999-12-31').map((o) => o.date));
  for (let steps = 0; date !== null && recorded.has(date) && steps <= recorded.size; steps++)
    date = occurrenceAfter(recurrenceOf(s), date);
  return date;
}

function toDto(db: LedgerDb, s: Schedule): ScheduleDto {
  return {
    id: s.id,
    name: s.name,
    memo: s.memo,
    lines: s.lines.map((l) => ({
      account_id: l.accountId,
      account_name: l.accountName,
      direction: l.direction,
      amount: formatMinor(l.amountMinor, l.currency),
      currency: l.currency,
      cost: l.cost && { amount: formatMinor(l.cost.amountMinor, l.cost.currency), currency: l.cost.currency },
    })),
    frequency: s.frequency,
    interval: s.interval,
    start_date: s.startDate,
    end_date: s.endDate,
    auto_post: s.autoPost,
    next_date: nextOpenDate(db, s),
    ...amountOf(s),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

function requireSchedule(db: LedgerDb, id: string): Schedule {
  const schedule = findSchedule(db, id);
  if (!schedule) throw new DomainError('NOT_FOUND', 'Schedule not found');
  return schedule;
}

function fieldsOf(input: ScheduleInput, nextDate: string | null, at: string) {
  return {
    name: input.name,
    memo: input.memo ?? null,
    frequency: input.frequency,
    interval: input.interval,
    startDate: input.start_date,
    endDate: input.end_date ?? null,
    autoPost: input.auto_post,
    nextDate,
    updatedAt: at,
  };
}

function recurrenceOfInput(input: ScheduleInput): Recurrence {
  return {
    frequency: input.frequency,
    interval: input.interval,
    startDate: input.start_date,
    endDate: input.end_date ?? null,
  };
}

/**
 * The schedule's lines checked as an entry's; an exchange's automatic trading lines are left out,
 * since each booked entry gets its own when it is made.
 */
function typedLines(db: LedgerDb, input: ScheduleInput) {
  return checkLines(db, input.lines).filter((l) => !l.automatic);
}

export function createSchedule(db: LedgerDb, input: ScheduleInput): ScheduleDto {
  return db.transaction(() => {
    const lines = typedLines(db, input);
    const id = newRowId();
    const next = nextOccurrence(recurrenceOfInput(input), input.start_date);
    insertSchedule(db, id, fieldsOf(input, next, new Date().toISOString()), lines);
    return toDto(db, requireSchedule(db, id));
  });
}

/**
 * Replaces a schedule. Occurrences already booked stay booked; the next one is the new rule's first
 * after the last booked (or its first at all when nothing was booked), so a change never books
 * the past again.
 */
export function replaceSchedule(db: LedgerDb, id: string, input: ScheduleInput): ScheduleDto {
  return db.transaction(() => {
    requireSchedule(db, id);
    const lines = typedLines(db, input);
    const rule = recurrenceOfInput(input);
    const last = lastBookedDate(db, id);
    const next = last === null ? nextOccurrence(rule, input.start_date) : occurrenceAfter(rule, last);
    updateSchedule(db, id, fieldsOf(input, next, new Date().toISOString()), lines);
    return toDto(db, requireSchedule(db, id));
  });
}

export function removeSchedule(db: LedgerDb, id: string): void {
  db.transaction(() => {
    requireSchedule(db, id);
    deleteSchedule(db, id);
  });
}

export function getSchedule(db: LedgerDb, id: string): ScheduleDto {
  return db.readSnapshot(() => toDto(db, requireSchedule(db, id)));
}

export function listSchedulePage(db: LedgerDb, page: number, perPage: number) {
  return db.readSnapshot(() => {
    const { items, total } = listSchedules(db, perPage, (page - 1) * perPage);
    return { items: items.map((s) => toDto(db, s)), total, page, per_page: perPage };
  });
}

export function skipOccurrence(db: LedgerDb, id: string, date: string): void {
  db.transaction(() => {
    const schedule = requireSchedule(db, id);
    if (!isOccurrence(recurrenceOf(schedule), date)) {
      throw new DomainError('VALIDATION_ERROR', `${date} is not an occurrence of this schedule`, [
        { field: 'date', message: 'is not an occurrence of this schedule' },
      ]);
    }
    const [recorded] = recordedOccurrences(db, id, date, date);
    if (recorded && !recorded.skipped) {
      throw new DomainError(
        'INVALID_STATUS',
        `The occurrence of ${date} is already booked as an entry; void or delete that entry instead`,
      );
    }
    claimOccurrence(db, id, date, true, new Date().toISOString());
  });
}

/**
 * The caller's occurrences from today to `until` (default: 30 days ahead) that are neither booked
 * nor skipped, in date order. At most MAX_UPCOMING_DAYS ahead and MAX_UPCOMING_OCCURRENCES in all.
 */
export function upcoming(db: LedgerDb, today: string, until: string | undefined, page: number, perPage: number) {
  const end = until ?? addDays(today, 30);
  const limitDate = addDays(today, MAX_UPCOMING_DAYS);
  if (end < today || end > limitDate) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `until must be from today to ${MAX_UPCOMING_DAYS} days ahead (${limitDate})`,
      [{ field: 'until', message: `must be between ${today} and ${limitDate}` }],
    );
  }
  return db.readSnapshot(() => {
    const all: OccurrenceDto[] = [];
    for (const s of schedulesDueBy(db, end)) {
      const from = s.nextDate! > today ? s.nextDate! : today;
      const recorded = new Set(recordedOccurrences(db, s.id, from, end).map((o) => o.date));
      const room = MAX_UPCOMING_OCCURRENCES - all.length;
      // the recorded ones are left out below, so they do not count against the limit
      const { dates, more } = occurrencesBetween(recurrenceOf(s), from, end, room + recorded.size);
      if (more) {
        throw new DomainError(
          'VALIDATION_ERROR',
          `More than ${MAX_UPCOMING_OCCURRENCES} occurrences fall before ${end}; choose an earlier until`,
          [{ field: 'until', message: `spans more than ${MAX_UPCOMING_OCCURRENCES} occurrences` }],
        );
      }
      const { amount, currency } = amountOf(s);
      for (const date of dates) {
        if (!recorded.has(date))
          all.push({ schedule_id: s.id, date, name: s.name, amount, currency, auto_post: s.autoPost });
      }
    }
    all.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.name.localeCompare(b.name)));
    const start = (page - 1) * perPage;
    return { items: all.slice(start, start + perPage), total: all.length, page, per_page: perPage, until: end };
  });
}

interface Booked {
  created: string[];
  failed: RunResultDto['failed'][number] | undefined;
  /** the schedule still has due occurrences */
  more: boolean;
}

/**
 * Books up to `limit` due occurrences of one schedule, in one transaction. Each occurrence is
 * claimed first; an occurrence someone else already claimed is passed over. One that cannot be
 * booked (an account deactivated since) is rolled back alone and stops this schedule for now.
 */
function bookSchedule(db: LedgerDb, id: string, today: string, limit: number): Booked {
  return db.transaction(() => {
    const schedule = findSchedule(db, id);
    const out: Booked = { created: [], failed: undefined, more: false };
    if (!schedule) return out;
    const rule = recurrenceOf(schedule);
    let date = schedule.nextDate;
    while (date !== null && date <= today && out.created.length < limit) {
      const at = date;
      try {
        // a nested transaction is a savepoint: a failure undoes this occurrence only
        const entryId = db.transaction(() => {
          if (!claimOccurrence(db, schedule.id, at, false, new Date().toISOString())) return null;
          const entry = createEntry(
            db,
            {
              entry_date: at,
              memo: schedule.memo ?? schedule.name,
              auto_post: schedule.autoPost,
              lines: schedule.lines.map((l) => ({
                account_id: l.accountId,
                direction: l.direction,
                amount: formatMinor(l.amountMinor, l.currency),
                currency: l.currency,
                cost: l.cost && { amount: formatMinor(l.cost.amountMinor, l.cost.currency), currency: l.cost.currency },
              })),
            },
            'schedule',
            occurrenceEntryId(schedule.id, at),
          );
          setOccurrenceEntry(db, schedule.id, at, entry.id);
          return entry.id;
        });
        if (entryId !== null) out.created.push(entryId);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'LEDGER_BUSY') throw error;
        out.failed = { schedule_id: schedule.id, date: at, code: error.code, detail: error.message };
        break;
      }
      date = occurrenceAfter(rule, at);
    }
    setNextDate(db, schedule.id, date);
    out.more = out.failed === undefined && date !== null && date <= today;
    return out;
  });
}

/**
 * Books every due occurrence (date ≤ today) of the ledger's schedules: entries with source_type
 * `schedule`, posted when the schedule says auto_post, else drafts. At most MAX_BOOKED_PER_RUN a
 * run, in transactions of BOOKED_PER_TRANSACTION with a turn for other requests between them.
 */
export async function bookDue(
  db: LedgerDb,
  today: string,
  yieldTurn: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
): Promise<RunResultDto> {
  const result: RunResultDto = { created: [], failed: [], more_due: false };
  const due = db.readSnapshot(() => schedulesDueBy(db, today).map((s) => s.id));
  for (const id of due) {
    for (;;) {
      const room = MAX_BOOKED_PER_RUN - result.created.length;
      if (room <= 0) {
        result.more_due = true;
        return result;
      }
      const booked = bookSchedule(db, id, today, Math.min(room, BOOKED_PER_TRANSACTION));
      result.created.push(...booked.created);
      if (booked.failed) result.failed.push(booked.failed);
      if (!booked.more) break;
      await yieldTurn();
    }
  }
  return result;
}

/** An account a schedule books on is not deleted: its lines would point at nothing (accounts' AccountDeleteGuard). */
export const schedulesKeepTheirAccounts: AccountDeleteGuard = (db, accountId) =>
  hasScheduleLinesOn(db, accountId)
    ? new DomainError('HAS_ENTRIES', 'The account is used by a scheduled entry; change or delete the schedule first')
    : null;

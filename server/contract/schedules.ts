import { z } from 'zod';
import { FREQUENCIES } from '../domain/schedules.ts';
import { DIRECTIONS } from '../domain/double-entry.ts';
import { isoDate, isoDateTime, limitedText, nameText, pageOf, pagination, resourceId } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';
import { lineInput, MAX_LINES_PER_ENTRY } from './journal.ts';

export const MAX_INTERVAL = 1000;
/** How far ahead `upcoming` looks at most, and how many occurrences one answer may span. */
export const MAX_UPCOMING_DAYS = 366;
export const MAX_UPCOMING_OCCURRENCES = 1000;

const scheduleFields = {
  name: nameText(TEXT_LIMITS.scheduleName),
  memo: limitedText(TEXT_LIMITS.memo).nullable().optional(),
  // fewer than two lines is TOO_FEW_LINES, checked by the service as for an entry
  lines: z.array(lineInput).max(MAX_LINES_PER_ENTRY),
  frequency: z.enum(FREQUENCIES),
  interval: z.number().int().min(1).max(MAX_INTERVAL).default(1),
  start_date: isoDate,
  end_date: isoDate.nullable().optional(),
  auto_post: z.boolean().default(false),
};

const endAfterStart = (b: { start_date: string; end_date?: string | null | undefined }) =>
  b.end_date === undefined || b.end_date === null || b.end_date >= b.start_date;
const endMessage = { message: 'must not be before start_date', path: ['end_date'] };

export const scheduleBody = z.strictObject(scheduleFields).refine(endAfterStart, endMessage);

export const skipBody = z.strictObject({ date: isoDate });

export const listSchedulesQuery = z.strictObject({ ...pagination });

export const upcomingQuery = z.strictObject({ until: isoDate.optional(), ...pagination });

export const scheduleLine = z.object({
  account_id: resourceId,
  account_name: z.string(),
  direction: z.enum(DIRECTIONS),
  amount: z.string(),
  currency: z.string(),
  /** an exchange: what the line costs in another currency (its entries get the automatic trading lines) */
  cost: z.object({ amount: z.string(), currency: z.string() }).nullable(),
});

export const schedule = z
  .object({
    id: resourceId,
    name: z.string(),
    memo: z.string().nullable(),
    lines: z.array(scheduleLine),
    frequency: z.enum(FREQUENCIES),
    interval: z.number().int(),
    start_date: isoDate,
    end_date: isoDate.nullable(),
    auto_post: z.boolean(),
    /** the next occurrence not yet booked or skipped; null once the schedule has ended */
    next_date: isoDate.nullable(),
    /** the sum of the debit lines, in the first line's currency */
    amount: z.string(),
    currency: z.string(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Schedule' });

export const schedulePage = pageOf(schedule);

export const occurrence = z
  .object({
    schedule_id: resourceId,
    date: isoDate,
    name: z.string(),
    amount: z.string(),
    currency: z.string(),
    auto_post: z.boolean(),
  })
  .meta({ id: 'ScheduleOccurrence' });

export const upcomingPage = pageOf(occurrence).extend({ until: isoDate });

export const runResult = z.object({
  /** ids of the entries booked, in date order */
  created: z.array(resourceId),
  /** occurrences that could not be booked (an account deactivated since); they stay due */
  failed: z.array(z.object({ schedule_id: resourceId, date: isoDate, code: z.string(), detail: z.string() })),
  /** more occurrences were due than one run books; the next run books them */
  more_due: z.boolean(),
});

export type ScheduleInput = z.infer<typeof scheduleBody>;
export type ScheduleDto = z.infer<typeof schedule>;
export type OccurrenceDto = z.infer<typeof occurrence>;
export type RunResultDto = z.infer<typeof runResult>;

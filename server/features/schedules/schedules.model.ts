import type { Cost } from '../../domain/exchange.ts';
import type { Direction } from '../../domain/double-entry.ts';
import type { Minor } from '../../domain/money.ts';
import type { Frequency } from '../../domain/schedules.ts';

/** A scheduled entry, its lines, and when it next comes due. */
export interface ScheduleLine {
  accountId: string;
  accountName: string;
  direction: Direction;
  amountMinor: Minor;
  currency: string;
  /** an exchange's cost in another currency, as on an entry's line */
  cost: Cost | null;
}

/** What a schedule's owner sets, and when it next comes due. */
export interface ScheduleFields {
  name: string;
  memo: string | null;
  frequency: Frequency;
  interval: number;
  startDate: string;
  endDate: string | null;
  autoPost: boolean;
  nextDate: string | null;
  updatedAt: string;
}

export interface Schedule extends ScheduleFields {
  id: string;
  createdAt: string;
  lines: ScheduleLine[];
}

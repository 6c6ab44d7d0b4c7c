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

export interface Schedule {
  id: string;
  name: string;
  memo: string | null;
  frequency: Frequency;
  interval: number;
  startDate: string;
  endDate: string | null;
  autoPost: boolean;
  nextDate: string | null;
  createdAt: string;
  updatedAt: string;
  lines: ScheduleLine[];
}

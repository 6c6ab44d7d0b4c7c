import type { LedgerLease } from '../../db/stores.ts';
import { localToday } from '../../domain/dates.ts';
import { bookDue } from './schedules.service.ts';

/**
 * Books the due occurrences of every user's schedules: when the server starts, and again each time
 * the calendar day changes while it runs. Failures are logged, never thrown; a round still running
 * when the next is asked for is shared, not doubled.
 */

export interface BookingDeps {
  /** Users that have a ledger file. */
  users(): string[];
  /** A lease on the user's ledger, migrated: it stays open until released (booking yields turns). */
  ledger(userId: string): Promise<LedgerLease>;
  /** Resolves when the user's long jobs (imports, runs) are done, so that booking does not meet their lock. */
  idle(userId: string): Promise<void>;
  now: () => number;
  log: (line: string) => void;
}

export class ScheduleBooking {
  private readonly deps: BookingDeps;
  private running: Promise<void> | undefined;

  constructor(deps: BookingDeps) {
    this.deps = deps;
  }

  /** One round over every user's ledger. */
  bookAll(): Promise<void> {
    this.running ??= (async () => {
      const today = localToday(new Date(this.deps.now()));
      for (const userId of this.deps.users()) {
        try {
          await this.deps.idle(userId);
          const lease = await this.deps.ledger(userId);
          const { created, failed } = await bookDue(lease.db, today).finally(lease.release);
          for (const f of failed)
            this.deps.log(`schedule ${f.schedule_id} of ${userId} on ${f.date} not booked: ${f.detail}`);
          if (created.length > 0) this.deps.log(`booked ${created.length} scheduled entries for ${userId}`);
        } catch (error) {
          this.deps.log(
            `booking schedules of ${userId} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}

/** Starts the booking (given a round to run) and answers how to stop it; stop waits for a round under way. */
export type BookingTrigger = (book: () => Promise<void>) => () => Promise<void>;

/**
 * The server's own trigger: a round at once, then a look every `intervalMs` (an hour) whether the
 * day has changed since the last round. The timer is unref'd, so it never keeps the process alive.
 */
export function dailyBooking(options: { now: () => number; intervalMs?: number }): BookingTrigger {
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  return (book) => {
    let lastDay = localToday(new Date(options.now()));
    let round: Promise<void> = book();
    const timer = setInterval(() => {
      const today = localToday(new Date(options.now()));
      if (today === lastDay) return;
      lastDay = today;
      round = round.then(book);
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await round;
    };
  };
}

import type { LedgerDb } from '../../db/stores.ts';
import { isMonth } from '../../domain/budgets.ts';
import { addDays, localToday, monthOf } from '../../domain/dates.ts';
import type { ToolDefinition } from '../../llm/model.ts';
import { upcoming } from '../schedules/schedules.service.ts';
import { getBudget } from './budgets.service.ts';

/**
 * The advisor's read-only tool for budgets and bills: "how much can I still spend on dining out
 * this month?" is answered from the budget's own figures, never guessed.
 */

const MAX_DAYS = 60;

export const BUDGET_TOOL: ToolDefinition = {
  type: 'function',
  function: {
    name: 'get_budget_and_upcoming_bills',
    description:
      "A month's budget per account (budgeted, spent, remaining, carried in, left to spend; parent accounts include their sub-accounts) and the scheduled bills due in the next days. `left_to_spend` is what can still be spent this month.",
    parameters: {
      type: 'object',
      properties: {
        month: { type: 'string', description: 'YYYY-MM, default this month' },
        account: { type: 'string', description: 'only budget lines whose account name contains this' },
        days: {
          type: 'integer',
          description: `upcoming bills over this many days from today, default 14, at most ${MAX_DAYS}`,
        },
      },
    },
  },
};

export function getBudgetAndUpcomingBills(db: LedgerDb, args: Record<string, unknown>, today: string = localToday()) {
  const month = typeof args.month === 'string' && isMonth(args.month) ? args.month : monthOf(today);
  const days =
    typeof args.days === 'number' && Number.isInteger(args.days) ? Math.min(Math.max(args.days, 1), MAX_DAYS) : 14;
  const budget = getBudget(db, month);
  const query = typeof args.account === 'string' ? args.account.trim().toLowerCase() : '';
  const lines = query ? budget.lines.filter((l) => l.name.toLowerCase().includes(query)) : budget.lines;
  const until = addDays(today, days);
  const bills = upcoming(db, today, until, 1, 100);
  return {
    month,
    ...(query && lines.length === 0
      ? {
          note: `no budget line of ${month} matches "${String(args.account)}"`,
          budgeted_accounts: budget.lines.map((l) => l.name),
        }
      : {}),
    budget_lines: lines.map((l) => ({
      account: l.name,
      type: l.type,
      currency: l.currency,
      budgeted: l.budgeted,
      spent: l.actual,
      remaining: l.remaining,
      carried_in: l.carried_in,
      left_to_spend: l.available,
    })),
    totals: budget.totals.map((t) => ({
      currency: t.currency,
      type: t.type,
      budgeted: t.budgeted,
      spent: t.actual,
      left_to_spend: t.available,
    })),
    upcoming_bills: {
      from: today,
      until,
      count: bills.total,
      items: bills.items.map((o) => ({ date: o.date, name: o.name, amount: o.amount, currency: o.currency })),
    },
  };
}

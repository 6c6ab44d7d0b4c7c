import type { LedgerDb } from '../../db/stores.ts';
import { isMonth } from '../../domain/budgets.ts';
import { addDays, localToday, monthOf } from '../../domain/dates.ts';
import { groupDecimal } from '../../domain/money.ts';
import { upcoming } from '../schedules/schedules.service.ts';
import { getBudget } from './budgets.service.ts';

/**
 * The advisor's read-only tool for budgets and bills: "how much can I still spend on dining out
 * this month?" is answered from the budget's own figures, never guessed.
 */

/** The most days of upcoming bills one call lists. */
export const MAX_BILL_DAYS = 60;

/** What the model is told the tool does (its arguments: chat.tools.ts). */
export const BUDGET_TOOL_DESCRIPTION =
  "A month's budget per account (budgeted, spent, remaining, carried in, left to spend; parent accounts include their sub-accounts) and the scheduled bills due in the next days. `left_to_spend` is what can still be spent this month.";

export function getBudgetAndUpcomingBills(db: LedgerDb, args: Record<string, unknown>, today: string = localToday()) {
  const month = typeof args.month === 'string' && isMonth(args.month) ? args.month : monthOf(today);
  const days =
    typeof args.days === 'number' && Number.isInteger(args.days) ? Math.min(Math.max(args.days, 1), MAX_BILL_DAYS) : 14;
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

/** Figures grouped as everywhere in the app ("6,145.67"). */
const m = groupDecimal;

const WORDS = {
  en: {
    left: (name: string, left: string, c: string, budgeted: string, spent: string, month: string) =>
      `${name}: ${left} ${c} left to spend in ${month} (budget ${budgeted}, spent ${spent}).`,
    total: (left: string, c: string, budgeted: string, month: string) =>
      `In all, ${left} ${c} is left to spend in ${month} of a ${budgeted} ${c} budget.`,
    noBudget: (month: string) => `There is no budget for ${month} yet: make one under Budget.`,
    notBudgeted: (names: string) => `${names} has no budget line this month.`,
    billsHead: (until: string) => `Bills due until ${until}:`,
    bill: (date: string, name: string, amount: string, c: string) => `- ${date} ${name}: ${amount} ${c}`,
    noBills: (until: string) => `No scheduled bills are due until ${until}.`,
  },
  zh: {
    left: (name: string, left: string, c: string, budgeted: string, spent: string, month: string) =>
      `${name}：${month} 还可花 ${left} ${c}（预算 ${budgeted}，已花 ${spent}）。`,
    total: (left: string, c: string, budgeted: string, month: string) =>
      `${month} 的总预算 ${budgeted} ${c} 中还剩 ${left} ${c} 可花。`,
    noBudget: (month: string) => `${month} 还没有预算：请在“预算”中制定。`,
    notBudgeted: (names: string) => `${names} 本月没有预算。`,
    billsHead: (until: string) => `截至 ${until} 到期的账单：`,
    bill: (date: string, name: string, amount: string, c: string) => `- ${date} ${name}：${amount} ${c}`,
    noBills: (until: string) => `截至 ${until} 没有到期的定期账单。`,
  },
};

/**
 * The built-in advisor's answer (no model) to a budget or bills question, from the same tool:
 * what is left of the named accounts' budgets (else of the whole month), and the bills due soon.
 */
export function builtinBudgetAnswer(
  db: LedgerDb,
  language: 'en' | 'zh',
  mentioned: readonly string[],
  withBills: boolean,
): string[] {
  const w = WORDS[language];
  const figures = getBudgetAndUpcomingBills(db, {});
  const out: string[] = [];
  if (figures.budget_lines.length === 0) out.push(w.noBudget(figures.month));
  else {
    const named = figures.budget_lines.filter((l) => mentioned.includes(l.account));
    for (const l of named)
      out.push(w.left(l.account, m(l.left_to_spend), l.currency, m(l.budgeted), m(l.spent), figures.month));
    const missing = mentioned.filter((m) => !named.some((l) => l.account === m));
    if (missing.length > 0 && named.length === 0) out.push(w.notBudgeted(missing.join(', ')));
    if (named.length === 0)
      for (const t of figures.totals.filter((t) => t.type === 'EXPENSE'))
        out.push(w.total(m(t.left_to_spend), t.currency, m(t.budgeted), figures.month));
  }
  if (withBills) {
    const { until, items } = figures.upcoming_bills;
    if (items.length === 0) out.push(w.noBills(until));
    else out.push(w.billsHead(until), ...items.map((b) => w.bill(b.date, b.name, m(b.amount), b.currency)));
  }
  return out;
}

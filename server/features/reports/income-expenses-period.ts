import { formatMinor, type Minor } from '../../domain/money.ts';

/** One period of the income-and-expenses series, its figures formatted in their currency. */
export function incomeExpensesPeriod(
  span: { start: string; end: string },
  income: Minor,
  expenses: Minor,
  currency: string,
) {
  return {
    start_date: span.start,
    end_date: span.end,
    income: formatMinor(income, currency),
    expenses: formatMinor(expenses, currency),
    net: formatMinor(income - expenses, currency),
  };
}

import type { LedgerDb } from '../../server/db/stores.ts';
import { addDays, periods, type Interval } from '../../server/domain/dates.ts';
import { normalBalance } from '../../server/domain/double-entry.ts';
import { formatMinor, type Minor } from '../../server/domain/money.ts';
import { allAccounts, type Account } from '../../server/features/accounts/accounts.repository.ts';
import { ConvertedSum, RateBook } from '../../server/features/prices/rate-book.ts';
import { sumRange, type Pair } from '../../server/features/totals/totals.repository.ts';

/**
 * The net-worth series as it was before it read each period's sums at once (commit ee2715f): a
 * range sum of the aggregates per period, every account's balance per point, converted account by
 * account. Kept verbatim, only renamed (and the range taken as resolved); `currenciesOf` and
 * `money` are the report modules' own. It is the reference `netWorthSeries` is tested against:
 * the same answer for every book, range and interval, in each currency and converted.
 */

function currenciesOf(accounts: readonly Account[]): string[] {
  return [...new Set(accounts.map((a) => a.currency))].sort();
}

const money = (book: RateBook, sum: ConvertedSum) => formatMinor(sum.result(), book.target);

function balanceOf(account: Account, totals: Map<string, Pair>): Minor {
  const t = totals.get(account.id);
  return t ? normalBalance(account.type, t.a, t.b) : 0n;
}
export function netWorthSeriesBefore(db: LedgerDb, start: string, end: string, interval: Interval, convertTo?: string) {
  const spans = periods(start, end, interval, Number.MAX_SAFE_INTEGER);
  const accounts = allAccounts(db).filter((a) => a.type === 'ASSET' || a.type === 'LIABILITY');
  const running = sumRange(db, 'account', null, addDays(start, -1));
  const points: { date: string; balances: Map<string, Pair> }[] = [];
  for (const span of spans) {
    for (const [id, pair] of sumRange(db, 'account', span.start, span.end)) {
      const sum = running.get(id) ?? { a: 0n, b: 0n };
      running.set(id, { a: sum.a + pair.a, b: sum.b + pair.b });
    }
    points.push({ date: span.end, balances: new Map([...running].map(([id, p]) => [id, { ...p }])) });
  }
  return {
    start_date: start,
    end_date: end,
    interval,
    ...(convertTo && convertedNetWorthBefore(db, points, end, convertTo)),
    currencies: currenciesOf(accounts).map((currency) => ({
      currency,
      series: points.map(({ date, balances }) => {
        let assets = 0n;
        let liabilities = 0n;
        for (const account of accounts) {
          if (account.currency !== currency) continue;
          if (account.type === 'ASSET') assets += balanceOf(account, balances);
          else liabilities += balanceOf(account, balances);
        }
        return {
          date,
          assets: formatMinor(assets, currency),
          liabilities: formatMinor(liabilities, currency),
          net_worth: formatMinor(assets - liabilities, currency),
        };
      }),
    })),
  };
}

function balancesAt(
  db: LedgerDb,
  book: RateBook,
  accounts: readonly Account[],
  asOf: string,
  totals?: Map<string, Pair>,
) {
  const sums = totals ?? sumRange(db, 'account', null, asOf);
  const out = new Map<string, ConvertedSum>();
  for (const account of accounts) {
    const t = sums.get(account.id);
    const sum = new ConvertedSum(book);
    sum.add(t ? normalBalance(account.type, t.a, t.b) : 0n, account.currency, asOf);
    out.set(account.id, sum);
  }
  return out;
}
function convertedNetWorthBefore(
  db: LedgerDb,
  points: readonly { date: string; balances: Map<string, Pair> }[],
  end: string,
  target: string,
) {
  const book = new RateBook(db, target, points[0]?.date ?? end, end);
  const accounts = allAccounts(db).filter((a) => a.type === 'ASSET' || a.type === 'LIABILITY');
  const typeOf = new Map(accounts.map((a) => [a.id, a.type]));
  // each period end stands on its own: a currency without a rate there is left out of that point only
  const sums = points.map(({ date, balances }) => {
    const point = book.scope();
    const assets = new ConvertedSum(point);
    const liabilities = new ConvertedSum(point);
    for (const [id, sum] of balancesAt(db, point, accounts, date, balances))
      (typeOf.get(id) === 'ASSET' ? assets : liabilities).addAll(sum);
    return { date, point, assets, liabilities };
  });
  return {
    converted: {
      currency: target,
      series: sums.map(({ date, point, assets, liabilities }) => ({
        date,
        assets: money(point, assets),
        liabilities: money(point, liabilities),
        // the difference of the two figures printed beside it (docs/multi-currency.md)
        net_worth: formatMinor(assets.result() - liabilities.result(), target),
      })),
    },
    missing_rates: book.missingRates(),
  };
}

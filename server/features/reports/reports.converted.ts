import type { LedgerDb } from '../../db/stores.ts';
import type { TreeNode } from '../../contract/reports.ts';
import { normalBalance, type AccountType } from '../../domain/double-entry.ts';
import { formatMinor } from '../../domain/money.ts';
import { allAccounts, type Account } from '../accounts/accounts.repository.ts';
import { tradingAccountIds } from '../exchange/trading-accounts.ts';
import { ConvertedSum, RateBook } from '../prices/rate-book.ts';
import { sumRange } from '../totals/totals.repository.ts';
import type { WorthPoint } from './reports.service.ts';

/**
 * Reports in one currency (CONTRACT §16): each figure per currency, converted at its own date and
 * rounded once. Balances, trial balance and balance sheet convert at `as_of`; the net-worth series
 * at each period end; the income statement and cash flow at each entry's date, from the
 * maintained per-account day totals (an account holds one currency, so a day's total is that
 * day's figure in it) times one rate per currency and day. Accounts in the target currency need no
 * rate and are read as the per-currency reports read them. A figure of zero needs no rate.
 */

type Kind = 'account' | 'cash_flow';

/** Per account, its day totals converted at each day's rate (accounts in the target: one range sum). */
function convertedByDay(
  db: LedgerDb,
  book: RateBook,
  kind: Kind,
  accounts: readonly Account[],
  from: string,
  to: string,
  into: (account: Account, pair: { a: ConvertedSum; b: ConvertedSum }) => void,
): void {
  const home = sumRange(db, kind, from, to);
  const table = kind === 'account' ? 'account_day_totals' : 'cash_flow_day_totals';
  const [a, b] = kind === 'account' ? ['debit_minor', 'credit_minor'] : ['in_minor', 'out_minor'];
  for (const account of accounts) {
    const pair = { a: new ConvertedSum(book), b: new ConvertedSum(book) };
    if (account.currency === book.target) {
      const sums = home.get(account.id);
      pair.a.add(sums?.a ?? 0n, account.currency, to);
      pair.b.add(sums?.b ?? 0n, account.currency, to);
    } else {
      const rows = db.allSql<{ day: string; a: bigint; b: bigint }>(
        `SELECT day, ${a} AS a, ${b} AS b FROM ${table} WHERE account_id = ? AND day >= ? AND day <= ?`,
        account.id,
        from,
        to,
      );
      for (const row of rows) {
        pair.a.add(row.a, account.currency, row.day);
        pair.b.add(row.b, account.currency, row.day);
      }
    }
    into(account, pair);
  }
}

/** Each account's balance as of a date, converted at that date's rates. */
function balancesAt(db: LedgerDb, book: RateBook, accounts: readonly Account[], asOf: string) {
  const sums = sumRange(db, 'account', null, asOf);
  const out = new Map<string, ConvertedSum>();
  for (const account of accounts) {
    const t = sums.get(account.id);
    const sum = new ConvertedSum(book);
    sum.add(t ? normalBalance(account.type, t.a, t.b) : 0n, account.currency, asOf);
    out.set(account.id, sum);
  }
  return out;
}

/** Account trees of some types across every currency, with own and rolled-up converted balances (call once every rate is looked up). */
function trees(
  book: RateBook,
  accounts: readonly Account[],
  types: readonly AccountType[],
  own: ReadonlyMap<string, ConvertedSum>,
  leaveOut: ReadonlySet<string> = new Set(),
): { roots: TreeNode[]; total: ConvertedSum } {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  // accounts of a currency without its rate are left out, never shown as zero
  const members = accounts.filter((a) => types.includes(a.type) && !leaveOut.has(a.id) && !book.isMissing(a.currency));
  const memberIds = new Set(members.map((a) => a.id));
  const children = new Map<string | null, Account[]>();
  for (const account of members) {
    let parentId = account.parentId;
    while (parentId !== null && !memberIds.has(parentId)) parentId = byId.get(parentId)?.parentId ?? null;
    const list = children.get(parentId) ?? [];
    list.push(account);
    children.set(parentId, list);
  }
  const build = (account: Account): { node: TreeNode; total: ConvertedSum } => {
    const kids = (children.get(account.id) ?? []).map(build);
    const mine = own.get(account.id) ?? new ConvertedSum(book);
    const total = new ConvertedSum(book).addAll(mine);
    for (const k of kids) total.addAll(k.total);
    return {
      node: {
        account_id: account.id,
        name: account.name,
        type: account.type,
        balance: formatMinor(mine.result(), book.target),
        total: formatMinor(total.result(), book.target),
        children: kids.map((k) => k.node),
      },
      total,
    };
  };
  const built = (children.get(null) ?? []).map(build);
  const total = new ConvertedSum(book);
  for (const r of built) total.addAll(r.total);
  return { roots: built.map((r) => r.node), total };
}

const money = (book: RateBook, sum: ConvertedSum) => formatMinor(sum.result(), book.target);

export function convertedTrialBalance(db: LedgerDb, asOf: string, target: string) {
  const book = new RateBook(db, target, asOf, asOf);
  const accounts = allAccounts(db);
  const totals = sumRange(db, 'account', null, asOf);
  const nets: { account: Account; net: ConvertedSum }[] = [];
  for (const account of accounts) {
    const t = totals.get(account.id);
    if (!t || (t.a === 0n && t.b === 0n)) continue;
    const net = new ConvertedSum(book);
    net.add(t.a - t.b, account.currency, asOf);
    nets.push({ account, net });
  }
  const debit = new ConvertedSum(book);
  const credit = new ConvertedSum(book);
  const rows = [];
  for (const { account, net } of nets) {
    if (book.isMissing(account.currency)) continue;
    const value = net.result();
    if (value >= 0n) debit.addAll(net);
    else credit.addAll(net);
    rows.push({
      account_id: account.id,
      name: account.name,
      type: account.type,
      debit: formatMinor(value > 0n ? value : 0n, target),
      credit: formatMinor(value < 0n ? -value : 0n, target),
    });
  }
  const totalCredit = -credit.result();
  return {
    converted: {
      currency: target,
      rows,
      total_debit: money(book, debit),
      total_credit: formatMinor(totalCredit, target),
    },
    missing_rates: book.missingRates(),
  };
}

/**
 * The balance sheet in one currency at `as_of`. The currency trading accounts are not shown as
 * equity: their converted sum is what the foreign balances bought by exchanges are worth now less
 * what they cost, shown as `unrealized_gains`, the figure that makes the rounded sheet balance.
 */
export function convertedBalanceSheet(db: LedgerDb, asOf: string, target: string) {
  const book = new RateBook(db, target, asOf, asOf);
  const accounts = allAccounts(db);
  const own = balancesAt(db, book, accounts, asOf);
  const trading = tradingAccountIds(db);
  const assets = trees(book, accounts, ['ASSET'], own);
  const liabilities = trees(book, accounts, ['LIABILITY'], own);
  const equity = trees(book, accounts, ['EQUITY'], own, trading);
  const income = trees(book, accounts, ['INCOME'], own).total;
  const expenses = trees(book, accounts, ['EXPENSE'], own).total;
  const retained = new ConvertedSum(book).addAll(income).addAll(expenses, -1n);
  const totalAssets = assets.total.result();
  const totalLiabilities = liabilities.total.result();
  const totalEquity = equity.total.result();
  const retainedEarnings = retained.result();
  const gains = totalAssets - totalLiabilities - totalEquity - retainedEarnings;
  return {
    converted: {
      currency: target,
      assets: assets.roots,
      liabilities: liabilities.roots,
      equity: equity.roots,
      retained_earnings: formatMinor(retainedEarnings, target),
      unrealized_gains: formatMinor(gains, target),
      total_assets: formatMinor(totalAssets, target),
      total_liabilities: formatMinor(totalLiabilities, target),
      total_equity: formatMinor(totalEquity, target),
      net_worth: formatMinor(totalAssets - totalLiabilities, target),
    },
    missing_rates: book.missingRates(),
  };
}

export function convertedIncomeStatement(db: LedgerDb, start: string, end: string, target: string) {
  const book = new RateBook(db, target, start, end);
  const accounts = allAccounts(db);
  const flows = accounts.filter((a) => a.type === 'INCOME' || a.type === 'EXPENSE');
  const own = new Map<string, ConvertedSum>();
  convertedByDay(db, book, 'account', flows, start, end, (account, { a, b }) => {
    // income is credit-normal, expenses debit-normal
    own.set(account.id, account.type === 'INCOME' ? b.addAll(a, -1n) : a.addAll(b, -1n));
  });
  const income = trees(book, accounts, ['INCOME'], own);
  const expenses = trees(book, accounts, ['EXPENSE'], own);
  return {
    converted: {
      currency: target,
      income: income.roots,
      expenses: expenses.roots,
      total_income: money(book, income.total),
      total_expenses: money(book, expenses.total),
      net_income: money(book, new ConvertedSum(book).addAll(income.total).addAll(expenses.total, -1n)),
    },
    missing_rates: book.missingRates(),
  };
}

/**
 * Assets, liabilities and net worth at each period end, converted at that day's rates. A currency's
 * balances share the point's rate, so each side converts their sum; a side whose balances cancel out
 * still needs the rate, as each balance that is not zero is a figure.
 */
export function convertedNetWorth(db: LedgerDb, points: readonly WorthPoint[], end: string, target: string) {
  const book = new RateBook(db, target, points[0]?.date ?? end, end);
  const dates = points.map((p) => p.date);
  for (const currency of points[0]?.byCurrency.keys() ?? []) book.lookUpAhead(currency, dates);
  // each period end stands on its own: a currency without a rate there is left out of that point only
  const sums = points.map(({ date, byCurrency }) => {
    const point = book.scope();
    const assets = new ConvertedSum(point);
    const liabilities = new ConvertedSum(point);
    for (const [currency, sides] of byCurrency) {
      for (const [side, into] of [
        [sides.assets, assets],
        [sides.liabilities, liabilities],
      ] as const) {
        if (side.nonZero > 0 && point.rate(currency, date) !== null) into.add(side.sum, currency, date);
      }
    }
    return { date, point, assets, liabilities };
  });
  return {
    converted: {
      currency: target,
      series: sums.map(({ date, point, assets, liabilities }) => ({
        date,
        assets: money(point, assets),
        liabilities: money(point, liabilities),
        net_worth: money(point, new ConvertedSum(point).addAll(assets).addAll(liabilities, -1n)),
      })),
    },
    missing_rates: book.missingRates(),
  };
}

/** Money into and out of ASSET accounts per period, by counter account, each day's flow at that day's rate. */
export function convertedCashFlow(
  db: LedgerDb,
  spans: readonly { start: string; end: string }[],
  end: string,
  target: string,
) {
  const book = new RateBook(db, target, spans[0]?.start ?? end, end);
  const accounts = allAccounts(db);
  const perPeriod = spans.map((span) => {
    const byAccount: { account: Account; moneyIn: ConvertedSum; moneyOut: ConvertedSum }[] = [];
    convertedByDay(db, book, 'cash_flow', accounts, span.start, span.end, (account, { a, b }) => {
      if (a.isZero && b.isZero) return;
      byAccount.push({ account, moneyIn: a, moneyOut: b });
    });
    return { span, byAccount };
  });
  const totalIn = new ConvertedSum(book);
  const totalOut = new ConvertedSum(book);
  const periods = perPeriod.map(({ span, byAccount }) => {
    const moneyIn = new ConvertedSum(book);
    const moneyOut = new ConvertedSum(book);
    for (const f of byAccount) {
      moneyIn.addAll(f.moneyIn);
      moneyOut.addAll(f.moneyOut);
    }
    totalIn.addAll(moneyIn);
    totalOut.addAll(moneyOut);
    return {
      start_date: span.start,
      end_date: span.end,
      money_in: money(book, moneyIn),
      money_out: money(book, moneyOut),
      net: money(book, new ConvertedSum(book).addAll(moneyIn).addAll(moneyOut, -1n)),
      by_account: byAccount
        .filter((f) => !book.isMissing(f.account.currency))
        .map((f) => ({
          account_id: f.account.id,
          name: f.account.name,
          type: f.account.type,
          money_in: money(book, f.moneyIn),
          money_out: money(book, f.moneyOut),
        })),
    };
  });
  return {
    converted: {
      currency: target,
      periods,
      total_in: money(book, totalIn),
      total_out: money(book, totalOut),
      net: money(book, new ConvertedSum(book).addAll(totalIn).addAll(totalOut, -1n)),
    },
    missing_rates: book.missingRates(),
  };
}

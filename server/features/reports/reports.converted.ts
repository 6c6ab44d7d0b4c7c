import type { LedgerDb } from '../../db/stores.ts';
import type { TreeNode } from '../../contract/reports.ts';
import { normalBalance, type AccountType } from '../../domain/double-entry.ts';
import { formatMinor } from '../../domain/money.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { tradingAccountIds } from '../exchange/trading-accounts.ts';
import { ConvertedSum, RateBook } from '../prices/rate-book.ts';
import { sumRange } from '../totals/totals.queries.ts';
import { RangeFlows } from './range-flows.ts';
import type { WorthPoint } from './reports.model.ts';

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
function balancesAt(
  db: LedgerDb,
  book: RateBook,
  accounts: readonly Account[],
  asOf: string,
  market: ReadonlyMap<string, bigint> = new Map(),
) {
  const sums = sumRange(db, 'account', null, asOf);
  const out = new Map<string, ConvertedSum>();
  for (const account of accounts) {
    const t = sums.get(account.id);
    const sum = new ConvertedSum(book);
    sum.add((t ? normalBalance(account.type, t.a, t.b) : 0n) + (market.get(account.id) ?? 0n), account.currency, asOf);
    out.set(account.id, sum);
  }
  return out;
}

/**
 * Account trees of some types across every currency (call once every rate is looked up). Each
 * account's own balance is converted and rounded once; a parent's total and the trees' total are
 * the sums of the rounded figures below them, so that a printed table adds up.
 */
function trees(
  book: RateBook,
  accounts: readonly Account[],
  types: readonly AccountType[],
  own: ReadonlyMap<string, ConvertedSum>,
  leaveOut: ReadonlySet<string> = new Set(),
): { roots: TreeNode[]; total: bigint } {
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
  const build = (account: Account): { node: TreeNode; total: bigint } => {
    const kids = (children.get(account.id) ?? []).map(build);
    const mine = own.get(account.id)?.result() ?? 0n;
    const total = kids.reduce((sum, k) => sum + k.total, mine);
    return {
      node: {
        account_id: account.id,
        name: account.name,
        type: account.type,
        balance: formatMinor(mine, book.target),
        total: formatMinor(total, book.target),
        children: kids.map((k) => k.node),
      },
      total,
    };
  };
  const built = (children.get(null) ?? []).map(build);
  return { roots: built.map((r) => r.node), total: built.reduce((sum, r) => sum + r.total, 0n) };
}

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
  let debit = 0n;
  let credit = 0n;
  const rows = [];
  for (const { account, net } of nets) {
    if (book.isMissing(account.currency)) continue;
    const value = net.result();
    if (value > 0n) debit += value;
    else credit -= value;
    rows.push({
      account_id: account.id,
      name: account.name,
      type: account.type,
      debit: formatMinor(value > 0n ? value : 0n, target),
      credit: formatMinor(value < 0n ? -value : 0n, target),
    });
  }
  return {
    converted: {
      currency: target,
      rows,
      total_debit: formatMinor(debit, target),
      total_credit: formatMinor(credit, target),
    },
    missing_rates: book.missingRates(),
  };
}

/**
 * The balance sheet in one currency at `as_of`. The currency trading accounts are not shown as
 * equity: their converted sum is what the foreign balances bought by exchanges are worth now less
 * what they cost, shown as `unrealized_gains`, the figure that makes the rounded sheet balance.
 */
/** `market`: each holding account's unrealised gain in its currency, added to its balance (securities at market). */
export function convertedBalanceSheet(
  db: LedgerDb,
  asOf: string,
  target: string,
  market: ReadonlyMap<string, bigint> = new Map(),
) {
  const book = new RateBook(db, target, asOf, asOf);
  const accounts = allAccounts(db);
  const own = balancesAt(db, book, accounts, asOf, market);
  const trading = tradingAccountIds(db);
  const assets = trees(book, accounts, ['ASSET'], own);
  const liabilities = trees(book, accounts, ['LIABILITY'], own);
  const equity = trees(book, accounts, ['EQUITY'], own, trading);
  const retained = trees(book, accounts, ['INCOME'], own).total - trees(book, accounts, ['EXPENSE'], own).total;
  const gains = assets.total - liabilities.total - equity.total - retained;
  return {
    converted: {
      currency: target,
      assets: assets.roots,
      liabilities: liabilities.roots,
      equity: equity.roots,
      retained_earnings: formatMinor(retained, target),
      unrealized_gains: formatMinor(gains, target),
      total_assets: formatMinor(assets.total, target),
      total_liabilities: formatMinor(liabilities.total, target),
      total_equity: formatMinor(equity.total, target),
      total_equity_and_earnings: formatMinor(equity.total + retained + gains, target),
      total_liabilities_and_equity: formatMinor(liabilities.total + equity.total + retained + gains, target),
      net_worth: formatMinor(assets.total - liabilities.total, target),
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
      total_income: formatMinor(income.total, target),
      total_expenses: formatMinor(expenses.total, target),
      net_income: formatMinor(income.total - expenses.total, target),
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
      series: sums.map(({ date, assets, liabilities }) => {
        const [a, l] = [assets.result(), liabilities.result()];
        return {
          date,
          assets: formatMinor(a, target),
          liabilities: formatMinor(l, target),
          net_worth: formatMinor(a - l, target),
        };
      }),
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
  // each account's flow of a period is rounded once; every total is the sum of the figures it covers
  const overRange = new RangeFlows();
  const periods = perPeriod.map(({ span, byAccount }) => {
    let moneyIn = 0n;
    let moneyOut = 0n;
    const rows = [];
    for (const f of byAccount) {
      if (book.isMissing(f.account.currency)) continue;
      const [flowIn, flowOut] = [f.moneyIn.result(), f.moneyOut.result()];
      moneyIn += flowIn;
      moneyOut += flowOut;
      overRange.add(f.account, flowIn, flowOut);
      rows.push({
        account_id: f.account.id,
        name: f.account.name,
        type: f.account.type,
        money_in: formatMinor(flowIn, target),
        money_out: formatMinor(flowOut, target),
      });
    }
    return {
      start_date: span.start,
      end_date: span.end,
      money_in: formatMinor(moneyIn, target),
      money_out: formatMinor(moneyOut, target),
      net: formatMinor(moneyIn - moneyOut, target),
      by_account: rows,
    };
  });
  return {
    converted: { currency: target, periods, ...overRange.summary(target) },
    missing_rates: book.missingRates(),
  };
}

/**
 * The net-worth series written from its definition, for the property test of `netWorthSeries`
 * (server/features/reports): a full recount from the book's postings at every point and the rate
 * rule written out. It imports nothing from server/, so that it checks the code rather than
 * repeats it.
 *
 * - Points: the end of each period from the start: every day; every Sunday (weeks end on
 *   Sunday); every month's last day; and the range's end, which closes the last period.
 * - An account's balance at a point: the sum of its postings up to and including that day,
 *   debits less credits for an asset, credits less debits for a liability.
 * - Per currency: assets, liabilities and net worth (assets less liabilities) of the accounts in
 *   that currency; every currency of an asset or a liability account is listed, sorted.
 * - Converted into T, per side (assets, liabilities): the exact sum, over the currencies, of
 *   each currency's side at the rate of that currency on the point's day, rounded once, half to
 *   even, to T's minor units; net worth is assets less liabilities as printed. The rate of C
 *   into T on a day is 1 when C is T; else the latest price of C→T on or before the day; else 1
 *   divided by the latest price of T→C on or before it; else there is none. A currency with an
 *   account whose balance is not zero and no rate at a point is left out of that point's
 *   converted figures, and `missing_rates` names, per such currency, the first point it was
 *   missing at.
 */

type ReferenceAccountType = 'ASSET' | 'LIABILITY' | 'EQUITY' | 'INCOME' | 'EXPENSE';

export interface ReferenceBook {
  accounts: readonly { id: string; type: ReferenceAccountType; currency: string }[];
  postings: readonly { day: string; accountId: string; debit: bigint; credit: bigint }[];
  /** one price per pair and day, `rate` as decimal text */
  prices: readonly { day: string; from: string; to: string; rate: string }[];
}

/** ISO 4217 minor units of the currencies the tests use. */
const DIGITS: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, CNY: 2, CHF: 2 };

function digitsOf(currency: string): number {
  const d = DIGITS[currency];
  if (d === undefined) throw new Error(`the reference knows no minor units for ${currency}`);
  return d;
}

function money(minor: bigint, currency: string): string {
  const digits = digitsOf(currency);
  const sign = minor < 0n ? '-' : '';
  const abs = (minor < 0n ? -minor : minor).toString();
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

const dayMs = 86_400_000;
const toTime = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const toDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The period ends from `start` to `end`, each period closed by its natural end or by `end`. */
function pointsOf(start: string, end: string, interval: 'day' | 'week' | 'month'): string[] {
  const out: string[] = [];
  for (let t = toTime(start); t <= toTime(end); t += dayMs) {
    const d = new Date(t);
    const last =
      interval === 'day' ||
      (interval === 'week' && d.getUTCDay() === 0) ||
      (interval === 'month' && new Date(t + dayMs).getUTCDate() === 1) ||
      toDay(t) === end;
    if (last) out.push(toDay(t));
  }
  return out;
}

interface Fraction {
  num: bigint;
  den: bigint;
}

/** A decimal rate as an exact fraction. */
function fractionOf(rate: string): Fraction {
  const [whole, part = ''] = rate.split('.');
  return { num: BigInt(whole! + part), den: 10n ** BigInt(part.length) };
}

function latestOnOrBefore(book: ReferenceBook, from: string, to: string, day: string): string | null {
  let best: { day: string; rate: string } | null = null;
  for (const p of book.prices)
    if (p.from === from && p.to === to && p.day <= day && (best === null || p.day > best.day)) best = p;
  return best?.rate ?? null;
}

/** The rate of `currency` into `target` on `day` (see the module comment). */
function rateOn(book: ReferenceBook, currency: string, target: string, day: string): Fraction | null {
  if (currency === target) return { num: 1n, den: 1n };
  const direct = latestOnOrBefore(book, currency, target, day);
  if (direct !== null) return fractionOf(direct);
  const opposite = latestOnOrBefore(book, target, currency, day);
  if (opposite !== null) {
    const f = fractionOf(opposite);
    return { num: f.den, den: f.num };
  }
  return null;
}

/** num / den (den > 0) rounded to an integer, half to even. */
function roundHalfEven(num: bigint, den: bigint): bigint {
  let q = num / den;
  if (num % den !== 0n && num < 0n) q -= 1n; // floor
  const twice = 2n * (num - q * den);
  if (twice < den) return q;
  if (twice > den) return q + 1n;
  return q % 2n === 0n ? q : q + 1n;
}

function balanceAt(book: ReferenceBook, account: ReferenceBook['accounts'][number], day: string): bigint {
  let sum = 0n;
  for (const p of book.postings)
    if (p.accountId === account.id && p.day <= day)
      sum += account.type === 'ASSET' ? p.debit - p.credit : p.credit - p.debit;
  return sum;
}

export function referenceNetWorth(
  book: ReferenceBook,
  start: string,
  end: string,
  interval: 'day' | 'week' | 'month',
  convertTo?: string,
) {
  const accounts = book.accounts.filter((a) => a.type === 'ASSET' || a.type === 'LIABILITY');
  const points = pointsOf(start, end, interval);
  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  const out: Record<string, unknown> = { start_date: start, end_date: end, interval };
  if (convertTo !== undefined) {
    const firstMissing = new Map<string, string>();
    const scale = 10n ** BigInt(digitsOf(convertTo));
    const converted = points.map((date) => {
      // each currency's sides at the point: the sums of its accounts' balances
      const sides = new Map<string, { ASSET: bigint; LIABILITY: bigint; nonZero: boolean }>();
      for (const a of accounts) {
        const balance = balanceAt(book, a, date);
        const side = sides.get(a.currency) ?? { ASSET: 0n, LIABILITY: 0n, nonZero: false };
        side[a.type as 'ASSET' | 'LIABILITY'] += balance;
        side.nonZero ||= balance !== 0n;
        sides.set(a.currency, side);
      }
      // per side, the exact sum over the currencies that have their rate, rounded once
      const total = { ASSET: { num: 0n, den: 1n }, LIABILITY: { num: 0n, den: 1n } };
      for (const [currency, side] of sides) {
        if (!side.nonZero) continue;
        const rate = rateOn(book, currency, convertTo, date);
        if (rate === null) {
          if (!firstMissing.has(currency)) firstMissing.set(currency, date);
          continue;
        }
        for (const type of ['ASSET', 'LIABILITY'] as const) {
          const num = side[type] * rate.num * scale;
          const den = rate.den * 10n ** BigInt(digitsOf(currency));
          total[type] = { num: total[type].num * den + num * total[type].den, den: total[type].den * den };
        }
      }
      const assets = roundHalfEven(total.ASSET.num, total.ASSET.den);
      const liabilities = roundHalfEven(total.LIABILITY.num, total.LIABILITY.den);
      return {
        date,
        assets: money(assets, convertTo),
        liabilities: money(liabilities, convertTo),
        net_worth: money(assets - liabilities, convertTo),
      };
    });
    out.converted = { currency: convertTo, series: converted };
    out.missing_rates = [...firstMissing]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([from, date]) => ({ from, to: convertTo, date }));
  }
  out.currencies = currencies.map((currency) => ({
    currency,
    series: points.map((date) => {
      let assets = 0n;
      let liabilities = 0n;
      for (const a of accounts) {
        if (a.currency !== currency) continue;
        if (a.type === 'ASSET') assets += balanceAt(book, a, date);
        else liabilities += balanceAt(book, a, date);
      }
      return {
        date,
        assets: money(assets, currency),
        liabilities: money(liabilities, currency),
        net_worth: money(assets - liabilities, currency),
      };
    }),
  }));
  return out;
}

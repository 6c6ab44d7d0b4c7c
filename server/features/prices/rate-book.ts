import type { LedgerDb } from '../../db/stores.ts';
import type { MissingRate } from '../../contract/prices.ts';
import { DomainError } from '../../domain/errors.ts';
import { formatMinor, type Minor } from '../../domain/money.ts';
import { Conversion, directRate, inverseRate, rateOn, SAME, type PriceSeries, type Rate } from '../../domain/rates.ts';
import { latestPrice, latestRate, latestRates, priceSeries } from './prices.repository.ts';
import type { Price } from './prices.model.ts';

/** Days looked up one by one (an index seek each) before a currency's prices of the range are read at once. */
const POINT_LOOKUPS = 8;

interface CurrencyRates {
  points: Map<string, Rate | null>;
  series?: { direct: PriceSeries; opposite: PriceSeries };
}

/**
 * The rates of one conversion into `target` for days in [since, upTo]. A currency's first few days
 * are looked up one by one (a balance needs one rate); past that, the prices that decide its rates
 * over the range are read once and looked up by day in memory. A currency that lacks a rate on a
 * day it has a figure (not zero) is missing: it is left out of every converted total of the book,
 * and the first such day is reported, never counted as zero.
 */
export class RateBook {
  readonly target: string;
  private readonly db: LedgerDb;
  private readonly since: string;
  private readonly upTo: string;
  private readonly rates: Map<string, CurrencyRates>;
  private readonly missingFrom = new Map<string, string>();
  private readonly scopes: RateBook[] = [];

  constructor(db: LedgerDb, target: string, since: string, upTo: string, rates = new Map<string, CurrencyRates>()) {
    this.db = db;
    this.target = target;
    this.since = since;
    this.upTo = upTo;
    this.rates = rates;
  }

  /**
   * A book for figures that stand on their own (one point of a series): the same rates, read once,
   * but its own missing currencies, so that a currency without a rate at one point is left out of
   * that point only. The parent's missingRates() names them too.
   */
  scope(): RateBook {
    const child = new RateBook(this.db, this.target, this.since, this.upTo, this.rates);
    this.scopes.push(child);
    return child;
  }

  /** The rate of `currency` into the target on `date`; null (and noted as missing) when there is none. */
  rate(currency: string, date: string): Rate | null {
    if (currency === this.target) return SAME;
    const rate = this.lookUp(currency, date);
    if (rate === null) {
      const first = this.missingFrom.get(currency);
      if (first === undefined || date < first) this.missingFrom.set(currency, date);
    }
    return rate;
  }

  private lookUp(currency: string, date: string): Rate | null {
    let r = this.rates.get(currency);
    if (!r) this.rates.set(currency, (r = { points: new Map() }));
    if (r.series) return rateOn(r.series.direct, r.series.opposite, date);
    const known = r.points.get(date);
    if (known !== undefined) return known;
    if (r.points.size < POINT_LOOKUPS) {
      const direct = latestRate(this.db, currency, this.target, date);
      const opposite = direct === null ? latestRate(this.db, this.target, currency, date) : null;
      const rate = direct !== null ? directRate(direct) : opposite !== null ? inverseRate(opposite) : null;
      r.points.set(date, rate);
      return rate;
    }
    r.series = {
      direct: priceSeries(this.db, currency, this.target, this.since, this.upTo),
      opposite: priceSeries(this.db, this.target, currency, this.since, this.upTo),
    };
    return rateOn(r.series.direct, r.series.opposite, date);
  }

  /**
   * Looks the rates of `currency` on each of `days` up at once, ahead of the figures that need them
   * (a series' period ends): an index seek a day, where the look-up one by one would read the range's
   * prices. Nothing is missing until a figure asks for its rate.
   */
  lookUpAhead(currency: string, days: readonly string[]): void {
    if (currency === this.target) return;
    let r = this.rates.get(currency);
    if (!r) this.rates.set(currency, (r = { points: new Map() }));
    if (r.series) return;
    const points = r.points;
    const unknown = days.filter((d) => !points.has(d));
    if (unknown.length === 0) return;
    const direct = latestRates(this.db, currency, this.target, unknown);
    const withoutDirect = unknown.filter((d) => direct.get(d) === null);
    const opposite = withoutDirect.length > 0 ? latestRates(this.db, this.target, currency, withoutDirect) : new Map();
    for (const day of unknown) {
      const d = direct.get(day)!;
      const o = opposite.get(day) ?? null;
      points.set(day, d !== null ? directRate(d) : o !== null ? inverseRate(o) : null);
    }
  }

  isMissing(currency: string): boolean {
    return this.missingFrom.has(currency);
  }

  newConversion(): Conversion {
    return new Conversion(this.target);
  }

  missingRates(): MissingRate[] {
    const first = new Map(this.missingFrom);
    for (const child of this.scopes)
      for (const m of child.missingRates())
        if (!first.has(m.from) || m.date < first.get(m.from)!) first.set(m.from, m.date);
    return [...first].sort(([a], [b]) => (a < b ? -1 : 1)).map(([from, date]) => ({ from, to: this.target, date }));
  }
}

/**
 * Converted figures that leave out every currency missing a rate: amounts are kept per source
 * currency until the end, when the missing ones are dropped and the rest summed and rounded once.
 */
export class ConvertedSum {
  private readonly byCurrency = new Map<string, Conversion>();
  private readonly book: RateBook;

  constructor(book: RateBook) {
    this.book = book;
  }

  /** Adds an amount at the rate of its currency on `date` (nothing when the rate is missing; zero needs no rate). */
  add(amountMinor: bigint, currency: string, date: string): void {
    if (amountMinor === 0n) return;
    const rate = this.book.rate(currency, date);
    if (rate === null) return;
    let c = this.byCurrency.get(currency);
    if (!c) this.byCurrency.set(currency, (c = this.book.newConversion()));
    c.add(amountMinor, currency, rate);
  }

  /** Another sum's amounts added to this one's, or taken away (sign -1). */
  addAll(other: ConvertedSum, sign: 1n | -1n = 1n): this {
    for (const [currency, c] of other.byCurrency) {
      const mine = this.byCurrency.get(currency);
      if (mine) mine.addAll(c, sign);
      else this.byCurrency.set(currency, this.book.newConversion().addAll(c, sign));
    }
    return this;
  }

  /** Whether nothing was added (zero figures add nothing). */
  get isZero(): boolean {
    for (const c of this.byCurrency.values()) if (!c.isEmpty) return false;
    return true;
  }

  /** Whether every currency in it has its rates. */
  get complete(): boolean {
    for (const currency of this.byCurrency.keys()) if (this.book.isMissing(currency)) return false;
    return true;
  }

  /** The sum in the target's minor units, rounded once, without the currencies missing a rate. */
  result(): bigint {
    const total = this.book.newConversion();
    for (const [currency, c] of this.byCurrency) if (!this.book.isMissing(currency)) total.addAll(c);
    return total.result();
  }
}

/** What a balance is held in: an account's id and its one currency. */
interface Held {
  id: string;
  currency: string;
}

/** `converted_balance` of every account (null where its currency lacks the rate) and the missing rates. */
export function convertedBalances(
  db: LedgerDb,
  balances: readonly { account: Held; balanceMinor: bigint }[],
  asOf: string,
  target: string,
) {
  const book = new RateBook(db, target, asOf, asOf);
  const sums = new Map<string, ConvertedSum>();
  for (const { account, balanceMinor } of balances) {
    const sum = new ConvertedSum(book);
    sum.add(balanceMinor, account.currency, asOf);
    sums.set(account.id, sum);
  }
  return {
    balanceOf: (account: Held) =>
      book.isMissing(account.currency) ? null : formatMinor(sums.get(account.id)!.result(), target),
    missing_rates: book.missingRates(),
  };
}

/** One amount converted at the rate of a day, and the price that gave the rate. */
export interface DayConversion {
  convertedMinor: Minor;
  rate: Rate;
  /** the price of the pair, or of the opposite pair when `rate` is its inverse */
  price: Price;
}

/**
 * `amountMinor` of `from` in `to` at the rate table's rate of `date` (the latest price of the pair
 * on or before it, else 1 / the opposite pair's), rounded once to `to`'s minor units, half to
 * even, as every conversion is; null when the table has no rate for that day.
 */
export function convertOnDay(
  db: LedgerDb,
  amountMinor: Minor,
  from: string,
  to: string,
  date: string,
): DayConversion | null {
  const direct = latestPrice(db, from, to, date);
  const opposite = direct ? undefined : latestPrice(db, to, from, date);
  const price = direct ?? opposite;
  if (!price) return null;
  const rate = direct ? directRate(direct.rateScaled) : inverseRate(price.rateScaled);
  const conversion = new Conversion(to);
  conversion.add(amountMinor, from, rate);
  return { convertedMinor: conversion.result(), rate, price };
}

/** The error of a conversion the rate table cannot make: 400 MISSING_RATE naming the pair and the day. */
export function missingRate(from: string, to: string, date: string, field: string): DomainError {
  return new DomainError(
    'MISSING_RATE',
    `No rate of ${from} in ${to} on or before ${date} (nor of ${to} in ${from}): add one under Rates, or give the amount in ${to}`,
    [{ field, message: `needs a ${from}/${to} rate on or before ${date}` }],
  );
}

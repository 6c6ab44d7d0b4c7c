import { newRowId } from '../../db/ids.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { InvestmentSettingsBody, SecurityBody, TradeBody, TradePreview } from '../../contract/investments.ts';
import { MAX_SECURITY_PRICE_ROWS } from '../../contract/investments.ts';
import { currencyDigits, isKnownCurrency } from '../../domain/currencies.ts';
import { DATE_RANGE_TEXT, isLedgerDate, localToday } from '../../domain/dates.ts';
import type { Direction } from '../../domain/double-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  bookSale,
  formatPrice,
  formatUnits,
  isLongTerm,
  MAX_HOLDING_ATOMS,
  parsePrice,
  parseUnits,
  PRICE_DECIMALS,
  proceedsByReduction,
  splitLots,
  unitCost,
  valueOf,
  type Lot,
  type SaleProblem,
} from '../../domain/lots.ts';
import { formatMinor, formatScaled, parseAmount } from '../../domain/money.ts';
import { divideHalfEven } from '../../domain/rates.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { findAccount } from '../accounts/accounts.queries.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import { createEntry, type VoidGuard } from '../journal/journal.service.ts';
import { csvLineError, readCsvTable, type SecurityPriceRows } from '../prices/prices.service.ts';
import {
  addToHolding,
  allSecurities,
  countSecurities,
  currentHoldings,
  findSecurity,
  findSecurityBySymbol,
  findSettings,
  gainsBetween,
  holdingsAsOf,
  insertLot,
  insertReduction,
  insertSecurity,
  insertTrade,
  isTradeEntry,
  openLots,
  priceOn,
  savePrice,
  saveSettings,
  updateLot,
  type ReductionRow,
  type TradeRow,
} from './investments.repository.ts';
import type { InvestmentSettings, Security } from './investments.model.ts';

/** The most securities a ledger declares: the list and the holdings report are read whole. */
export const MAX_SECURITIES = 2_000;
const DEFAULT_LONG_TERM_DAYS = 365;

const securityDto = (s: Security) => ({
  id: s.id,
  symbol: s.symbol,
  name: s.name,
  currency: s.currency,
  created_at: s.createdAt,
});

export function createSecurity(db: LedgerDb, body: SecurityBody) {
  return db.transaction(() => {
    if (findSecurityBySymbol(db, body.symbol))
      throw new DomainError('DUPLICATE_NAME', `A security ${body.symbol} already exists`, [
        { field: 'symbol', message: 'is taken' },
      ]);
    if (countSecurities(db) >= MAX_SECURITIES)
      throw new DomainError('TOO_MANY_SECURITIES', `The books hold at most ${MAX_SECURITIES} securities`);
    const s: Security = { id: newRowId(), ...body, createdAt: new Date().toISOString() };
    insertSecurity(db, s);
    return securityDto(s);
  });
}

export function listSecurities(db: LedgerDb) {
  return { items: allSecurities(db).map(securityDto) };
}

function requireSecurity(db: LedgerDb, id: string, field = 'security_id'): Security {
  const s = findSecurity(db, id);
  if (!s) throw new DomainError('NOT_FOUND', 'Security not found', [{ field, message: 'names no security' }]);
  return s;
}

/** An account a trade books to: it exists, is active, and is in the security's currency. */
function tradeAccount(db: LedgerDb, id: string, field: string, currency: string, type?: Account['type']): Account {
  const a = findAccount(db, id);
  const refuse = (why: string) => {
    throw new DomainError('INVALID_ACCOUNT', `${field}: ${why}`, [{ field, message: why }]);
  };
  if (!a) return refuse('names no account');
  if (!a.isActive) refuse('the account is inactive');
  if (a.currency !== currency) refuse(`the account is in ${a.currency}, the security in ${currency}`);
  if (type && a.type !== type) refuse(`must be an ${type} account`);
  return a;
}

const settingsDto = (s: InvestmentSettings) => ({
  account_id: s.accountId,
  booking_method: s.bookingMethod,
  short_term_account_id: s.shortTermAccountId,
  long_term_account_id: s.longTermAccountId,
  long_term_days: s.longTermDays,
});

function settingsOf(db: LedgerDb, accountId: string): InvestmentSettings {
  return (
    findSettings(db, accountId) ?? {
      accountId,
      bookingMethod: 'FIFO',
      shortTermAccountId: null,
      longTermAccountId: null,
      longTermDays: DEFAULT_LONG_TERM_DAYS,
    }
  );
}

export function getInvestmentSettings(db: LedgerDb, accountId: string) {
  requireAccount(db, accountId);
  return settingsDto(settingsOf(db, accountId));
}

export function putInvestmentSettings(db: LedgerDb, accountId: string, body: InvestmentSettingsBody) {
  return db.transaction(() => {
    const account = requireAccount(db, accountId);
    tradeAccount(db, body.short_term_account_id, 'short_term_account_id', account.currency, 'INCOME');
    if (body.long_term_account_id)
      tradeAccount(db, body.long_term_account_id, 'long_term_account_id', account.currency, 'INCOME');
    const s: InvestmentSettings = {
      accountId,
      bookingMethod: body.booking_method,
      shortTermAccountId: body.short_term_account_id,
      longTermAccountId: body.long_term_account_id ?? body.short_term_account_id,
      longTermDays: body.long_term_days ?? DEFAULT_LONG_TERM_DAYS,
    };
    saveSettings(db, s);
    return settingsDto(s);
  });
}

function money(text: string | undefined, currency: string, field: string): bigint {
  if (text === undefined) return 0n;
  const parsed = parseAmount(text, currency);
  if ('problem' in parsed) {
    if (parsed.problem === 'zero') return 0n;
    const why = `must have at most ${currencyDigits(currency)} decimals and be under one trillion`;
    throw new DomainError('VALIDATION_ERROR', `${field} ${why}`, [{ field, message: why }]);
  }
  return parsed.minor;
}

function units(text: string, field: string): bigint {
  const u = parseUnits(text);
  if (u === null)
    throw new DomainError('VALIDATION_ERROR', `${field} must be above zero`, [
      { field, message: 'must be above zero' },
    ]);
  return u;
}

function saleRefusal(problem: SaleProblem, symbol: string): DomainError {
  switch (problem.kind) {
    case 'insufficient':
      return new DomainError(
        'INSUFFICIENT_UNITS',
        `The account holds ${formatUnits(problem.held)} ${symbol}, fewer than the units sold`,
        [{ field: 'units', message: `more than the ${formatUnits(problem.held)} held` }],
      );
    case 'unknown_lot':
      return new DomainError('INVALID_LOT', `Lot ${problem.lotId} is not an open lot of ${symbol} in this account`, [
        { field: 'lots', message: 'names a lot not open here' },
      ]);
    case 'lot_short':
      return new DomainError(
        'INSUFFICIENT_UNITS',
        `Lot ${problem.lotId} holds ${formatUnits(problem.held)} ${symbol}, fewer than named`,
        [{ field: 'lots', message: `more than the ${formatUnits(problem.held)} the lot holds` }],
      );
    case 'named_total':
      return new DomainError(
        'INVALID_LOT',
        `The lots named add up to ${formatUnits(problem.named)}, not the units sold`,
        [{ field: 'lots', message: 'must add up to units' }],
      );
  }
}

interface Line {
  accountId: string;
  direction: Direction;
  amountMinor: bigint;
  memo: string;
}

/** What a trade will do, worked out before anything is written; `apply` writes it. */
interface Plan {
  preview: TradePreview;
  lines: Line[];
  apply: (tradeId: string) => void;
  trade: Omit<TradeRow, 'id' | 'entryId'>;
  price: string | null;
}

function planTrade(db: LedgerDb, body: TradeBody): Plan {
  const sec = requireSecurity(db, body.security_id);
  const cur = sec.currency;
  const account = tradeAccount(db, body.account_id, 'account_id', cur, 'ASSET');
  const fmt = (m: bigint) => formatMinor(m, cur);
  const held = openLots(db, account.id, sec.id);
  const heldUnits = held.reduce((s, l) => s + l.units, 0n);
  const lines: Line[] = [];
  const add = (accountId: string, direction: Direction, amountMinor: bigint, memo: string) => {
    if (amountMinor < 0n) {
      direction = direction === 'DEBIT' ? 'CREDIT' : 'DEBIT';
      amountMinor = -amountMinor;
    }
    if (amountMinor > 0n) lines.push({ accountId, direction, amountMinor, memo });
  };
  const base = { accountId: account.id, securityId: sec.id, date: body.date };
  const preview = (p: Partial<TradePreview>): TradePreview => ({
    kind: body.kind,
    currency: cur,
    lines: lines.map((l) => ({
      account_id: l.accountId,
      direction: l.direction,
      amount: fmt(l.amountMinor),
      memo: l.memo,
    })),
    units: '0',
    cost_basis: fmt(0n),
    proceeds: fmt(0n),
    realized_gain: fmt(0n),
    short_term_gain: fmt(0n),
    long_term_gain: fmt(0n),
    reductions: [],
    ...p,
  });
  const newLot = (u: bigint, basis: bigint): Lot => ({
    id: newRowId(),
    date: body.date,
    seq: 0,
    units: u,
    basisMinor: basis,
  });
  const assertRoom = (u: bigint) => {
    if (heldUnits + u > MAX_HOLDING_ATOMS)
      throw new DomainError('VALIDATION_ERROR', 'An account holds at most 10,000,000,000 units of a security', [
        { field: 'units', message: 'too many units held' },
      ]);
  };

  if (body.kind === 'buy' || body.kind === 'sell') {
    const u = units(body.units, 'units');
    const price = parsePrice(body.price)!;
    const cash = tradeAccount(db, body.cash_account_id ?? account.id, 'cash_account_id', cur);
    const fees = money(body.fees, cur, 'fees');
    const feeAccount = body.fee_account_id ? tradeAccount(db, body.fee_account_id, 'fee_account_id', cur) : null;
    const gross = valueOf(u, price, PRICE_DECIMALS, currencyDigits(cur));
    const label = `${body.kind === 'buy' ? 'Buy' : 'Sell'} ${formatUnits(u)} ${sec.symbol} @ ${formatPrice(price)} ${cur}`;
    if (body.kind === 'buy') {
      assertRoom(u);
      const basis = gross + (feeAccount ? 0n : fees);
      if (basis === 0n)
        throw new DomainError('VALIDATION_ERROR', 'The units cost less than the currency’s smallest unit', [
          { field: 'units', message: 'worth nothing at this price' },
        ]);
      add(account.id, 'DEBIT', basis, label);
      if (feeAccount) add(feeAccount.id, 'DEBIT', fees, `Fees: ${label}`);
      add(cash.id, 'CREDIT', gross + fees, label);
      const lot = newLot(u, basis);
      return {
        preview: preview({ units: formatUnits(u), cost_basis: fmt(basis) }),
        lines,
        price: formatPrice(price),
        trade: {
          ...base,
          kind: 'buy',
          unitsAtoms: u,
          price: formatPrice(price),
          amountMinor: gross,
          feesMinor: fees,
          unitsDelta: u,
          basisDelta: basis,
          proceedsMinor: 0n,
          costMinor: 0n,
        },
        apply: (tradeId) => {
          insertLot(db, lot, tradeId, account.id, sec.id);
          addToHolding(db, account.id, sec.id, u, basis, 0n);
        },
      };
    }
    const settings = settingsOf(db, account.id);
    const how = body.lots
      ? body.lots.map((l, i) => ({ lotId: l.lot_id, units: units(l.units, `lots.${i}.units`) }))
      : settings.bookingMethod;
    const booked = bookSale(held, u, how);
    if (!booked.ok) throw saleRefusal(booked.problem, sec.symbol);
    if (!settings.shortTermAccountId)
      throw new DomainError(
        'VALIDATION_ERROR',
        'The account has no income account for its gains: set it under the account’s investment settings first',
        [{ field: 'account_id', message: 'has no gains account' }],
      );
    const proceeds = gross - (feeAccount ? 0n : fees);
    if (proceeds < 0n)
      throw new DomainError('VALIDATION_ERROR', 'The fees are more than the sale brings', [
        { field: 'fees', message: 'more than the proceeds' },
      ]);
    const { reductions, costMinor } = booked.booked;
    const parts = proceedsByReduction(proceeds, reductions);
    const rows: ReductionRow[] = reductions.map((r, i) => ({
      lotId: r.lotId,
      saleDate: body.date,
      unitsAtoms: r.units,
      basisMinor: r.basisMinor,
      proceedsMinor: parts[i]!,
      gainMinor: parts[i]! - r.basisMinor,
      longTerm: isLongTerm(r.date, body.date, settings.longTermDays),
    }));
    const shortGain = rows.filter((r) => !r.longTerm).reduce((s, r) => s + r.gainMinor, 0n);
    const longGain = rows.filter((r) => r.longTerm).reduce((s, r) => s + r.gainMinor, 0n);
    add(cash.id, 'DEBIT', gross - fees, label);
    if (feeAccount) add(feeAccount.id, 'DEBIT', fees, `Fees: ${label}`);
    add(account.id, 'CREDIT', costMinor, `${label}: cost basis`);
    add(settings.shortTermAccountId, 'CREDIT', shortGain, `${label}: short-term gain`);
    add(settings.longTermAccountId ?? settings.shortTermAccountId, 'CREDIT', longGain, `${label}: long-term gain`);
    const before = new Map(held.map((l) => [l.id, l] as const));
    return {
      preview: preview({
        units: formatUnits(u),
        cost_basis: fmt(costMinor),
        proceeds: fmt(proceeds),
        realized_gain: fmt(proceeds - costMinor),
        short_term_gain: fmt(shortGain),
        long_term_gain: fmt(longGain),
        reductions: rows.map((r, i) => ({
          lot_id: r.lotId,
          bought_on: reductions[i]!.date,
          units: formatUnits(r.unitsAtoms),
          cost_basis: fmt(r.basisMinor),
          proceeds: fmt(r.proceedsMinor),
          gain: fmt(r.gainMinor),
          long_term: r.longTerm,
        })),
      }),
      lines,
      price: formatPrice(price),
      trade: {
        ...base,
        kind: 'sell',
        unitsAtoms: u,
        price: formatPrice(price),
        amountMinor: gross,
        feesMinor: fees,
        unitsDelta: -u,
        basisDelta: -costMinor,
        proceedsMinor: proceeds,
        costMinor,
      },
      apply: (tradeId) => {
        for (const lot of booked.booked.after) {
          const was = before.get(lot.id)!;
          if (was.units !== lot.units || was.basisMinor !== lot.basisMinor) updateLot(db, lot);
        }
        for (const r of rows) insertReduction(db, tradeId, sec.id, r);
        addToHolding(db, account.id, sec.id, -u, -costMinor, proceeds - costMinor);
      },
    };
  }

  if (body.kind === 'dividend') {
    const amount = money(body.amount, cur, 'amount');
    if (amount === 0n)
      throw new DomainError('VALIDATION_ERROR', 'amount must be above zero', [
        { field: 'amount', message: 'must be above zero' },
      ]);
    const income = tradeAccount(db, body.income_account_id, 'income_account_id', cur, 'INCOME');
    const label = `Dividend ${sec.symbol}`;
    if (body.reinvest) {
      if (body.cash_account_id)
        throw new DomainError('VALIDATION_ERROR', 'A reinvested dividend pays no cash', [
          { field: 'cash_account_id', message: 'not with reinvest' },
        ]);
      const u = units(body.reinvest.units, 'reinvest.units');
      assertRoom(u);
      const price = formatPrice(parsePrice(body.reinvest.price)!);
      add(account.id, 'DEBIT', amount, `${label} reinvested: ${formatUnits(u)} ${sec.symbol} @ ${price} ${cur}`);
      add(income.id, 'CREDIT', amount, label);
      const lot = newLot(u, amount);
      return {
        preview: preview({ units: formatUnits(u), cost_basis: fmt(amount) }),
        lines,
        price,
        trade: {
          ...base,
          kind: 'dividend',
          unitsAtoms: u,
          price,
          amountMinor: amount,
          feesMinor: 0n,
          unitsDelta: u,
          basisDelta: amount,
          proceedsMinor: 0n,
          costMinor: 0n,
        },
        apply: (tradeId) => {
          insertLot(db, lot, tradeId, account.id, sec.id);
          addToHolding(db, account.id, sec.id, u, amount, 0n);
        },
      };
    }
    const cash = tradeAccount(db, body.cash_account_id ?? account.id, 'cash_account_id', cur);
    add(cash.id, 'DEBIT', amount, label);
    add(income.id, 'CREDIT', amount, label);
    return {
      preview: preview({}),
      lines,
      price: null,
      trade: {
        ...base,
        kind: 'dividend',
        unitsAtoms: 0n,
        price: null,
        amountMinor: amount,
        feesMinor: 0n,
        unitsDelta: 0n,
        basisDelta: 0n,
        proceedsMinor: 0n,
        costMinor: 0n,
      },
      apply: () => undefined,
    };
  }

  const [num, den] = body.ratio.split(':').map(BigInt) as [bigint, bigint];
  if (heldUnits === 0n)
    throw new DomainError('INSUFFICIENT_UNITS', `The account holds no ${sec.symbol} to split`, [
      { field: 'security_id', message: 'none held' },
    ]);
  const after = splitLots(held, num, den);
  const newUnits = after.reduce((s, l) => s + l.units, 0n);
  assertRoom(newUnits - heldUnits);
  if (after.some((l) => l.units === 0n))
    throw new DomainError('VALIDATION_ERROR', 'The split leaves a lot with no units', [
      { field: 'ratio', message: 'too small' },
    ]);
  return {
    preview: preview({ units: formatUnits(newUnits - heldUnits) }),
    lines,
    price: null,
    trade: {
      ...base,
      kind: 'split',
      unitsAtoms: newUnits - heldUnits,
      price: body.ratio,
      amountMinor: 0n,
      feesMinor: 0n,
      unitsDelta: newUnits - heldUnits,
      basisDelta: 0n,
      proceedsMinor: 0n,
      costMinor: 0n,
    },
    apply: () => {
      for (const lot of after) updateLot(db, lot);
      addToHolding(db, account.id, sec.id, newUnits - heldUnits, 0n, 0n);
    },
  };
}

/** What a trade would post and gain, without writing anything. */
export function previewTrade(db: LedgerDb, body: TradeBody): TradePreview {
  return planTrade(db, body).preview;
}

/** Books a trade: its entry (posted), its lots and the holding's totals, in one transaction. */
export function bookTrade(db: LedgerDb, body: TradeBody) {
  return db.transaction(() => {
    const plan = planTrade(db, body);
    const entry =
      plan.lines.length === 0
        ? null
        : createEntry(db, {
            entry_date: body.date,
            memo: body.memo ?? plan.lines[0]!.memo,
            auto_post: true,
            lines: plan.lines.map((l) => ({
              account_id: l.accountId,
              direction: l.direction,
              amount: formatMinor(l.amountMinor, plan.preview.currency),
              memo: l.memo,
            })),
          });
    const id = newRowId();
    insertTrade(db, { id, entryId: entry?.id ?? null, ...plan.trade }, new Date().toISOString());
    plan.apply(id);
    if (plan.price !== null && plan.trade.kind !== 'split') savePrice(db, body.security_id, body.date, plan.price);
    return {
      ...plan.preview,
      id,
      entry_id: entry?.id ?? null,
      date: body.date,
      account_id: body.account_id,
      security_id: body.security_id,
    };
  });
}

/** unrealized / basis × 100, two decimals, half to even. */
function percent(gain: bigint, basis: bigint): string | null {
  if (basis === 0n) return null;
  return formatScaled(divideHalfEven(gain * 10_000n, basis), 2);
}

export function holdingsReport(db: LedgerDb, asOf: string | undefined) {
  const rows = asOf ? holdingsAsOf(db, asOf) : currentHoldings(db);
  const day = asOf ?? localToday();
  return {
    as_of: asOf ?? null,
    items: rows
      .filter((h) => h.unitsAtoms !== 0n || h.basisMinor !== 0n)
      .map((h) => {
        const p = priceOn(db, h.securityId, day);
        const fmt = (m: bigint) => formatMinor(m, h.currency);
        const value = p
          ? valueOf(h.unitsAtoms, parsePrice(p.price)!, PRICE_DECIMALS, currencyDigits(h.currency))
          : null;
        return {
          account_id: h.accountId,
          account_name: h.accountName,
          security_id: h.securityId,
          symbol: h.symbol,
          name: h.name,
          currency: h.currency,
          units: formatUnits(h.unitsAtoms),
          cost_basis: fmt(h.basisMinor),
          price: p?.price ?? null,
          price_date: p?.date ?? null,
          market_value: value === null ? null : fmt(value),
          unrealized_gain: value === null ? null : fmt(value - h.basisMinor),
          return_percent: value === null ? null : percent(value - h.basisMinor, h.basisMinor),
          realized_gain: fmt(h.realizedMinor),
        };
      }),
  };
}

/**
 * What each account's holdings are worth at `asOf` above their cost basis (market value at the latest
 * price on or before it, less basis), in the account's currency; a holding without a price adds nothing.
 * The balance sheet adds it to the account and shows the sum as unrealised gains (docs/investments.md).
 */
export function unrealizedByAccount(db: LedgerDb, asOf: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const h of holdingsAsOf(db, asOf)) {
    if (h.unitsAtoms === 0n) continue;
    const p = priceOn(db, h.securityId, asOf);
    if (!p) continue;
    const value = valueOf(h.unitsAtoms, parsePrice(p.price)!, PRICE_DECIMALS, currencyDigits(h.currency));
    out.set(h.accountId, (out.get(h.accountId) ?? 0n) + value - h.basisMinor);
  }
  return out;
}

export function lotsOf(db: LedgerDb, accountId: string, securityId: string) {
  requireAccount(db, accountId);
  const sec = requireSecurity(db, securityId);
  const digits = currencyDigits(sec.currency);
  return {
    items: openLots(db, accountId, securityId).map((l) => ({
      id: l.id,
      bought_on: l.date,
      units_bought: formatUnits(l.unitsBought),
      units: formatUnits(l.units),
      cost_basis: formatMinor(l.basisMinor, sec.currency),
      unit_cost: formatPrice(unitCost(l.basisMinor, l.units, digits)),
    })),
  };
}

export function realizedGains(db: LedgerDb, from: string, to: string, symbol?: string) {
  return {
    from,
    to,
    items: gainsBetween(db, from, to)
      .filter((g) => symbol === undefined || g.symbol === symbol.toUpperCase())
      .map((g) => {
        const fmt = (m: bigint) => formatMinor(m, g.currency);
        return {
          security_id: g.securityId,
          symbol: g.symbol,
          currency: g.currency,
          units_sold: formatUnits(g.units),
          proceeds: fmt(g.proceeds),
          cost_basis: fmt(g.basis),
          short_term_gain: fmt(g.shortGain),
          long_term_gain: fmt(g.longGain),
          realized_gain: fmt(g.shortGain + g.longGain),
        };
      }),
  };
}

export function setSecurityPrice(db: LedgerDb, securityId: string, date: string, price: string) {
  return db.transaction(() => {
    requireSecurity(db, securityId, 'id');
    const text = formatPrice(parsePrice(price)!);
    savePrice(db, securityId, date, text);
    return { security_id: securityId, date, price: text };
  });
}

const PRICE_COLUMNS = ['date', 'symbol', 'price'] as const;

/**
 * Checks and keeps security prices row by row: a declared security's, in its own currency (when a
 * row names one), a price above zero with at most 10 decimals, one per security and date. `save`
 * writes them and counts what it created and replaced. Both price imports read their rows with it.
 */
function securityPriceBook(db: LedgerDb) {
  const bySymbol = new Map<string, Security | undefined>();
  const rows: { securityId: string; date: string; price: string }[] = [];
  const seen = new Set<string>();
  return {
    security(symbol: string): Security | undefined {
      if (!bySymbol.has(symbol)) bySymbol.set(symbol, findSecurityBySymbol(db, symbol));
      return bySymbol.get(symbol);
    },
    keep(line: number, security: Security, date: string, price: string, currency?: string): void {
      if (currency !== undefined && currency !== security.currency)
        throw csvLineError(
          line,
          `${security.symbol} is priced in ${security.currency}, not ${JSON.stringify(currency.slice(0, 40))}`,
        );
      const scaled = /^\d{1,12}(\.\d{1,10})?$/.test(price) ? parsePrice(price) : null;
      if (scaled === null)
        throw csvLineError(
          line,
          `${JSON.stringify(price.slice(0, 40))} is not a price above zero with at most 10 decimals`,
        );
      const key = `${security.id} ${date}`;
      if (seen.has(key)) throw csvLineError(line, `a second price of ${security.symbol} on ${date}`);
      seen.add(key);
      rows.push({ securityId: security.id, date, price: formatPrice(scaled) });
    },
    save(into: LedgerDb) {
      let created = 0;
      for (const r of rows) {
        if (priceOn(into, r.securityId, r.date)?.date !== r.date) created++;
        savePrice(into, r.securityId, r.date, r.price);
      }
      const dates = rows.map((r) => r.date).sort();
      return {
        created,
        replaced: rows.length - created,
        first_date: dates[0] ?? null,
        last_date: dates.at(-1) ?? null,
      };
    },
  };
}

/**
 * Imports security prices from CSV: a header row naming `date`, `symbol` and `price` (any order, any
 * case, other columns ignored), then one price per row of a declared security. Any bad row refuses
 * the whole file, naming its line; each good row creates or replaces the price of its date.
 */
export function importSecurityPrices(db: LedgerDb, bytes: Uint8Array) {
  const table = readCsvTable(bytes, PRICE_COLUMNS, MAX_SECURITY_PRICE_ROWS, 'prices');
  const book = securityPriceBook(db);
  for (const { line, cell } of table) {
    const [date, symbol, price] = [cell('date'), cell('symbol').toUpperCase(), cell('price')];
    if (!isLedgerDate(date))
      throw csvLineError(line, `${JSON.stringify(date.slice(0, 40))} is not a date YYYY-MM-DD from ${DATE_RANGE_TEXT}`);
    const security = book.security(symbol);
    if (!security) throw csvLineError(line, `${JSON.stringify(symbol.slice(0, 40))} is not a declared security`);
    book.keep(line, security, date, price);
  }
  return db.transaction(() => {
    const saved = book.save(db);
    return { imported: saved.created + saved.replaced, first_date: saved.first_date, last_date: saved.last_date };
  });
}

/**
 * The rates import's reader of securities' prices (POST /api/prices/import, docs/investments.md
 * "Prices"): a row whose `from` is no ISO 4217 code is a security's price (`2024-02-01,VTI,USD,250`),
 * of a declared security, `to` its currency and `rate` its price.
 */
export function securityPriceRows(): SecurityPriceRows {
  let book: ReturnType<typeof securityPriceBook> | undefined;
  return {
    take(db, row) {
      if (isKnownCurrency(row.from)) return false;
      book ??= securityPriceBook(db);
      const security = book.security(row.from);
      if (!security)
        throw csvLineError(
          row.line,
          `${JSON.stringify(row.from.slice(0, 40))} is neither an ISO 4217 currency code nor a declared security`,
        );
      book.keep(row.line, security, row.date, row.rate, row.to);
      return true;
    },
    save: (db) => book?.save(db) ?? { created: 0, replaced: 0, first_date: null, last_date: null },
  };
}

/**
 * A trade's entry is not voided or corrected through the journal: its lots would no longer match
 * the books. (Undoing a trade is a trade the other way.)
 */
export const tradeEntryVoidGuard: VoidGuard = {
  beforeVoid(db, entryId, _at, action) {
    if (isTradeEntry(db, entryId))
      throw new DomainError(
        'INVALID_STATUS',
        `The entry is a trade’s and cannot be ${action}: book the opposite trade instead`,
      );
  },
};

/** Trades: a buy, sale or split worked out as a plan (entry lines, lots, gains), then booked in one transaction. */
import { newRowId } from '../../db/ids.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { TradeBody, TradePreview } from '../../contract/investments.ts';
import { currencyDigits } from '../../domain/currencies.ts';
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
  valueOf,
  type Lot,
  type Reduction,
  type SaleProblem,
} from '../../domain/lots.ts';
import { formatMinor, parseAmount } from '../../domain/money.ts';
import { createEntry } from '../journal/journal.service.ts';
import {
  addToHolding,
  insertLot,
  insertReduction,
  insertTrade,
  openLots,
  savePrice,
  updateLot,
  type ReductionRow,
  type TradeRow,
} from './investments.repository.ts';
import { requireSecurity, settingsOf, tradeAccount } from './investments.service.ts';

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

/** A sale's reductions with their share of the proceeds and their gains, and the short- and long-term totals. */
export function saleRows(
  reductions: readonly Reduction[],
  proceeds: bigint,
  date: string,
  longTermDays: number,
): { rows: ReductionRow[]; shortGain: bigint; longGain: bigint } {
  const parts = proceedsByReduction(proceeds, reductions);
  const rows: ReductionRow[] = reductions.map((r, i) => ({
    lotId: r.lotId,
    saleDate: date,
    unitsAtoms: r.units,
    basisMinor: r.basisMinor,
    proceedsMinor: parts[i]!,
    gainMinor: parts[i]! - r.basisMinor,
    longTerm: isLongTerm(r.date, date, longTermDays),
  }));
  const shortGain = rows.filter((r) => !r.longTerm).reduce((s, r) => s + r.gainMinor, 0n);
  const longGain = rows.filter((r) => r.longTerm).reduce((s, r) => s + r.gainMinor, 0n);
  return { rows, shortGain, longGain };
}

/** Writes what a sale did: the lots it changed, its reductions, and the holding's totals. */
export function applySale(
  db: LedgerDb,
  at: { accountId: string; securityId: string; tradeId: string },
  held: readonly Lot[],
  booked: { after: readonly Lot[]; costMinor: bigint },
  rows: readonly ReductionRow[],
): void {
  const before = new Map(held.map((l) => [l.id, l] as const));
  for (const lot of booked.after) {
    const was = before.get(lot.id)!;
    if (was.units !== lot.units || was.basisMinor !== lot.basisMinor) updateLot(db, lot);
  }
  for (const r of rows) insertReduction(db, at.tradeId, at.securityId, r);
  const units = rows.reduce((s, r) => s + r.unitsAtoms, 0n);
  const proceeds = rows.reduce((s, r) => s + r.proceedsMinor, 0n);
  addToHolding(db, at.accountId, at.securityId, -units, -booked.costMinor, proceeds - booked.costMinor);
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
    const { rows, shortGain, longGain } = saleRows(reductions, proceeds, body.date, settings.longTermDays);
    add(cash.id, 'DEBIT', gross - fees, label);
    if (feeAccount) add(feeAccount.id, 'DEBIT', fees, `Fees: ${label}`);
    add(account.id, 'CREDIT', costMinor, `${label}: cost basis`);
    add(settings.shortTermAccountId, 'CREDIT', shortGain, `${label}: short-term gain`);
    add(settings.longTermAccountId ?? settings.shortTermAccountId, 'CREDIT', longGain, `${label}: long-term gain`);
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
      apply: (tradeId) =>
        applySale(db, { accountId: account.id, securityId: sec.id, tradeId }, held, booked.booked, rows),
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

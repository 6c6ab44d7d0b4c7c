/** What the holdings are worth and have gained: the holdings report, open lots, realised gains. */
import type { LedgerDb } from '../../db/stores.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { localToday } from '../../domain/dates.ts';
import { formatPrice, formatUnits, parsePrice, PRICE_DECIMALS, unitCost, valueOf } from '../../domain/lots.ts';
import { formatMinor, formatScaled } from '../../domain/money.ts';
import { divideHalfEven } from '../../domain/rates.ts';
import { requireAccount } from '../accounts/accounts.service.ts';
import { currentHoldings, gainsBetween, holdingsAsOf, openLots, priceOn } from './investments.repository.ts';
import { requireSecurity } from './investments.service.ts';

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

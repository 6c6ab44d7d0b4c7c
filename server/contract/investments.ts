import { z } from 'zod';
import { BOOKING_METHODS, PRICE_PATTERN, SYMBOL_PATTERN, UNITS_PATTERN } from '../domain/lots.ts';
import { amountString, currencyCode, isoDate, isoDateTime, nameText, resourceId, uuid } from './common.ts';
import { isKnownCurrency } from './money.ts';

export const unitsString = z
  .string()
  .regex(UNITS_PATTERN, 'must be a positive number of units with at most 10 whole digits and 8 decimals')
  .refine((v) => /[1-9]/.test(v), 'must be above zero')
  .meta({ example: '10' });
export const unitPrice = z
  .string()
  .regex(PRICE_PATTERN, 'must be a positive price with at most 12 whole digits and 10 decimals')
  .refine((v) => /[1-9]/.test(v), 'must be above zero')
  .meta({ example: '210.50' });

export const securityBody = z.strictObject({
  symbol: z
    .string()
    .regex(SYMBOL_PATTERN, 'must be 1 to 24 capital letters, digits, ".", "_" or "-", starting with a letter')
    .refine((s) => !isKnownCurrency(s), 'must not be a currency code'),
  name: nameText(200),
  currency: currencyCode,
});

export const security = z
  .object({ id: resourceId, symbol: z.string(), name: z.string(), currency: z.string(), created_at: isoDateTime })
  .meta({ id: 'Security' });
export const securityList = z.object({ items: z.array(security) });

export const investmentSettingsBody = z.strictObject({
  booking_method: z.enum(BOOKING_METHODS),
  short_term_account_id: uuid,
  long_term_account_id: uuid.optional(),
  long_term_days: z.number().int().min(0).max(36_600).optional(),
});
export const investmentSettings = z
  .object({
    account_id: resourceId,
    booking_method: z.enum(BOOKING_METHODS),
    short_term_account_id: resourceId.nullable(),
    long_term_account_id: resourceId.nullable(),
    long_term_days: z.number().int(),
  })
  .meta({ id: 'InvestmentSettings' });
export const accountParams = z.object({ account_id: z.string().meta({ format: 'uuid' }) });

const fees = {
  /** commissions and fees of the trade, in the security's currency */
  fees: amountString.optional(),
  /** where fees go: into the cost basis or proceeds (default), or to an expense account */
  fee_account_id: uuid.optional(),
};
const common = {
  date: isoDate,
  account_id: uuid,
  security_id: uuid,
  memo: z.string().trim().max(500).optional(),
};

export const tradeBody = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('buy'),
    ...common,
    units: unitsString,
    price: unitPrice,
    /** where the money comes from (default: the account itself) */
    cash_account_id: uuid.optional(),
    ...fees,
  }),
  z.strictObject({
    kind: z.literal('sell'),
    ...common,
    units: unitsString,
    price: unitPrice,
    /** where the proceeds go (default: the account itself) */
    cash_account_id: uuid.optional(),
    /** lots named on the sale; without them the account's booking method chooses */
    lots: z
      .array(z.strictObject({ lot_id: resourceId, units: unitsString }))
      .min(1)
      .max(500)
      .optional(),
    ...fees,
  }),
  z.strictObject({
    kind: z.literal('dividend'),
    ...common,
    amount: amountString,
    income_account_id: uuid,
    /** where the cash goes (default: the account itself); not with reinvest */
    cash_account_id: uuid.optional(),
    /** a dividend reinvested: the units it bought at the price of the day */
    reinvest: z.strictObject({ units: unitsString, price: unitPrice }).optional(),
  }),
  z.strictObject({
    kind: z.literal('split'),
    ...common,
    /** new units per old unit, as `2:1` or `1:10` */
    ratio: z.string().regex(/^[1-9]\d{0,5}:[1-9]\d{0,5}$/, 'must be NEW:OLD, such as 2:1'),
  }),
]);

export const lotReduction = z.object({
  lot_id: resourceId,
  bought_on: isoDate,
  units: z.string(),
  cost_basis: z.string(),
  proceeds: z.string(),
  gain: z.string(),
  long_term: z.boolean(),
});

export const tradePreview = z
  .object({
    kind: z.enum(['buy', 'sell', 'dividend', 'split']),
    currency: z.string(),
    /** the entry the trade posts (none for a split) */
    lines: z.array(
      z.object({
        account_id: resourceId,
        direction: z.enum(['DEBIT', 'CREDIT']),
        amount: z.string(),
        memo: z.string(),
      }),
    ),
    units: z.string(),
    cost_basis: z.string(),
    proceeds: z.string(),
    realized_gain: z.string(),
    short_term_gain: z.string(),
    long_term_gain: z.string(),
    reductions: z.array(lotReduction),
  })
  .meta({ id: 'TradePreview' });

export const trade = tradePreview
  .extend({
    id: resourceId,
    entry_id: resourceId.nullable(),
    date: isoDate,
    account_id: resourceId,
    security_id: resourceId,
  })
  .meta({ id: 'Trade' });

export const holdingsQuery = z.strictObject({ as_of: isoDate.optional() });

export const holding = z
  .object({
    account_id: resourceId,
    account_name: z.string(),
    security_id: resourceId,
    symbol: z.string(),
    name: z.string(),
    currency: z.string(),
    units: z.string(),
    cost_basis: z.string(),
    /** the latest price on or before as_of, null without one */
    price: z.string().nullable(),
    price_date: isoDate.nullable(),
    market_value: z.string().nullable(),
    unrealized_gain: z.string().nullable(),
    /** unrealized gain / cost basis in percent, 2 decimals, half to even; null without a price or basis */
    return_percent: z.string().nullable(),
    realized_gain: z.string(),
  })
  .meta({ id: 'Holding' });
export const holdingsReport = z.object({ as_of: isoDate.nullable(), items: z.array(holding) });

export const lotParams = z.object({
  account_id: z.string().meta({ format: 'uuid' }),
  security_id: z.string().meta({ format: 'uuid' }),
});
export const openLot = z
  .object({
    id: resourceId,
    bought_on: isoDate,
    units_bought: z.string(),
    units: z.string(),
    cost_basis: z.string(),
    unit_cost: z.string(),
  })
  .meta({ id: 'Lot' });
export const lotList = z.object({ items: z.array(openLot) });

export const gainsQuery = z
  .strictObject({ from: isoDate, to: isoDate, symbol: z.string().max(24).optional() })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export const gainsReport = z.object({
  from: isoDate,
  to: isoDate,
  items: z.array(
    z.object({
      security_id: resourceId,
      symbol: z.string(),
      currency: z.string(),
      units_sold: z.string(),
      proceeds: z.string(),
      cost_basis: z.string(),
      short_term_gain: z.string(),
      long_term_gain: z.string(),
      realized_gain: z.string(),
    }),
  ),
});

export const securityPriceBody = z.strictObject({ date: isoDate, price: unitPrice });
export const securityPriceParams = z.object({ id: z.string().meta({ format: 'uuid' }) });
export const securityPrice = z.object({ security_id: resourceId, date: isoDate, price: z.string() });

export type SecurityBody = z.infer<typeof securityBody>;
export type TradeBody = z.infer<typeof tradeBody>;
export type TradePreview = z.infer<typeof tradePreview>;
export type InvestmentSettingsBody = z.infer<typeof investmentSettingsBody>;

/** A CSV file of security prices (header naming date, symbol and price): read on the server's thread, so kept small. */
export const SECURITY_PRICE_FILE_LIMIT = '1mb';
export const SECURITY_PRICE_FILE_BYTES = 1024 * 1024;
export const MAX_SECURITY_PRICE_ROWS = 5_000;
export const securityPriceImportResult = z.object({
  imported: z.number().int(),
  first_date: isoDate.nullable(),
  last_date: isoDate.nullable(),
});

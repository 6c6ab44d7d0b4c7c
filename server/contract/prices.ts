import { z } from 'zod';
import { RATE_PATTERN } from '../domain/rates.ts';
import { amountString, currencyCode, isoDate, isoDateTime, pageOf, pagination, resourceId } from './common.ts';
import { FIELD_MESSAGES } from './limits.ts';

/** A rate: a decimal string > 0 with at most 12 decimals (checked > 0 by the service's parse). */
export const rateString = z.string().regex(RATE_PATTERN, FIELD_MESSAGES.rate).meta({ example: '1.085' });

const differentCurrencies = { message: 'must differ from from', path: ['to'] };
/** The other side of a rate: JSON Schema cannot compare two fields, so the document says it in words. */
const otherCurrency = currencyCode.meta({ description: 'An ISO 4217 currency code other than `from`' });

export const priceBody = z
  .strictObject({ date: isoDate, from: currencyCode, to: otherCurrency, rate: rateString })
  .refine((p) => p.from !== p.to, differentCurrencies);

export const listPricesQuery = z.strictObject({
  from: currencyCode.optional(),
  to: currencyCode.optional(),
  ...pagination,
});

export const price = z
  .object({
    id: resourceId,
    date: isoDate,
    /** one unit of `from` is worth `rate` units of `to` on `date` */
    from: z.string(),
    to: z.string(),
    rate: z.string(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Price' });

export const pricePage = pageOf(price);

/** One amount converted at the rate table's rate of a day, as a booking in another currency converts it. */
export const convertQuery = z
  .strictObject({ amount: amountString, from: currencyCode, to: otherCurrency, date: isoDate })
  .refine((q) => q.from !== q.to, differentCurrencies);

export const conversion = z
  .object({
    amount: z.string(),
    from: z.string(),
    to: z.string(),
    date: isoDate,
    /** `amount` in `to`, rounded once to its minor units, half to even */
    converted_amount: z.string(),
    /** units of `to` per unit of `from` for showing: exact for a direct price, 12 decimals (half to even) for an inverse */
    rate: z.string(),
    /** the price that gave the rate: the pair's own, or the opposite pair's (the rate is then its inverse) */
    price,
  })
  .meta({ id: 'Conversion' });
export const latestPrices = z.object({ items: z.array(price) });

/** A CSV file of rates: a header naming `date`, `from`, `to` and `rate` columns, one price a row. */
export const PRICE_FILE_LIMIT = '5mb';
export const PRICE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_PRICE_ROWS = 20_000;

export const priceImportResult = z
  .object({
    created: z.number().int(),
    replaced: z.number().int(),
    /** of those created and replaced, how many are securities' prices (docs/investments.md) */
    security_prices: z.number().int(),
    first_date: isoDate.nullable(),
    last_date: isoDate.nullable(),
  })
  .meta({ id: 'PriceImportResult' });

/** A missing rate behind a converted figure: no price of the pair or its opposite on or before `date`. */
export const missingRate = z.object({ from: z.string(), to: z.string(), date: isoDate }).meta({ id: 'MissingRate' });

export type PriceInput = z.infer<typeof priceBody>;
export type PriceDto = z.infer<typeof price>;
export type ListPricesQuery = z.infer<typeof listPricesQuery>;
export type ConvertQuery = z.infer<typeof convertQuery>;
export type ConversionDto = z.infer<typeof conversion>;
export type MissingRate = z.infer<typeof missingRate>;

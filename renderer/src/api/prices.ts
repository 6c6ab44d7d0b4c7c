import type { z } from 'zod';
import type {
  ConversionDto,
  ConvertQuery,
  latestPrices,
  MissingRate,
  PriceDto,
  priceImportResult,
} from '../../../server/contract/prices.ts';
import { json, type Page } from './http.ts';

export type { ConversionDto, MissingRate, PriceDto };
export type PriceImportResult = z.infer<typeof priceImportResult>;
export type LatestPrices = z.infer<typeof latestPrices>;

export function listPrices(
  page: number,
  perPage = 20,
  pair: { from?: string; to?: string } = {},
): Promise<Page<PriceDto>> {
  return json('GET', '/api/prices', { query: { page, per_page: perPage, from: pair.from, to: pair.to } });
}

export function latestRates(): Promise<LatestPrices> {
  return json('GET', '/api/prices/latest');
}

/** Creates the rate of a pair on a date, or replaces the one of that date. */
export function savePrice(input: { date: string; from: string; to: string; rate: string }): Promise<PriceDto> {
  return json('POST', '/api/prices', { json: input });
}

export function deletePrice(id: string): Promise<void> {
  return json('DELETE', `/api/prices/${encodeURIComponent(id)}`);
}

/** Imports a CSV file of rates (header date,from,to,rate), all or nothing. */
export function importPrices(file: Blob): Promise<PriceImportResult> {
  return json('POST', '/api/prices/import', { file });
}

/** An amount at the rate table's rate of a day (an ApiError MISSING_RATE when the table has none). */
export function convertAmount(query: ConvertQuery): Promise<ConversionDto> {
  return json('GET', '/api/prices/convert', { query });
}

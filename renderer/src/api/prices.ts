import { answer, api, fileBody, type Answer, type Body, type Page, type Query, type Schemas } from './client.ts';

export type PriceDto = Schemas['Price'];
export type ConversionDto = Schemas['Conversion'];
export type MissingRate = Schemas['MissingRate'];
export type PriceImportResult = Schemas['PriceImportResult'];
export type LatestPrices = Answer<'/api/prices/latest', 'get'>;
export type ConvertQuery = Query<'/api/prices/convert', 'get'>;

export function listPrices(
  page: number,
  perPage = 20,
  pair: { from?: string; to?: string } = {},
): Promise<Page<PriceDto>> {
  return answer(
    api.GET('/api/prices', { params: { query: { page, per_page: perPage, from: pair.from, to: pair.to } } }),
  );
}

export function latestRates(): Promise<LatestPrices> {
  return answer(api.GET('/api/prices/latest'));
}

/** Creates the rate of a pair on a date, or replaces the one of that date. */
export function savePrice(input: Body<'/api/prices', 'post'>): Promise<PriceDto> {
  return answer(api.POST('/api/prices', { body: input }));
}

export async function deletePrice(id: string): Promise<void> {
  await api.DELETE('/api/prices/{id}', { params: { path: { id } } });
}

/** Imports a CSV file of rates (header date,from,to,rate), all or nothing. */
export function importPrices(file: Blob): Promise<PriceImportResult> {
  return answer(api.POST('/api/prices/import', fileBody(file)));
}

/** An amount at the rate table's rate of a day (an ApiError MISSING_RATE when the table has none). */
export function convertAmount(query: ConvertQuery): Promise<ConversionDto> {
  return answer(api.GET('/api/prices/convert', { params: { query } }));
}

import type { z } from 'zod';
import type {
  gainsReport,
  holdingsReport,
  investmentSettings,
  InvestmentSettingsBody,
  lotList,
  security,
  SecurityBody,
  securityList,
  securityPriceImportResult,
  trade,
  TradeBody,
  TradePreview,
} from '../../../server/contract/investments.ts';
import { json } from './http.ts';

export type { InvestmentSettingsBody, SecurityBody, TradeBody, TradePreview };
export type SecurityDto = z.infer<typeof security>;
export type HoldingsReport = z.infer<typeof holdingsReport>;
export type HoldingDto = HoldingsReport['items'][number];
export type LotDto = z.infer<typeof lotList>['items'][number];
export type TradeDto = z.infer<typeof trade>;
export type InvestmentSettingsDto = z.infer<typeof investmentSettings>;
export type GainsReport = z.infer<typeof gainsReport>;

export function listSecurities(): Promise<z.infer<typeof securityList>> {
  return json('GET', '/api/securities');
}

export function createSecurity(input: SecurityBody): Promise<SecurityDto> {
  return json('POST', '/api/securities', { json: input });
}

export function setSecurityPrice(id: string, input: { date: string; price: string }) {
  return json('PUT', `/api/securities/${encodeURIComponent(id)}/prices`, { json: input });
}

export function investmentSettingsOf(accountId: string): Promise<InvestmentSettingsDto> {
  return json('GET', `/api/investments/accounts/${encodeURIComponent(accountId)}`);
}

export function saveInvestmentSettings(
  accountId: string,
  input: InvestmentSettingsBody,
): Promise<InvestmentSettingsDto> {
  return json('PUT', `/api/investments/accounts/${encodeURIComponent(accountId)}`, { json: input });
}

/** What a trade would post and gain, booking nothing. */
export function previewTrade(input: TradeBody): Promise<TradePreview> {
  return json('POST', '/api/investments/trades/preview', { json: input });
}

export function bookTrade(input: TradeBody): Promise<TradeDto> {
  return json('POST', '/api/investments/trades', { json: input });
}

export function holdings(asOf?: string): Promise<HoldingsReport> {
  return json('GET', '/api/investments/holdings', { query: { as_of: asOf } });
}

export function openLots(accountId: string, securityId: string): Promise<{ items: LotDto[] }> {
  return json(
    'GET',
    `/api/investments/holdings/${encodeURIComponent(accountId)}/${encodeURIComponent(securityId)}/lots`,
  );
}

export function realizedGains(from: string, to: string): Promise<GainsReport> {
  return json('GET', '/api/investments/gains', { query: { from, to } });
}

/** Imports a CSV file of security prices (header date,symbol,price), all or nothing. */
export function importSecurityPrices(file: Blob): Promise<z.infer<typeof securityPriceImportResult>> {
  return json('POST', '/api/securities/prices/import', { file });
}

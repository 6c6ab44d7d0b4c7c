import { answer, api, fileBody, type Answer, type Body, type Schemas } from './client.ts';

export type SecurityDto = Schemas['Security'];
export type SecurityBody = Body<'/api/securities', 'post'>;
export type SecurityList = Answer<'/api/securities', 'get'>;
export type HoldingsReport = Answer<'/api/investments/holdings', 'get'>;
export type HoldingDto = Schemas['Holding'];
export type LotDto = Schemas['Lot'];
export type LotList = Answer<'/api/investments/holdings/{account_id}/{security_id}/lots', 'get'>;
export type TradeBody = Body<'/api/investments/trades', 'post'>;
export type TradePreview = Schemas['TradePreview'];
export type TradeDto = Schemas['Trade'];
export type InvestmentSettingsDto = Schemas['InvestmentSettings'];
export type InvestmentSettingsBody = Body<'/api/investments/accounts/{account_id}', 'put'>;
export type GainsReport = Answer<'/api/investments/gains', 'get'>;
export type SecurityPriceImportResult = Answer<'/api/securities/prices/import', 'post'>;
export type SecurityPrice = Answer<'/api/securities/{id}/prices', 'put'>;

export function listSecurities(): Promise<SecurityList> {
  return answer(api.GET('/api/securities'));
}

export function createSecurity(input: SecurityBody): Promise<SecurityDto> {
  return answer(api.POST('/api/securities', { body: input }));
}

export function setSecurityPrice(
  id: string,
  input: Body<'/api/securities/{id}/prices', 'put'>,
): Promise<SecurityPrice> {
  return answer(api.PUT('/api/securities/{id}/prices', { params: { path: { id } }, body: input }));
}

export function investmentSettingsOf(accountId: string): Promise<InvestmentSettingsDto> {
  return answer(api.GET('/api/investments/accounts/{account_id}', { params: { path: { account_id: accountId } } }));
}

export function saveInvestmentSettings(
  accountId: string,
  input: InvestmentSettingsBody,
): Promise<InvestmentSettingsDto> {
  return answer(
    api.PUT('/api/investments/accounts/{account_id}', {
      params: { path: { account_id: accountId } },
      body: input,
    }),
  );
}

/** What a trade would post and gain, booking nothing. */
export function previewTrade(input: TradeBody): Promise<TradePreview> {
  return answer(api.POST('/api/investments/trades/preview', { body: input }));
}

export function bookTrade(input: TradeBody): Promise<TradeDto> {
  return answer(api.POST('/api/investments/trades', { body: input }));
}

export function holdings(asOf?: string): Promise<HoldingsReport> {
  return answer(api.GET('/api/investments/holdings', { params: { query: { as_of: asOf } } }));
}

export function openLots(accountId: string, securityId: string): Promise<LotList> {
  return answer(
    api.GET('/api/investments/holdings/{account_id}/{security_id}/lots', {
      params: { path: { account_id: accountId, security_id: securityId } },
    }),
  );
}

export function realizedGains(from: string, to: string): Promise<GainsReport> {
  return answer(api.GET('/api/investments/gains', { params: { query: { from, to } } }));
}

/** Imports a CSV file of security prices (header date,symbol,price), all or nothing. */
export function importSecurityPrices(file: Blob): Promise<SecurityPriceImportResult> {
  return answer(api.POST('/api/securities/prices/import', fileBody(file)));
}

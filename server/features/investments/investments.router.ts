import { errorBody } from '../../contract/common.ts';
import {
  accountParams,
  gainsQuery,
  gainsReport,
  holdingsQuery,
  holdingsReport as holdingsReportSchema,
  investmentSettings,
  investmentSettingsBody,
  lotList,
  lotParams,
  security,
  securityBody,
  securityList,
  securityPrice,
  securityPriceBody,
  securityPriceParams,
  securityPriceImportResult,
  SECURITY_PRICE_FILE_BYTES,
  SECURITY_PRICE_FILE_LIMIT,
  trade,
  tradeBody,
  tradePreview,
} from '../../contract/investments.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { DomainError } from '../../domain/errors.ts';
import { readUpload } from '../../http/upload.ts';
import {
  createSecurity,
  getInvestmentSettings,
  listSecurities,
  importSecurityPrices,
  putInvestmentSettings,
  setSecurityPrice,
} from './investments.service.ts';
import { bookTrade, previewTrade } from './investments.trades.ts';
import { holdingsReport, lotsOf, realizedGains } from './investments.holdings.ts';

const invalid = { status: 400, description: 'VALIDATION_ERROR', schema: errorBody };
const tradeRefused = {
  status: 400,
  description:
    'VALIDATION_ERROR, INVALID_ACCOUNT (an account missing, inactive, of another currency or type), INSUFFICIENT_UNITS (more units than held, with the units held), INVALID_LOT',
  schema: errorBody,
};
const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };

export function investmentRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/securities',
      tag: 'investments',
      summary: 'The securities declared, by symbol',
      auth: true,
      cacheable: true,
      responses: [{ status: 200, description: 'Every security', schema: securityList }],
      handler: ({ session }) => ({ status: 200, body: listSecurities(session.ledger) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/securities',
      tag: 'investments',
      summary: 'Declare a security (a symbol that is not a currency code, its name and its price currency)',
      auth: true,
      body: securityBody,
      responses: [
        { status: 201, description: 'The new security', schema: security },
        {
          status: 400,
          description: 'VALIDATION_ERROR, DUPLICATE_NAME (the symbol is taken), TOO_MANY_SECURITIES (2,000 declared)',
          schema: errorBody,
        },
      ],
      handler: ({ session, body }) => ({ status: 201, body: createSecurity(session.ledger, body) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/securities/:id/prices',
      tag: 'investments',
      summary: 'Set the price of a security on a date (replacing the one of that date)',
      auth: true,
      params: securityPriceParams,
      body: securityPriceBody,
      responses: [{ status: 200, description: 'The price kept', schema: securityPrice }, invalid, notFound],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: setSecurityPrice(session.ledger, params.id, body.date, body.price),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/securities/prices/import',
      tag: 'investments',
      summary:
        'Import security prices from a CSV file (multipart field "file" or the raw body, UTF-8, at most 1 MiB and 5,000 rows) with a ' +
        'header row naming date, symbol and price; each row creates or replaces the price of a declared security on a date. Any bad row imports nothing.',
      auth: true,
      rawBody: {
        contentTypes: ['multipart/form-data', 'text/csv', 'text/plain', 'application/octet-stream'],
        description: 'the CSV file',
        limit: SECURITY_PRICE_FILE_LIMIT,
      },
      responses: [
        { status: 201, description: 'How many prices were kept', schema: securityPriceImportResult },
        { status: 400, description: 'VALIDATION_ERROR: the detail starts with the line at fault', schema: errorBody },
        { status: 413, description: 'PAYLOAD_TOO_LARGE', schema: errorBody },
      ],
      handler: async ({ session, req }) => {
        const { bytes } = await readUpload(req);
        if (bytes.byteLength > SECURITY_PRICE_FILE_BYTES)
          throw new DomainError('PAYLOAD_TOO_LARGE', 'The file is larger than 1 MiB');
        return { status: 201, body: importSecurityPrices(session.ledger, bytes) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/investments/accounts/:account_id',
      tag: 'investments',
      summary: 'How an account books its sales (FIFO unless set) and where their gains go',
      auth: true,
      cacheable: true,
      params: accountParams,
      responses: [{ status: 200, description: 'The settings', schema: investmentSettings }, notFound],
      handler: ({ session, params }) => ({
        status: 200,
        body: getInvestmentSettings(session.ledger, params.account_id),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/investments/accounts/:account_id',
      tag: 'investments',
      summary: 'Set an account’s booking method, gains accounts (INCOME) and long-term holding period in days',
      auth: true,
      params: accountParams,
      body: investmentSettingsBody,
      responses: [
        { status: 200, description: 'The settings', schema: investmentSettings },
        { status: 400, description: 'VALIDATION_ERROR, INVALID_ACCOUNT', schema: errorBody },
        notFound,
      ],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: putInvestmentSettings(session.ledger, params.account_id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/investments/trades/preview',
      tag: 'investments',
      summary: 'What a trade would post, the lots it would reduce and its gain, without booking it',
      auth: true,
      body: tradeBody,
      responses: [{ status: 200, description: 'The trade worked out', schema: tradePreview }, tradeRefused, notFound],
      handler: ({ session, body }) => ({ status: 200, body: previewTrade(session.ledger, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/investments/trades',
      tag: 'investments',
      summary:
        'Book a trade: a buy (a new lot), a sell (lots reduced by the account’s method or as named, the gain booked), a dividend (cash or reinvested) or a split',
      auth: true,
      body: tradeBody,
      responses: [{ status: 201, description: 'The trade booked', schema: trade }, tradeRefused, notFound],
      handler: ({ session, body }) => ({ status: 201, body: bookTrade(session.ledger, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/investments/holdings',
      tag: 'investments',
      summary:
        'Every holding: units, cost basis, market value at the latest price on or before as_of (today without it), unrealised and realised gain',
      auth: true,
      cacheable: true,
      query: holdingsQuery,
      responses: [{ status: 200, description: 'The holdings', schema: holdingsReportSchema }, invalid],
      handler: ({ session, query }) => ({ status: 200, body: holdingsReport(session.ledger, query.as_of) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/investments/holdings/:account_id/:security_id/lots',
      tag: 'investments',
      summary: 'The open lots of a holding, oldest first',
      auth: true,
      cacheable: true,
      params: lotParams,
      responses: [{ status: 200, description: 'The open lots', schema: lotList }, notFound],
      handler: ({ session, params }) => ({
        status: 200,
        body: lotsOf(session.ledger, params.account_id, params.security_id),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/investments/gains',
      tag: 'investments',
      summary: 'Realised gains per security over sale dates, short and long term',
      auth: true,
      cacheable: true,
      query: gainsQuery,
      responses: [{ status: 200, description: 'The gains', schema: gainsReport }, invalid],
      handler: ({ session, query }) => ({
        status: 200,
        body: realizedGains(session.ledger, query.from, query.to, query.symbol),
      }),
    }),
  ];
}

import { errorBody, idParams, jobBudgetResponse } from '../../contract/common.ts';
import {
  conversion,
  convertQuery,
  latestPrices as latestPricesSchema,
  listPricesQuery,
  price,
  priceBody,
  priceImportResult,
  pricePage,
  PRICE_FILE_BYTES,
  PRICE_FILE_LIMIT,
} from '../../contract/prices.ts';
import { DomainError } from '../../domain/errors.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { readUpload } from '../../http/upload.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { priceJobs } from './prices.jobs.ts';
import { convertAmount, latestPrices, listPricePage, removePrice, savePrice } from './prices.service.ts';

const invalid = { status: 400, description: 'VALIDATION_ERROR', schema: errorBody };

/** A rates file is a job (server/jobs) past the size the server's thread takes at once. */
export function priceRoutes(jobs: JobQueue<typeof priceJobs>): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/prices',
      tag: 'prices',
      summary: 'List exchange rates, newest date first, optionally of one currency (from) or into one (to)',
      auth: true,
      cacheable: true,
      query: listPricesQuery,
      responses: [{ status: 200, description: 'A page of prices', schema: pricePage }],
      handler: ({ session, query }) => ({ status: 200, body: listPricePage(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/prices',
      tag: 'prices',
      summary: 'Create the price of a pair on a date (201), or replace the rate of the one that exists (200)',
      auth: true,
      body: priceBody,
      responses: [
        { status: 201, description: 'The new price', schema: price },
        { status: 200, description: 'The replaced price', schema: price },
        invalid,
      ],
      handler: ({ session, body }) => {
        const { created, price: saved } = savePrice(session.ledger, body);
        return { status: created ? 201 : 200, body: saved };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/prices/latest',
      tag: 'prices',
      summary: 'The latest price of every pair',
      auth: true,
      cacheable: true,
      responses: [{ status: 200, description: 'One price per pair, by pair', schema: latestPricesSchema }],
      handler: ({ session }) => ({ status: 200, body: latestPrices(session.ledger) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/prices/convert',
      tag: 'prices',
      summary:
        'An amount converted at the rate of a day (the latest price on or before it, else 1 / the opposite pair’s), rounded once half to even: what booking a bank line into an account of another currency uses',
      auth: true,
      cacheable: true,
      query: convertQuery,
      responses: [
        { status: 200, description: 'The converted amount and the price behind it', schema: conversion },
        {
          status: 400,
          description: 'VALIDATION_ERROR, MISSING_RATE (no price of the pair before the day)',
          schema: errorBody,
        },
      ],
      handler: ({ session, query }) => ({ status: 200, body: convertAmount(session.ledger, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/prices/import',
      tag: 'prices',
      summary:
        'Import rates from a CSV file (multipart field "file" or the raw body, UTF-8, at most 5 MiB and 20,000 rows) with a ' +
        'header row naming date, from, to and rate; each row creates or replaces a price. Any bad row imports nothing.',
      auth: true,
      rawBody: {
        contentTypes: ['multipart/form-data', 'text/csv', 'text/plain', 'application/octet-stream'],
        description: 'the CSV file',
        limit: PRICE_FILE_LIMIT,
      },
      responses: [
        { status: 201, description: 'How many prices were created and replaced', schema: priceImportResult },
        { status: 400, description: 'VALIDATION_ERROR: the detail starts with the line at fault', schema: errorBody },
        { status: 413, description: 'PAYLOAD_TOO_LARGE', schema: errorBody },
        jobBudgetResponse,
      ],
      handler: async ({ session, req }) => {
        const { bytes } = await readUpload(req);
        if (bytes.byteLength > PRICE_FILE_BYTES)
          throw new DomainError('PAYLOAD_TOO_LARGE', 'The file is larger than 5 MiB');
        const size = bytes.byteLength;
        return { status: 201, body: await jobs.run(session.userId, 'importPriceCsv', { bytes }, size) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/prices/:id',
      tag: 'prices',
      summary: 'Delete a price',
      auth: true,
      params: idParams,
      responses: [
        { status: 204, description: 'Deleted' },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
      ],
      handler: ({ session, params }) => {
        removePrice(session.ledger, params.id);
        return { status: 204 };
      },
    }),
  ];
}

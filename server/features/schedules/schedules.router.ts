import { errorBody, idParams } from '../../contract/common.ts';
import {
  listSchedulesQuery,
  runResult,
  schedule,
  scheduleBody,
  schedulePage,
  skipBody,
  upcomingPage,
  upcomingQuery,
} from '../../contract/schedules.ts';
import { localToday } from '../../domain/dates.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import {
  bookDue,
  createSchedule,
  getSchedule,
  listSchedulePage,
  removeSchedule,
  replaceSchedule,
  skipOccurrence,
  upcoming,
} from './schedules.service.ts';

const notFound = { status: 404, description: 'NOT_FOUND', schema: errorBody };
const invalidLines = {
  status: 400,
  description: 'UNBALANCED, TOO_FEW_LINES, INACTIVE_ACCOUNT, INVALID_ACCOUNT, CURRENCY_MISMATCH, VALIDATION_ERROR',
  schema: errorBody,
};

export function scheduleRoutes(options: { today?: () => string } = {}): RouteDef[] {
  const today = options.today ?? (() => localToday());
  return [
    defineRoute({
      method: 'get',
      path: '/api/schedules',
      tag: 'schedules',
      summary: 'List scheduled entries by their next occurrence (ended ones last)',
      auth: true,
      cacheable: true,
      query: listSchedulesQuery,
      responses: [
        { status: 200, description: 'A page of schedules', schema: schedulePage },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
      ],
      handler: ({ session, query }) => ({
        status: 200,
        body: listSchedulePage(session.ledger, query.page, query.per_page),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/schedules',
      tag: 'schedules',
      summary:
        "Create a scheduled entry: lines as an entry's, daily|weekly|monthly|yearly every `interval`; a monthly one from the 29th-31st falls on the last day of shorter months",
      auth: true,
      body: scheduleBody,
      responses: [{ status: 201, description: 'The schedule, with next_date', schema: schedule }, invalidLines],
      handler: ({ session, body }) => ({ status: 201, body: createSchedule(session.ledger, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/upcoming',
      tag: 'schedules',
      summary: `Occurrences from today to until (default 30 days ahead; at most 366 days and 1000 occurrences), neither booked nor skipped, in date order`,
      auth: true,
      cacheable: true,
      query: upcomingQuery,
      responses: [
        { status: 200, description: 'A page of occurrences', schema: upcomingPage },
        {
          status: 400,
          description: 'VALIDATION_ERROR (also: until out of range, too many occurrences)',
          schema: errorBody,
        },
      ],
      handler: ({ session, query }) => ({
        status: 200,
        body: upcoming(session.ledger, today(), query.until, query.page, query.per_page),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/schedules/run',
      tag: 'schedules',
      summary:
        'Book the due occurrences (date ≤ today) as entries (source_type schedule; posted when auto_post, else drafts); each occurrence becomes at most one entry',
      auth: true,
      responses: [{ status: 200, description: 'The entries booked', schema: runResult }],
      handler: async ({ session }) => ({ status: 200, body: await bookDue(session.ledger, today()) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/schedules/:id',
      tag: 'schedules',
      summary: 'One schedule',
      auth: true,
      cacheable: true,
      params: idParams,
      responses: [{ status: 200, description: 'The schedule', schema: schedule }, notFound],
      handler: ({ session, params }) => ({ status: 200, body: getSchedule(session.ledger, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/schedules/:id',
      tag: 'schedules',
      summary: 'Replace a schedule; occurrences already booked stay, the next one follows the last booked',
      auth: true,
      params: idParams,
      body: scheduleBody,
      responses: [{ status: 200, description: 'The schedule', schema: schedule }, invalidLines, notFound],
      handler: ({ session, params, body }) => ({
        status: 200,
        body: replaceSchedule(session.ledger, params.id, body),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/schedules/:id',
      tag: 'schedules',
      summary: 'Delete a schedule (the entries it booked stay)',
      auth: true,
      params: idParams,
      responses: [{ status: 204, description: 'Deleted' }, notFound],
      handler: ({ session, params }) => {
        removeSchedule(session.ledger, params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/schedules/:id/skip',
      tag: 'schedules',
      summary: 'Skip one occurrence (it is never booked)',
      auth: true,
      params: idParams,
      body: skipBody,
      responses: [
        { status: 204, description: 'Skipped' },
        {
          status: 400,
          description: 'VALIDATION_ERROR (not an occurrence), INVALID_STATUS (already booked)',
          schema: errorBody,
        },
        notFound,
      ],
      handler: ({ session, params, body }) => {
        skipOccurrence(session.ledger, params.id, body.date);
        return { status: 204 };
      },
    }),
  ];
}

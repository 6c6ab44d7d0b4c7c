/**
 * The renderer's one way to the ledger: screens import every call and type from here, never from
 * the files behind it. One file per resource, named as in server/contract (accounts, journal,
 * reports, statements, reconciliation, export and journal import as `books`, backups, the advisor,
 * budgets, schedules, prices, settings, investments, attachments, sync, the history): thin typed functions over the
 * one client, `client.ts` (openapi-fetch over the generated `paths`), which sends the token kept
 * by `token.ts`.
 *
 * - Paths, parameters, bodies and answers are typed by the OpenAPI document (client/generated/):
 *   a renamed route or field breaks the renderer at compile time. Types are the document's
 *   (`Schemas[...]`, `Answer<path, method>`, `Body<…>`, `Query<…>`), never written by hand.
 * - Error answers (`{ detail, code?, errors? }`) become thrown `ApiError`s that carry them.
 * - A 401 on an authenticated call drops the token and tells the app (`onSessionEnded`), which
 *   returns to the sign-in screen with the reason.
 * - The advisor's answer is read as a stream, stoppable with an AbortSignal; an export is read as
 *   text and an attachment as a Blob, through the same client.
 */
export { ApiError, type FieldError } from './api-error.ts';
export type { Page } from './client.ts';
export { hasToken, onSessionEnded } from './token.ts';
export * from './auth.ts';
export * from './accounts.ts';
export * from './journal.ts';
export * from './reports.ts';
export * from './statements.ts';
export * from './reconciliation.ts';
export * from './rules.ts';
export * from './books.ts';
export * from './backups.ts';
export * from './advisor.ts';
export * from './budgets.ts';
export * from './schedules.ts';
export * from './prices.ts';
export * from './settings.ts';
export * from './investments.ts';
export * from './attachments.ts';
export * from './sync.ts';
export * from './history.ts';

/**
 * The renderer's one way to the ledger: every HTTP call goes through this module.
 *
 * - The bearer token lives here, in localStorage when the user chose "stay signed in", else in
 *   sessionStorage (gone when the window closes).
 * - Error answers (`{ detail, code?, errors? }`, CONTRACT §3) become thrown `ApiError`s that carry them.
 * - A 401 on an authenticated call drops the token and tells the app (`onSessionEnded`), which
 *   returns to the sign-in screen with the reason.
 * - The advisor's answer is read as a stream (fetch + ReadableStream), stoppable with an AbortSignal.
 *
 * Types come from the server's contract (type-only imports: nothing of the server is bundled).
 */
import type { z } from 'zod';
import type { UserDto } from '../../server/contract/auth.ts';
import type {
  AccountDto,
  CreateAccountInput,
  UpdateAccountInput,
  allBalances,
} from '../../server/contract/accounts.ts';
import type {
  CreateEntryInput,
  EntryStatus,
  JournalEntryDto,
  LineInput,
  SourceType,
  UpdateEntryInput,
  voidResult,
} from '../../server/contract/journal.ts';
import type { balanceSheet, cashFlow, incomeStatement, netWorthSeries } from '../../server/contract/reports.ts';
import type {
  BankTransactionDto,
  StatementDto,
  csvMapping,
  importPreview,
  importResult,
} from '../../server/contract/statements.ts';
import type {
  MatchDto,
  UnmatchedItemDto,
  acceptResult,
  batchAcceptResult,
  rejectResult,
  runResult,
  stats,
} from '../../server/contract/reconciliation.ts';
import type { chatSession as chatSessionSchema, modelStatus } from '../../server/contract/chat.ts';
import type { MissingRate, PriceDto, priceImportResult, latestPrices } from '../../server/contract/prices.ts';
import type { SettingsDto } from '../../server/contract/settings.ts';
import type {
  BackupDto,
  ExportFormat,
  ImportJournalResult,
  JournalFormat,
  backupList,
  restoreResult,
} from '../../server/contract/export.ts';

export type {
  AccountDto,
  JournalEntryDto,
  LineInput,
  EntryStatus,
  SourceType,
  StatementDto,
  BankTransactionDto,
  MatchDto,
  UnmatchedItemDto,
  UserDto,
};
export type AccountType = AccountDto['type'];
export type AllBalances = z.infer<typeof allBalances>;
export type BalanceRow = AllBalances['balances'][number];
export type VoidResult = z.infer<typeof voidResult>;
export type BalanceSheet = z.infer<typeof balanceSheet>;
export type IncomeStatement = z.infer<typeof incomeStatement>;
export type NetWorthSeries = z.infer<typeof netWorthSeries>;
export type CashFlow = z.infer<typeof cashFlow>;
export type CsvMapping = z.output<typeof csvMapping>;
export type ImportPreview = z.infer<typeof importPreview>;
export type ImportResult = z.infer<typeof importResult>;
export type RunResult = z.infer<typeof runResult>;
export type ReconciliationStats = z.infer<typeof stats>;
export type AcceptResult = z.infer<typeof acceptResult>;
export type RejectResult = z.infer<typeof rejectResult>;
export type BatchAcceptResult = z.infer<typeof batchAcceptResult>;
export type ChatSession = z.infer<typeof chatSessionSchema>;
export type ModelStatus = z.infer<typeof modelStatus>;
export type { TreeNode } from '../../server/contract/reports.ts';
export type { BackupDto, ExportFormat, ImportJournalResult, JournalFormat };
export type BackupList = z.infer<typeof backupList>;
export type { MissingRate, PriceDto, SettingsDto };
export type PriceImportResult = z.infer<typeof priceImportResult>;
export type LatestPrices = z.infer<typeof latestPrices>;
export type RestoreResult = z.infer<typeof restoreResult>;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
}

export interface FieldError {
  field: string;
  message: string;
}

/** An error answer of the server, or a failure to reach it (status 0, code NETWORK). */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string | undefined;
  readonly errors: FieldError[];

  constructor(status: number, detail: string, code?: string, errors: FieldError[] = []) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.errors = errors;
  }
}

// ---------------------------------------------------------------------------------------------
// The token

const TOKEN_KEY = 'personal-ledger.token';

function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage disabled: the token then lives in memory only
  }
}

let memoryToken: string | null = storage('local')?.getItem(TOKEN_KEY) ?? storage('session')?.getItem(TOKEN_KEY) ?? null;
let remembered = storage('local')?.getItem(TOKEN_KEY) != null;
const endedListeners = new Set<(reason: string) => void>();

/** Whether a token is kept (a session may be resumed). */
export function hasToken(): boolean {
  return memoryToken !== null;
}

function keepToken(token: string, stayedSignedIn: boolean): void {
  memoryToken = token;
  remembered = stayedSignedIn;
  storage(stayedSignedIn ? 'local' : 'session')?.setItem(TOKEN_KEY, token);
  storage(stayedSignedIn ? 'session' : 'local')?.removeItem(TOKEN_KEY);
}

function dropToken(): void {
  memoryToken = null;
  storage('local')?.removeItem(TOKEN_KEY);
  storage('session')?.removeItem(TOKEN_KEY);
}

/** Called with the server's reason when the session ends on its side (a 401). Returns an unsubscribe. */
export function onSessionEnded(listener: (reason: string) => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

// ---------------------------------------------------------------------------------------------
// Requests

type QueryValue = string | number | boolean | undefined | null;

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface RequestOptions {
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** A file sent as the raw body. */
  file?: Blob;
  signal?: AbortSignal;
  /** false for sign-in and sign-up: no token is sent and a 401 is the answer, not the end of a session. */
  auth?: boolean;
}

async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const authenticated = options.auth !== false;
  if (authenticated && memoryToken) headers.Authorization = `Bearer ${memoryToken}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.file !== undefined) {
    headers['Content-Type'] = 'application/octet-stream';
    body = options.file;
  }
  let response: Response;
  try {
    response = await fetch(path + queryString(options.query), {
      method,
      headers,
      body,
      signal: options.signal ?? null,
      credentials: 'omit',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(
      0,
      `The ledger server cannot be reached (${error instanceof Error ? error.message : String(error)}).`,
      'NETWORK',
    );
  }
  if (response.ok) return response;

  const failure = await errorOf(response);
  if (response.status === 401 && authenticated) {
    dropToken();
    for (const listener of endedListeners) listener(failure.detail);
  }
  throw failure;
}

async function errorOf(response: Response): Promise<ApiError> {
  let parsed: unknown;
  const text = await response.text().catch(() => '');
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string') {
    const body = parsed as { detail: string; code?: string; errors?: FieldError[] };
    return new ApiError(response.status, body.detail, body.code, Array.isArray(body.errors) ? body.errors : []);
  }
  return new ApiError(response.status, `The server answered ${response.status} ${response.statusText}`.trim());
}

async function json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Every page of a list, for the small lists a screen needs whole (accounts, statements). */
async function allPages<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await json<Page<T>>('GET', path, { query: { ...query, page, per_page: 100 } });
    items.push(...result.items);
    if (items.length >= result.total || result.items.length === 0) return items;
  }
}

// ---------------------------------------------------------------------------------------------
// Authentication

export type SignedInUser = Omit<UserDto, 'access_token' | 'token_type'>;

function signedIn(user: UserDto, stayedSignedIn: boolean): SignedInUser {
  keepToken(user.access_token, stayedSignedIn);
  const { access_token: _token, token_type: _type, ...rest } = user;
  return rest;
}

export async function signUp(
  input: { email: string; name: string; password: string },
  stayedSignedIn: boolean,
): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('POST', '/api/auth/register', { json: input, auth: false }), stayedSignedIn);
}

export async function signIn(
  input: { email: string; password: string },
  stayedSignedIn: boolean,
): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('POST', '/api/auth/login', { json: input, auth: false }), stayedSignedIn);
}

/** Resumes a kept session; the server hands out a fresh token, kept where the old one was. */
export async function resumeSession(): Promise<SignedInUser> {
  return signedIn(await json<UserDto>('GET', '/api/auth/me'), remembered);
}

export function signOut(): void {
  dropToken();
}

// ---------------------------------------------------------------------------------------------
// Accounts

export function allAccounts(): Promise<AccountDto[]> {
  return allPages<AccountDto>('/api/accounts');
}

export function createAccount(input: CreateAccountInput): Promise<AccountDto> {
  return json('POST', '/api/accounts', { json: input });
}

export function updateAccount(id: string, input: UpdateAccountInput): Promise<AccountDto> {
  return json('PUT', `/api/accounts/${encodeURIComponent(id)}`, { json: input });
}

export function deleteAccount(id: string): Promise<void> {
  return json('DELETE', `/api/accounts/${encodeURIComponent(id)}`);
}

export function accountBalances(asOf?: string): Promise<AllBalances> {
  return json('GET', '/api/accounts/balances', { query: { as_of: asOf } });
}

// ---------------------------------------------------------------------------------------------
// Journal

export interface EntryFilter {
  status?: EntryStatus | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  account_id?: string | undefined;
  source_type?: SourceType | undefined;
  page: number;
  per_page: number;
}

export function listEntries(filter: EntryFilter, signal?: AbortSignal): Promise<Page<JournalEntryDto>> {
  return json('GET', '/api/journal-entries', { query: { ...filter }, ...(signal ? { signal } : {}) });
}

export function getEntry(id: string): Promise<JournalEntryDto> {
  return json('GET', `/api/journal-entries/${encodeURIComponent(id)}`);
}

export function createEntry(input: CreateEntryInput): Promise<JournalEntryDto> {
  return json('POST', '/api/journal-entries', { json: input });
}

export function updateEntry(id: string, input: UpdateEntryInput): Promise<JournalEntryDto> {
  return json('PUT', `/api/journal-entries/${encodeURIComponent(id)}`, { json: input });
}

export function postEntry(id: string): Promise<JournalEntryDto> {
  return json('POST', `/api/journal-entries/${encodeURIComponent(id)}/post`);
}

export function voidEntry(id: string, reason: string): Promise<VoidResult> {
  return json('POST', `/api/journal-entries/${encodeURIComponent(id)}/void`, {
    json: reason.trim() ? { reason: reason.trim() } : {},
  });
}

// ---------------------------------------------------------------------------------------------
// Reports

// `convertTo` (a currency) adds `converted` and `missing_rates` to each report (CONTRACT §16).

export function balanceSheetReport(asOf?: string, convertTo?: string): Promise<BalanceSheet> {
  return json('GET', '/api/reports/balance-sheet', { query: { as_of: asOf, convert_to: convertTo } });
}

export function incomeStatementReport(
  startDate: string,
  endDate: string,
  convertTo?: string,
): Promise<IncomeStatement> {
  return json('GET', '/api/reports/income-statement', {
    query: { start_date: startDate, end_date: endDate, convert_to: convertTo },
  });
}

export function netWorthReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<NetWorthSeries> {
  return json('GET', '/api/reports/net-worth', {
    query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo },
  });
}

export function cashFlowReport(
  startDate: string,
  endDate: string,
  interval: 'day' | 'week' | 'month' = 'month',
  convertTo?: string,
): Promise<CashFlow> {
  return json('GET', '/api/reports/cash-flow', {
    query: { start_date: startDate, end_date: endDate, interval, convert_to: convertTo },
  });
}

// ---------------------------------------------------------------------------------------------
// Prices and the home currency (CONTRACT §16)

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

export function getSettings(): Promise<SettingsDto> {
  return json('GET', '/api/settings');
}

export function setHomeCurrency(currency: string): Promise<SettingsDto> {
  return json('PUT', '/api/settings', { json: { home_currency: currency } });
}

// ---------------------------------------------------------------------------------------------
// Statements

export interface ImportOptions {
  accountId: string;
  file: Blob;
  /** The CSV column mapping to use instead of the guessed (or remembered) one. */
  mapping?: CsvMapping | undefined;
  name?: string | undefined;
}

function importQuery(options: ImportOptions, dryRun: boolean): Record<string, QueryValue> {
  return {
    account_id: options.accountId,
    name: options.name?.trim() || undefined,
    mapping: options.mapping ? JSON.stringify(options.mapping) : undefined,
    dry_run: dryRun ? 'true' : undefined,
  };
}

/** What an import would store, without storing it (and, for CSV, the guessed column mapping). */
export function previewImport(options: ImportOptions): Promise<ImportPreview> {
  return json('POST', '/api/statements/import', { query: importQuery(options, true), file: options.file });
}

export function importStatement(options: ImportOptions): Promise<ImportResult> {
  return json('POST', '/api/statements/import', { query: importQuery(options, false), file: options.file });
}

export function listStatements(page: number, perPage = 20): Promise<Page<StatementDto>> {
  return json('GET', '/api/statements', { query: { page, per_page: perPage } });
}

export function statementTransactions(id: string, page: number, perPage = 50): Promise<Page<BankTransactionDto>> {
  return json('GET', `/api/statements/${encodeURIComponent(id)}/transactions`, { query: { page, per_page: perPage } });
}

export function deleteStatement(id: string): Promise<void> {
  return json('DELETE', `/api/statements/${encodeURIComponent(id)}`);
}

// ---------------------------------------------------------------------------------------------
// Reconciliation

export function runReconciliation(scope: { statement_id: string } | { account_id: string }): Promise<RunResult> {
  return json('POST', '/api/reconciliation/run', { json: scope });
}

export function pendingMatches(page: number, perPage = 20, minScore?: number): Promise<Page<MatchDto>> {
  return json('GET', '/api/reconciliation/pending', { query: { page, per_page: perPage, min_score: minScore } });
}

export function acceptMatch(id: string, version: number): Promise<AcceptResult> {
  return json('POST', `/api/reconciliation/matches/${encodeURIComponent(id)}/accept`, { json: { version } });
}

export function rejectMatch(id: string, version: number, reason: string): Promise<RejectResult> {
  return json('POST', `/api/reconciliation/matches/${encodeURIComponent(id)}/reject`, {
    json: reason.trim() ? { version, reason: reason.trim() } : { version },
  });
}

export function batchAccept(minScore: number): Promise<BatchAcceptResult> {
  return json('POST', '/api/reconciliation/batch-accept', { json: { min_score: minScore } });
}

export function reconciliationStats(): Promise<ReconciliationStats> {
  return json('GET', '/api/reconciliation/stats');
}

export function unmatchedItems(page: number, perPage = 20): Promise<Page<UnmatchedItemDto>> {
  return json('GET', '/api/reconciliation/unmatched', { query: { page, per_page: perPage } });
}

export function createEntryForBankTransaction(
  bankTransactionId: string,
  accountId: string,
  memo: string,
): Promise<{ entry: JournalEntryDto; match: MatchDto }> {
  return json('POST', `/api/reconciliation/unmatched/${encodeURIComponent(bankTransactionId)}/create-entry`, {
    json: memo.trim() ? { account_id: accountId, memo: memo.trim() } : { account_id: accountId },
  });
}

// ---------------------------------------------------------------------------------------------
// Export, journal import, backups

/** The formats, in the order the settings screen offers them (the server's EXPORT_FORMATS). */
export const EXPORT_FORMAT_LIST = ['ledger', 'hledger', 'beancount', 'csv'] as const satisfies readonly ExportFormat[];
export const JOURNAL_FORMAT_LIST = ['ledger', 'hledger', 'beancount'] as const satisfies readonly JournalFormat[];

export interface ExportRange {
  as_of?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** An exported file: its text and the name the server gave it (Content-Disposition). */
export interface ExportedFile {
  fileName: string;
  contentType: string;
  text: string;
}

function fileNameOf(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1] ?? fallback;
}

export async function exportBooks(format: ExportFormat, range: ExportRange = {}): Promise<ExportedFile> {
  const response = await send('GET', '/api/export', { query: { format, ...range } });
  const contentType = response.headers.get('Content-Type') ?? 'text/plain; charset=utf-8';
  const fallback = `personal-ledger.${format === 'csv' ? 'csv' : format === 'beancount' ? 'beancount' : 'journal'}`;
  return {
    fileName: fileNameOf(response.headers.get('Content-Disposition'), fallback),
    contentType,
    text: await response.text(),
  };
}

/** Imports a ledger, hledger or beancount journal, all or nothing (a refusal's detail names the line). */
export function importJournal(format: JournalFormat, file: Blob): Promise<ImportJournalResult> {
  return json('POST', '/api/import/journal', { query: { format }, file });
}

export function createBackup(): Promise<BackupDto> {
  return json('POST', '/api/backup');
}

export function listBackups(): Promise<BackupList> {
  return json('GET', '/api/backups');
}

/** Replaces the ledger by a backup; the server backs up the ledger as it was first (`safety_backup`). */
export function restoreBackup(name: string): Promise<RestoreResult> {
  return json('POST', `/api/backups/${encodeURIComponent(name)}/restore`);
}

// ---------------------------------------------------------------------------------------------
// The advisor

export function chatStatus(): Promise<ModelStatus> {
  return json('GET', '/api/chat/status');
}

export async function chatSessions(): Promise<ChatSession[]> {
  return (await json<{ sessions: ChatSession[] }>('GET', '/api/chat/history')).sessions;
}

export async function chatSession(id: string): Promise<ChatSession | undefined> {
  return (await json<{ sessions: ChatSession[] }>('GET', '/api/chat/history', { query: { session_id: id } }))
    .sessions[0];
}

export function deleteChatSession(id: string): Promise<void> {
  return json('DELETE', `/api/chat/session/${encodeURIComponent(id)}`);
}

export async function chatSuggestions(language: 'en' | 'zh'): Promise<string[]> {
  return (await json<{ suggestions: string[] }>('GET', '/api/chat/suggestions', { query: { language } })).suggestions;
}

export interface ChatStreamResult {
  sessionId: string | null;
  /** true when the reader stopped it (the signal aborted) before the server finished */
  stopped: boolean;
}

/**
 * Asks the advisor and hands each piece of the answer to `onText` as it arrives. Aborting `signal`
 * (the Stop button) closes the stream; the server then stops the model and keeps what was said.
 */
export async function askAdvisor(
  message: string,
  sessionId: string | null,
  onText: (text: string) => void,
  signal: AbortSignal,
  onSession?: (sessionId: string) => void,
): Promise<ChatStreamResult> {
  let response: Response;
  try {
    response = await send('POST', '/api/chat', {
      json: sessionId ? { message, session_id: sessionId } : { message },
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { sessionId, stopped: true };
    throw error;
  }
  const newSessionId = response.headers.get('X-Session-Id') ?? sessionId;
  if (newSessionId) onSession?.(newSessionId);
  const reader = response.body?.getReader();
  if (!reader) {
    onText(await response.text());
    return { sessionId: newSessionId, stopped: false };
  }
  const decoder = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) onText(text);
    }
    const rest = decoder.decode();
    if (rest) onText(rest);
    return { sessionId: newSessionId, stopped: false };
  } catch (error) {
    if (signal.aborted) return { sessionId: newSessionId, stopped: true };
    throw new ApiError(
      0,
      `The answer was cut off (${error instanceof Error ? error.message : String(error)}).`,
      'NETWORK',
    );
  } finally {
    reader.releaseLock();
  }
}

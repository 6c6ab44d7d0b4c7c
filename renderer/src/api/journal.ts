import type { z } from 'zod';
import type {
  CorrectEntryInput,
  CreateEntryInput,
  EntryStatus,
  JournalEntryDto,
  LineInput,
  SourceType,
  UpdateEntryInput,
  correctResult,
  entryPage,
  voidResult,
} from '../../../server/contract/journal.ts';
import { json, type Page } from './http.ts';

export type { EntryStatus, JournalEntryDto, LineInput, SourceType };
export type VoidResult = z.infer<typeof voidResult>;
export type CorrectResult = z.infer<typeof correctResult>;
/** A page of entries; `total_exact` false: a search's `total` is a lower bound. */
export type EntryPage = z.infer<typeof entryPage>;

export interface EntryFilter {
  status?: EntryStatus | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  account_id?: string | undefined;
  source_type?: SourceType | undefined;
  /** memo words and exact amounts */
  q?: string | undefined;
  /** entries with a line of at least / at most this amount, in any currency (decimal strings) */
  amount_min?: string | undefined;
  amount_max?: string | undefined;
  page: number;
  per_page: number;
}

export function listEntries(filter: EntryFilter, signal?: AbortSignal): Promise<EntryPage> {
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

/** Voids a posted entry and posts its corrected version, in one step; the two point at each other. */
export function correctEntry(id: string, input: CorrectEntryInput): Promise<CorrectResult> {
  return json('POST', `/api/journal-entries/${encodeURIComponent(id)}/correct`, { json: input });
}

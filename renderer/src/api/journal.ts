import { answer, api, type Answer, type Body, type Query, type Schemas } from './client.ts';

export type JournalEntryDto = Schemas['JournalEntry'];
export type EntryStatus = JournalEntryDto['status'];
export type SourceType = JournalEntryDto['source_type'];
export type CreateEntryInput = Body<'/api/journal-entries', 'post'>;
export type UpdateEntryInput = Body<'/api/journal-entries/{id}', 'put'>;
export type CorrectEntryInput = Body<'/api/journal-entries/{id}/correct', 'post'>;
/** A line as sent in an entry. */
export type LineInput = CreateEntryInput['lines'][number];
export type VoidResult = Answer<'/api/journal-entries/{id}/void', 'post'>;
export type CorrectResult = Answer<'/api/journal-entries/{id}/correct', 'post'>;
/** A page of entries; `total_exact` false: a search's `total` is a lower bound. */
export type EntryPage = Answer<'/api/journal-entries', 'get'>;
/**
 * The list's filters: status, dates, account, source, `q` (memo words and exact amounts), and
 * `amount_min`/`amount_max` (entries with a line of at least / at most this amount, in any
 * currency, as decimal strings); a page always.
 */
export type EntryFilter = Query<'/api/journal-entries', 'get'> & { page: number; per_page: number };

export function listEntries(filter: EntryFilter, signal?: AbortSignal): Promise<EntryPage> {
  return answer(api.GET('/api/journal-entries', { params: { query: filter }, ...(signal ? { signal } : {}) }));
}

export function getEntry(id: string): Promise<JournalEntryDto> {
  return answer(api.GET('/api/journal-entries/{id}', { params: { path: { id } } }));
}

export function createEntry(input: CreateEntryInput): Promise<JournalEntryDto> {
  return answer(api.POST('/api/journal-entries', { body: input }));
}

export function updateEntry(id: string, input: UpdateEntryInput): Promise<JournalEntryDto> {
  return answer(api.PUT('/api/journal-entries/{id}', { params: { path: { id } }, body: input }));
}

export function postEntry(id: string): Promise<JournalEntryDto> {
  return answer(api.POST('/api/journal-entries/{id}/post', { params: { path: { id } } }));
}

export function voidEntry(id: string, reason: string): Promise<VoidResult> {
  return answer(
    api.POST('/api/journal-entries/{id}/void', {
      params: { path: { id } },
      body: reason.trim() ? { reason: reason.trim() } : {},
    }),
  );
}

/** Voids a posted entry and posts its corrected version, in one step; the two point at each other. */
export function correctEntry(id: string, input: CorrectEntryInput): Promise<CorrectResult> {
  return answer(api.POST('/api/journal-entries/{id}/correct', { params: { path: { id } }, body: input }));
}

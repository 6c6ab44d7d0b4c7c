import type { HistoryItem, HistoryPage, undoResult } from '../../../server/contract/sync.ts';
import type { z } from 'zod';
import { json } from './http.ts';

export type { HistoryItem, HistoryPage };
export type UndoResult = z.infer<typeof undoResult>;

/** A page of the books' history, newest first; `before`: the previous page's `next_before`. */
export function getHistory(query: { before?: string; limit?: number } = {}): Promise<HistoryPage> {
  return json('GET', '/api/history', { query });
}

/** Undoes this computer's last change (a posted entry is voided); the undo syncs like any change. */
export function undoLastChange(): Promise<UndoResult> {
  return json('POST', '/api/history/undo');
}

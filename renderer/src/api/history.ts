import { answer, api, type Query, type Schemas } from './client.ts';

export type HistoryItem = Schemas['HistoryItem'];
export type HistoryPage = Schemas['HistoryPage'];
export type UndoResult = Schemas['UndoResult'];

/** A page of the books' history, newest first; `before`: the previous page's `next_before`. */
export function getHistory(query: Query<'/api/history', 'get'> = {}): Promise<HistoryPage> {
  return answer(api.GET('/api/history', { params: { query } }));
}

/** Undoes this computer's last change (a posted entry is voided); the undo syncs like any change. */
export function undoLastChange(): Promise<UndoResult> {
  return answer(api.POST('/api/history/undo'));
}

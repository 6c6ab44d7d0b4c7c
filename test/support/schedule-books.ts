import { afterAll, beforeAll, expect } from 'vitest';
import { writeBooks } from './books.ts';
import { ledgerFile, registerUser, startTestServer, type Api, type TestServer } from './server.ts';

/**
 * What the schedules' HTTP tests (server/features/schedules/schedules.*.http.test.ts) share: a
 * server whose booking round the tests run themselves, and a new user's books with the calls on them.
 */

export let t: TestServer;
export let api: Api;
/** The booking round the server hands its trigger; the tests call it instead of a timer. */
export let bookAll: (() => Promise<void>) | undefined;

/** Starts the server before the file's tests, keeping its booking round, and stops it after them. */
export function useScheduleServer(): void {
  beforeAll(async () => {
    t = await startTestServer({
      scheduleTrigger: (book) => {
        bookAll = book;
        return async () => {};
      },
    });
    api = t.api;
  });
  afterAll(() => t.stop());
}

/** A new user with rent, streaming and pay to schedule from a checking account. */
export async function book() {
  const user = await registerUser(api);
  const { accounts: ids } = await writeBooks(
    api,
    user.token,
    `
account Checking   ; type: ASSET
account Rent       ; type: EXPENSE
account Streaming  ; type: EXPENSE
account Salary     ; type: INCOME
`,
  );
  const lines = (expense: string, amount: string) => [
    { account_id: ids[expense], direction: 'DEBIT', amount },
    { account_id: ids.Checking, direction: 'CREDIT', amount },
  ];
  const create = async (body: Record<string, unknown>) => {
    const res = await api.post('/api/schedules', { lines: lines('Rent', '1200.00'), ...body }, user.token);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const entries = async (perPage = 100) =>
    (await api.get(`/api/journal-entries?source_type=schedule&per_page=${perPage}`, user.token)).body;
  return {
    user,
    ids,
    lines,
    create,
    entries,
    file: ledgerFile(t.dataDir, user.id),
    get: (path: string) => api.get(path, user.token),
    post: (path: string, body?: unknown) => api.post(path, body, user.token),
  };
}

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkLedgerFile,
  killServer,
  prng,
  recordResults,
  send,
  signUpWithAccounts,
  spawnServer,
  tempDir,
  type ChildServer,
} from './support.ts';

/**
 * SIGKILL while many clients post at once: the requests that arrive together share one transaction
 * and one sync to disk (group commit), and each is answered only once that commit is durable. After
 * every kill the file must be intact, hold every entry whose 201 a client read (single entries and
 * batches), and hold each batch whole or not at all. HARDENING_KILLS sets the kill points as in
 * crash.test.ts (a fifth of them here, at least 5); HARDENING_SEED replays a run.
 */
const KILLS = Math.max(5, Math.round(Number(process.env.HARDENING_KILLS ?? 50) / 5));
const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 2 ** 31);
/** Clients posting at once: enough that each commit takes several requests. */
const CLIENTS = 16;
const BATCH = 25;

const dirs: string[] = [];
let current: ChildServer | undefined;
afterAll(async () => {
  if (current) await killServer(current);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('crashes: SIGKILL while many clients post at once', () => {
  it(`when the server is killed at ${KILLS} random points while ${CLIENTS} clients post entries and batches, then no acknowledged entry is lost and no batch is stored in part`, async () => {
    const random = prng(SEED);
    const dataDir = tempDir('crash-concurrent');
    dirs.push(dataDir);
    const acked = new Set<string>();
    /** Every batch sent, by its memo tag: how many entries it has, and whether its 201 was read. */
    const batches = new Map<string, { size: number; acked: boolean }>();
    const unexpected: string[] = [];
    let token = '';
    let userId = '';
    const accounts: Record<string, string> = {};
    let killsWithRequestsInFlight = 0;
    let mostInFlight = 0;

    for (let life = 0; life < KILLS; life++) {
      current = await spawnServer(dataDir);
      const url = current.url;
      let killed = false;
      let inFlight = 0;

      if (life === 0) {
        const owner = await signUpWithAccounts(url, { email: 'concurrent@example.com', name: 'Concurrent' }, [
          ['Bank', 'ASSET'],
          ['Food', 'EXPENSE'],
        ]);
        ({ token, userId } = owner);
        Object.assign(accounts, owner.accounts);
      }

      const post = async (urlPath: string, body: unknown) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          return await send(url + urlPath, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        } finally {
          inFlight -= 1;
        }
      };
      const entry = (memo: string) => {
        const amount = `${1 + Math.floor(random() * 300)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
        return {
          entry_date: `2026-02-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
          memo,
          auto_post: true,
          lines: [
            { account_id: accounts.Food, direction: 'DEBIT', amount },
            { account_id: accounts.Bank, direction: 'CREDIT', amount },
          ],
        };
      };

      let sent = 0;
      const client = async (n: number) => {
        while (!killed) {
          const tag = `${life}-${n}-${sent++}`;
          try {
            if (random() < 0.1) {
              batches.set(tag, { size: BATCH, acked: false });
              const entries = Array.from({ length: BATCH }, (_, i) => entry(`batch ${tag} #${i}`));
              const res = await post('/api/journal-entries/batch', { entries });
              if (res.status === 201) {
                for (const e of res.body.items as { id: string }[]) acked.add(e.id);
                batches.get(tag)!.acked = true;
              } else unexpected.push(`batch: ${res.status} ${res.text.slice(0, 200)}`);
            } else {
              const res = await post('/api/journal-entries', entry(`single ${tag}`));
              if (res.status === 201) acked.add(res.body.id);
              else unexpected.push(`entry: ${res.status} ${res.text.slice(0, 200)}`);
            }
          } catch (error) {
            if (!killed) unexpected.push(`request failed while the server was up: ${(error as Error).message}`);
            return;
          }
        }
      };
      const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
      await new Promise((r) => setTimeout(r, 100 + random() * 400));
      if (inFlight > 0) killsWithRequestsInFlight += 1;
      killed = true;
      const exit = await killServer(current);
      expect(exit.signal).toBe('SIGKILL');
      await Promise.all(clients);
      current = undefined;

      const file = path.join(dataDir, 'ledgers', `${userId}.sqlite`);
      expect(checkLedgerFile(file).problems, `after kill ${life + 1} (seed ${SEED})`).toEqual([]);
      const db = new Database(file, { readonly: true });
      try {
        const status = db.prepare('SELECT status FROM journal_entries WHERE id = ?').pluck();
        const lost = [...acked].filter((id) => status.get(id) !== 'posted');
        expect(lost, `acknowledged entries missing after kill ${life + 1} (seed ${SEED})`).toEqual([]);
        const stored = db.prepare('SELECT COUNT(*) FROM journal_entries WHERE memo LIKE ?').pluck();
        for (const [tag, batch] of batches) {
          const count = Number(stored.get(`batch ${tag} #%`));
          expect(
            batch.acked ? [batch.size] : [0, batch.size],
            `batch ${tag} after kill ${life + 1} (seed ${SEED})`,
          ).toContain(count);
        }
      } finally {
        db.close();
      }
      expect(unexpected, `seed ${SEED}`).toEqual([]);
    }

    // the kills landed among requests in flight, with many clients waiting on one commit
    expect(killsWithRequestsInFlight).toBeGreaterThan(0);
    expect(mostInFlight).toBeGreaterThanOrEqual(CLIENTS / 2);
    const final = checkLedgerFile(path.join(dataDir, 'ledgers', `${userId}.sqlite`));
    await recordResults('crash_concurrent_posting', {
      kill_points_survived: KILLS,
      clients: CLIENTS,
      kills_with_requests_in_flight: killsWithRequestsInFlight,
      acknowledged_entries_checked: acked.size,
      batches_sent: batches.size,
      entries_in_ledger: final.entries,
      seed: SEED,
    });
  });
});

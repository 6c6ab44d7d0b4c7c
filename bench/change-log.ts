/**
 * What the change log costs a posting: `node bench/change-log.ts [postings]` (default 2000) posts
 * the same entries, alternately, into two fresh ledgers in one process: one as the app keeps it
 * (every write logs its changes before it commits, docs/sync.md) and one with the log's triggers
 * dropped and its hook off. Each posting is a whole write as a request makes it (its own
 * transaction, synced to disk). Prints the p50 and p90 of each and the ratio, wall-clock and the
 * process's CPU time (user and system, which other processes on a busy machine disturb less); then
 * the same with the disk sync off (synchronous=OFF), the CPU's share alone; then the pages each
 * posting writes to the WAL (what the disk sync has to carry), which no load changes.
 *
 * Then a bank statement of `lines` rows (`node bench/change-log.ts [postings] [lines]`, default
 * 10,000) imported the same way into each, three times alternately: the import's own write (which
 * logs the first TAKE_BATCH marks), the rest of its marks turned into messages as the next sync
 * does, and how many messages and bytes of value the import leaves to send.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Stores, type LedgerDb } from '../server/db/stores.ts';
import { createAccount } from '../server/features/accounts/accounts.service.ts';
import { createEntry } from '../server/features/journal/journal.service.ts';
import { createStatement } from '../server/features/statements/statements.service.ts';
import { takeAllMarks } from '../server/features/sync/ledger-store.ts';

const count = Number(process.argv[2] ?? 2000);
const statementLines = Number(process.argv[3] ?? 10_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-log-benchmark-'));
const USER = '00000000-0000-4000-8000-000000000001';

interface Books {
  db: LedgerDb;
  accounts: string[];
  wal: string;
}

function ledger(name: string, logged: boolean): Books {
  const stores = new Stores(path.join(dir, name));
  const db = stores.ledger(USER);
  if (!logged) {
    for (const { name: trigger } of db.allSql<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_changed_%'",
    ))
      db.sqlite.exec(`DROP TRIGGER ${trigger}`);
    db.writeHook = undefined;
  }
  const accounts = ['Checking', 'Groceries', 'Dining', 'Rent'].map(
    (n, i) => createAccount(db, { name: n, type: i === 0 ? 'ASSET' : 'EXPENSE' }).id,
  );
  return { db, accounts, wal: `${stores.ledgerFile(USER)}-wal` };
}

function post({ db, accounts }: Books, i: number): void {
  const amount = `${1 + (i % 500)}.${String(i % 100).padStart(2, '0')}`;
  createEntry(db, {
    entry_date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-15`,
    memo: `Shop ${i}`,
    auto_post: true,
    lines: [
      { account_id: accounts[1 + (i % 3)]!, direction: 'DEBIT', amount },
      { account_id: accounts[0]!, direction: 'CREDIT', amount },
    ],
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function run(synchronous: 'FULL' | 'OFF'): void {
  const books = [ledger(`logged-${synchronous}`, true), ledger(`plain-${synchronous}`, false)];
  for (const { db } of books) db.sqlite.pragma(`synchronous = ${synchronous}`);
  const wall: number[][] = [[], []];
  const cpu: number[][] = [[], []];
  for (let i = 0; i < count; i++) {
    for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const startedCpu = process.cpuUsage();
      const started = performance.now();
      post(books[which]!, i);
      wall[which]!.push(performance.now() - started);
      const used = process.cpuUsage(startedCpu);
      cpu[which]!.push((used.user + used.system) / 1000);
    }
  }
  const sorted = (t: number[][]) => t.map((x) => x.sort((a, b) => a - b)) as [number[], number[]];
  const [logged, plain] = sorted(wall);
  const [loggedCpu, plainCpu] = sorted(cpu);
  const row = (name: string, t: number[], c: number[]) =>
    `| ${name} | ${percentile(t, 0.5).toFixed(3)} | ${percentile(t, 0.9).toFixed(3)} | ${percentile(t, 0.95).toFixed(3)} | ${percentile(c, 0.5).toFixed(3)} | ${percentile(c, 0.95).toFixed(3)} |`;
  console.log(
    `\nsynchronous=${synchronous}, ${count} postings each (ms), load average ${os.loadavg()[0]!.toFixed(1)}\n| ledger | p50 | p90 | p95 | CPU p50 | CPU p95 |\n|---|---|---|---|---|---|`,
  );
  console.log(row('with the change log', logged, loggedCpu));
  console.log(row('without it (triggers dropped, hook off)', plain, plainCpu));
  const ratio = (a: number[], b: number[], p: number) => (percentile(a, p) / percentile(b, p)).toFixed(3);
  console.log(
    `ratio: p50 ${ratio(logged, plain, 0.5)}, p95 ${ratio(logged, plain, 0.95)}; CPU p50 ${ratio(loggedCpu, plainCpu, 0.5)}, CPU p95 ${ratio(loggedCpu, plainCpu, 0.95)}`,
  );
  if (synchronous === 'OFF') pages(books);
}

/** The WAL frames (pages) a posting adds, over 200 more postings with the checkpoints held off. */
function pages(books: Books[]): void {
  const per = books.map((b) => {
    b.db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    b.db.sqlite.pragma('wal_autocheckpoint = 0');
    const pageSize = b.db.sqlite.pragma('page_size', { simple: true }) as number;
    const before = fs.statSync(b.wal).size;
    for (let i = 0; i < 200; i++) post(b, count + i);
    // each frame is a 24-byte header and a page
    return (fs.statSync(b.wal).size - before) / (pageSize + 24) / 200;
  });
  console.log(
    `pages written per posting: with the log ${per[0]!.toFixed(2)}, without ${per[1]!.toFixed(2)} (ratio ${(per[0]! / per[1]!).toFixed(3)})`,
  );
}

/** A statement import with and without the log: its write, the rest of its marks logged, what it leaves to send. */
function importStatement(): void {
  const books = [ledger('import-logged', true), ledger('import-plain', false)];
  const times: { write: number[]; drain: number[] }[] = [
    { write: [], drain: [] },
    { write: [], drain: [] },
  ];
  let sent = { messages: 0, bytes: 0 };
  for (let round = 0; round < 3; round++) {
    for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const { db, accounts } = books[which]!;
      const transactions = Array.from({ length: statementLines }, (_, i) => ({
        date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        description: `CARD PAYMENT SHOP ${i % 700} REF ${round}-${i}`,
        amount: `${1 + (i % 500)}.${String(i % 100).padStart(2, '0')}`,
        type: i % 5 === 0 ? ('credit' as const) : ('debit' as const),
        external_id: `FIT-${round}-${i}`,
      }));
      const [before] = db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM change_log');
      const started = performance.now();
      createStatement(db, { account_id: accounts[0]!, transactions });
      const written = performance.now();
      if (which === 0) takeAllMarks(db);
      times[which]!.drain.push(performance.now() - written);
      times[which]!.write.push(written - started);
      if (which === 0) {
        const [after] = db.allSql<{ n: bigint; bytes: bigint }>(
          'SELECT COUNT(*) AS n, SUM(length(value)) AS bytes FROM change_log WHERE rowid > ?',
          before!.n,
        );
        sent = { messages: Number(after!.n), bytes: Number(after!.bytes) };
      }
    }
  }
  const median = (t: number[]) => [...t].sort((a, b) => a - b)[1]!.toFixed(0);
  console.log(
    `\na statement of ${statementLines} lines, median of 3 (ms)\n| ledger | import's write | the rest logged | total |\n|---|---|---|---|`,
  );
  for (const [name, t] of [
    ['with the change log', times[0]!],
    ['without it', times[1]!],
  ] as const)
    console.log(
      `| ${name} | ${median(t.write)} | ${median(t.drain)} | ${median(t.write.map((w, i) => w + t.drain[i]!))} |`,
    );
  console.log(`messages left to send: ${sent.messages} (${(sent.bytes / 1024).toFixed(0)} KiB of values)`);
}

try {
  run('FULL');
  run('OFF');
  importStatement();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

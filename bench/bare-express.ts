/**
 * The HTTP ceiling of this machine: Express 5 answering from memory, no database, no auth.
 * `GET /api/ping` answers `{"ok":true}`, `POST /api/echo` parses a JSON body and answers 201; given a JSON file of strings, `GET /api/canned/:i`
 * answers the i-th as a JSON body (the API's own answers, byte for byte), so that the ceiling can
 * also be taken with the same payloads as the API serves. Given a copy of the ledger file too,
 * `POST /api/raw-post` parses an entry's JSON and runs the raw posting transaction on it: the
 * rate of an API that does nothing but the raw write, the ceiling for posting over HTTP;
 * `POST /api/raw-post-grouped` does the same with group commit, the ceiling for concurrent posting;
 * `POST /api/raw-post-writer` runs that group commit on a writer thread (bench/bare-writer.ts),
 * committed at FULL there: the ceiling of a server whose posting SQL is off the thread that runs HTTP.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import express from 'express';
import type { WriterAnswer, WriterPosting } from './bare-writer.ts';
import { RawWriter } from './lib/raw-writer.ts';

const canned = process.argv[2] ? (JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as string[]) : [];
const app = express();
app.disable('x-powered-by');
app.get('/api/ping', (_req, res) => {
  res.json({ ok: true });
});
app.post('/api/echo', express.json(), (req, res) => {
  res.status(201).json({ id: 'x', received: Object.keys(req.body as object).length });
});
const rawLedger = process.argv[3] ? new RawWriter(process.argv[3]) : undefined;

/** The posting a request's entry body describes: its date, its two accounts and its amount in cents. */
function postingOf(body: unknown): Omit<WriterPosting, 'n'> {
  const { entry_date: date, lines } = body as { entry_date: string; lines: { account_id: string; amount: string }[] };
  return {
    date,
    debit: lines[0]!.account_id,
    credit: lines[1]!.account_id,
    minor: BigInt(lines[0]!.amount.replace('.', '')),
  };
}
app.post('/api/raw-post', express.json(), (req, res) => {
  const posting = postingOf(req.body);
  rawLedger!.postEntry(posting.date, posting.debit, posting.credit, posting.minor, 'USD');
  res.status(201).json({ ok: true });
});
// Group commit at its simplest: the requests of one turn of the event loop share one transaction
// (a savepoint each) and one sync to disk, and are answered once it is committed.
let group: (() => void)[] | undefined;
app.post('/api/raw-post-grouped', express.json(), (req, res) => {
  const posting = postingOf(req.body);
  if (group === undefined) {
    rawLedger!.db.exec('BEGIN IMMEDIATE');
    const opened: (() => void)[] = [];
    group = opened;
    setImmediate(() => {
      group = undefined;
      rawLedger!.db.exec('COMMIT');
      for (const answer of opened) answer();
    });
  }
  rawLedger!.postEntryInOpenTransaction(posting.date, posting.debit, posting.credit, posting.minor, 'USD');
  group.push(() => res.status(201).json({ ok: true }));
});
let writer: { worker: Worker; waiting: Map<number, (error?: string) => void>; next: number } | undefined;
app.post('/api/raw-post-writer', express.json(), (req, res) => {
  const posting = postingOf(req.body);
  if (writer === undefined) {
    const started = {
      worker: new Worker(new URL('./bare-writer.ts', import.meta.url), { workerData: process.argv[3] }),
      waiting: new Map<number, (error?: string) => void>(),
      next: 0,
    };
    started.worker.on('message', (answer: WriterAnswer) => {
      started.waiting.get(answer.n)!(answer.error);
      started.waiting.delete(answer.n);
    });
    writer = started;
  }
  const n = writer.next++;
  writer.waiting.set(n, (error) => (error ? res.status(500).json({ error }) : res.status(201).json({ ok: true })));
  writer.worker.postMessage({ n, ...posting } satisfies WriterPosting);
});
app.get('/api/canned/:i', (req, res) => {
  res.set('Content-Type', 'application/json').send(canned[Number(req.params.i)] ?? '{}');
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Bare Express listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));

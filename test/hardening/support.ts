import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { LedgerSchema } from '../../server/db/schema.ts';
import { SqliteDb } from '../../server/db/sqlite.ts';
import { maintainedTotals, recomputeFromLines } from '../../server/features/totals/totals.queries.ts';
import { serveArguments } from '../../main/app-build.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const RESULTS_FILE = path.join(import.meta.dirname, 'results.json');
export const PASSWORD = 'correct horse battery';
/** A port nothing listens on: the advisor falls back to its built-in answers at once. */
export const CLOSED_OLLAMA = 'http://127.0.0.1:9';

// ---------------------------------------------------------------------------------------------
// The error shape of CONTRACT §3

export interface Answer {
  status: number;
  contentType: string | null | undefined;
  text: string;
  body: any;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Problems with an error answer: JSON `{ detail, code?, errors? }` and nothing of the implementation. */
export function errorShapeProblems(res: Answer): string[] {
  const problems: string[] = [];
  if (!/^application\/json/.test(res.contentType ?? '')) problems.push(`content-type ${res.contentType}`);
  const body = res.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [...problems, `body is not a JSON object: ${res.text.slice(0, 200)}`];
  if (typeof body.detail !== 'string' || body.detail === '') problems.push('no detail');
  for (const key of Object.keys(body))
    if (!['detail', 'code', 'errors'].includes(key)) problems.push(`unexpected key ${key}`);
  if (body.code !== undefined && typeof body.code !== 'string') problems.push('code is not a string');
  if (body.errors !== undefined) {
    const ok =
      Array.isArray(body.errors) &&
      body.errors.every((e: any) => typeof e?.field === 'string' && typeof e?.message === 'string');
    if (!ok) problems.push('errors is not [{ field, message }]');
  }
  if (/\n\s+at |node_modules|\.ts:\d+|SqliteError|SELECT |INSERT /.test(res.text))
    problems.push('the body leaks implementation details');
  return problems;
}

export function expectErrorShape(res: Answer, status?: number, code?: string): void {
  if (status !== undefined) expect(res.status, res.text).toBe(status);
  expect(errorShapeProblems(res)).toEqual([]);
  if (code !== undefined) expect(res.body.code).toBe(code);
}

/**
 * How long one request may go unanswered before it counts as a hang. Not a speed bound: two
 * minutes is far beyond any answer on a machine busy with other work; it only names the request
 * that hung, sooner than the test's own hang guard (vitest.config.ts).
 */
export const HANG_MS = 120_000;

/** fetch with a hang guard: a request unanswered after `timeoutMs` (HANG_MS) fails the test. */
export async function send(
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Answer & { ms: number; headers: Headers }> {
  const started = performance.now();
  const { timeoutMs = HANG_MS, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      throw new Error(`HANG: ${init.method ?? 'GET'} ${url.slice(0, 200)} took over ${timeoutMs} ms`);
    throw error;
  }
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    text,
    body: parseJson(text),
    headers: res.headers,
    ms: performance.now() - started,
  };
}

/** Signs a user up on the server at `url` and creates `accounts` (name, type): the token, the user's id, each account's id by name. */
export async function signUpWithAccounts(
  url: string,
  user: { email: string; name: string },
  accounts: readonly (readonly [name: string, type: string])[],
): Promise<{ token: string; userId: string; accounts: Record<string, string> }> {
  const reg = await send(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...user, password: PASSWORD }),
  });
  expect(reg.status).toBe(201);
  const token: string = reg.body.access_token;
  const ids: Record<string, string> = {};
  for (const [name, type] of accounts) {
    const res = await send(`${url}/api/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, type }),
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  }
  return { token, userId: reg.body.id, accounts: ids };
}

export interface RawRequest {
  method?: string;
  /** Sent exactly as given: no dot-segment removal or re-encoding (fetch would normalise `%2e%2e`). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
}

/** node:http with a hang guard; the Host header and the path can be anything. */
export function rawHttp(
  port: number,
  req: RawRequest,
): Promise<Answer & { headers: http.IncomingHttpHeaders; ms: number }> {
  const started = performance.now();
  const timeoutMs = req.timeoutMs ?? HANG_MS;
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: {
          host: `127.0.0.1:${port}`,
          ...(req.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(req.body)) }),
          ...req.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            text,
            body: parseJson(text),
            headers: res.headers,
            ms: performance.now() - started,
          });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      r.destroy();
      reject(new Error(`HANG: ${req.method ?? 'GET'} ${req.path.slice(0, 200)} took over ${timeoutMs} ms`));
    }, timeoutMs);
    r.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    r.end(req.body);
  });
}

// ---------------------------------------------------------------------------------------------
// The ledger's invariants, read straight from the file

export interface LedgerCheck {
  problems: string[];
  entries: number;
  lines: number;
  bankTransactions: number;
}

/**
 * Everything that must hold of a ledger file whatever happened to the process that wrote it:
 * SQLite's own integrity and foreign keys, no half-written entry (each has at least two lines and
 * balances per currency), a trial balance of exactly zero per currency, voids paired with their
 * reversals, statements holding exactly the rows they counted, and the maintained totals equal to
 * a full recomputation from the lines.
 *
 * Opens the file read-write, so that a WAL left by a killed process is recovered as the server
 * itself would on its next start.
 */
export function checkLedgerFile(file: string): LedgerCheck {
  const sqlite = new Database(file);
  const db = new SqliteDb<LedgerSchema>(sqlite);
  try {
    const problems: string[] = [];
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
    const fk = sqlite.pragma('foreign_key_check') as unknown[];
    if (fk.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(fk).slice(0, 300)}`);
    const all = <T>(sql: string) => db.allSql<T>(sql);
    const fewLines = all<{ id: string; n: bigint }>(
      'SELECT e.id, COUNT(l.id) AS n FROM journal_entries e LEFT JOIN journal_lines l ON l.entry_id = e.id GROUP BY e.id HAVING COUNT(l.id) < 2',
    );
    for (const r of fewLines) problems.push(`entry ${r.id} has ${r.n} line(s)`);
    const unbalanced = all<{ entry_id: string; currency: string; net: bigint }>(
      // drafts are work in progress and may be unbalanced; what is posted never is
      `SELECT l.entry_id, l.currency, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.status IN ('posted', 'void')
        GROUP BY l.entry_id, l.currency HAVING net != 0`,
    );
    for (const r of unbalanced) problems.push(`entry ${r.entry_id} is unbalanced in ${r.currency} by ${r.net}`);
    const trial = all<{ currency: string; net: bigint }>(
      `SELECT l.currency, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) AS net
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.status IN ('posted', 'void') GROUP BY l.currency`,
    );
    for (const r of trial) if (r.net !== 0n) problems.push(`trial balance in ${r.currency} is ${r.net}, not 0`);
    const badVoids = all<{ id: string }>(
      `SELECT v.id FROM journal_entries v LEFT JOIN journal_entries r ON r.id = v.reversal_entry_id
        WHERE v.status = 'void' AND (r.id IS NULL OR r.reverses_entry_id IS NOT v.id OR r.status NOT IN ('posted', 'void'))`,
    );
    for (const r of badVoids) problems.push(`void entry ${r.id} has no matching reversal`);
    const badStatements = all<{ id: string; imported: bigint; rows: bigint }>(
      `SELECT s.id, s.imported_count AS imported, (SELECT COUNT(*) FROM bank_transactions t WHERE t.statement_id = s.id) AS rows
         FROM statements s WHERE imported != rows`,
    );
    for (const r of badStatements) problems.push(`statement ${r.id} counts ${r.imported} rows but holds ${r.rows}`);
    const maintained = maintainedTotals(db);
    const recomputed = recomputeFromLines(db);
    if (!maintained.monthsMatchDays) problems.push('month totals differ from the sum of their day totals');
    if (JSON.stringify(maintained.accountDays) !== JSON.stringify(recomputed.accountDays))
      problems.push('maintained account totals differ from a recomputation');
    if (JSON.stringify(maintained.cashFlowDays) !== JSON.stringify(recomputed.cashFlowDays))
      problems.push('maintained cash-flow totals differ from a recomputation');
    const count = (table: string) => Number(all<{ n: bigint }>(`SELECT COUNT(*) AS n FROM ${table}`)[0]!.n);
    return {
      problems,
      entries: count('journal_entries'),
      lines: count('journal_lines'),
      bankTransactions: count('bank_transactions'),
    };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The real server in a child process, started as `npm run serve` starts it

export interface ChildServer {
  child: ChildProcess;
  url: string;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * Spawns the server exactly as `npm run serve` starts it (package.json's `serve` script: the build of
 * the current sources, which the unit suite's global setup makes sure of) on PORT=0 over `dataDir`,
 * and resolves on its ready line. A start of the build costs a fraction of the CPU of `node
 * server/cli.ts`, which compiles every source module: the crash tests start it dozens of times.
 */
export function spawnServer(
  dataDir: string,
  env: Record<string, string> = {},
  command: { file: string; args: string[] } = { file: process.execPath, args: serveArguments(ROOT) },
): Promise<ChildServer> {
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.tmpdir(),
      LEDGER_DATA_DIR: dataDir,
      PORT: '0',
      OLLAMA_HOST: CLOSED_OLLAMA,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise<ChildServer>((resolve, reject) => {
    child.stdout!.on('data', (c: string) => {
      out += c;
      const m = /Ledger API listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
      if (m) resolve({ child, url: m[1]!, port: Number(m[2]), exited, stderr: () => err });
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the server exited (${code ?? signal}) before its ready line; stderr: ${err}`)),
    );
  });
}

export async function killServer(server: ChildServer, signal: NodeJS.Signals = 'SIGKILL') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** A small seeded PRNG (mulberry32), so that a failing run can be replayed with HARDENING_SEED. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every file and folder under `dir`, relative, sorted. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      out.push(entry.isDirectory() ? `${child}/` : child);
      if (entry.isDirectory()) walk(child);
    }
  };
  walk('');
  return out.sort();
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `ledger-${prefix}-`));
}

/**
 * Merges one section of figures into test/hardening/results.json (test files run in parallel
 * processes, so the read-merge-write holds a lock folder).
 */
export async function recordResults(section: string, figures: unknown): Promise<void> {
  const lock = `${RESULTS_FILE}.lock`;
  for (let i = 0; ; i++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (i > 200) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    const current = (parseJson(fs.existsSync(RESULTS_FILE) ? fs.readFileSync(RESULTS_FILE, 'utf8') : '') ??
      {}) as Record<string, unknown>;
    current[section] = { ...(figures as object), measured_at: new Date().toISOString() };
    const temp = `${RESULTS_FILE}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(current, null, 2) + '\n');
    fs.renameSync(temp, RESULTS_FILE);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  console.log(`[hardening] ${section}: ${JSON.stringify(figures)}`);
}

export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

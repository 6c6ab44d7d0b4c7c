import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startServer, type RunningServer, type StartServerOptions } from '../../server/index.ts';
import { OpenApiValidator } from './openapi.ts';

export const TEST_SECRET = 'test-secret-key-that-is-long-enough-0123456789';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as is, without JSON encoding. */
  rawBody?: string | Uint8Array;
}

/** The served document's validator, one per document text (every test server serves the same). */
const validators = new Map<string, OpenApiValidator>();

/**
 * The client of the HTTP tests. Every answer it gets from an operation of the served OpenAPI
 * document is checked against that document (test/support/openapi.ts): an answer the document
 * does not describe fails the test that got it, whichever feature's it is.
 */
export class Api {
  readonly baseUrl: string;
  /** Where the server serves its document (the relay's is /relay/openapi.json). */
  private readonly documentPath: string;
  private validator: Promise<OpenApiValidator> | undefined;
  constructor(baseUrl: string, documentPath = '/api/openapi.json') {
    this.baseUrl = baseUrl;
    this.documentPath = documentPath;
  }

  private documentValidator(): Promise<OpenApiValidator> {
    this.validator ??= (async () => {
      const text = await (await fetch(`${this.baseUrl}${this.documentPath}`)).text();
      let validator = validators.get(text);
      if (!validator) {
        validator = new OpenApiValidator(JSON.parse(text) as Record<string, unknown>);
        validators.set(text, validator);
      }
      return validator;
    })();
    return this.validator;
  }

  /** The answer, checked against the served document when its operation is one the document has. */
  async request<T = any>(method: string, urlPath: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    // the document first: a test may close the server right after its request
    const validator = await this.documentValidator();
    const answer = await this.send<T>(method, urlPath, options);
    const operation = validator.operationOf(method, new URL(urlPath, this.baseUrl).pathname);
    if (operation) {
      const problems = validator.problems(operation, answer);
      if (problems.length > 0)
        throw new Error(`The answer is not as the OpenAPI document says:\n${problems.join('\n')}`);
    }
    return answer;
  }

  private async send<T>(method: string, urlPath: string, options: RequestOptions): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetch(this.baseUrl + urlPath, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get<T = any>(urlPath: string, token?: string) {
    return this.request<T>('GET', urlPath, { token });
  }
  post<T = any>(urlPath: string, body: unknown, token?: string) {
    return this.request<T>('POST', urlPath, { body, token });
  }
  put<T = any>(urlPath: string, body: unknown, token?: string) {
    return this.request<T>('PUT', urlPath, { body, token });
  }
  delete<T = any>(urlPath: string, token?: string) {
    return this.request<T>('DELETE', urlPath, { token });
  }
}

export interface TestServer {
  server: RunningServer;
  dataDir: string;
  api: Api;
  stop(): Promise<void>;
}

/**
 * The real app on port 0 over a fresh temporary data folder with the real migrations. Its daily
 * backups are off unless a test sets `backupIntervalMs`: they start a minute after the server, by the
 * clock, and would change the data folder under a test that has run that long on a busy machine.
 */
export async function startTestServer(options: Partial<StartServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-test-'));
  const server = await startServer({
    dataDir,
    port: 0,
    secretKey: TEST_SECRET,
    bcryptCost: 4,
    rendererDir: null,
    backupIntervalMs: 0,
    // books sync when a test asks (POST /api/sync/now), never on a timer under it
    syncIntervalMs: 0,
    log: () => {},
    // Suites register many users from one address; the contract's limits are tested where asked for (`limits: {}`).
    limits: { registerPerHour: 10_000 },
    ...options,
  });
  return {
    server,
    dataDir,
    api: new Api(server.url),
    async stop() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

export async function registerUser(
  api: Api,
  name = 'Test User',
): Promise<{ id: string; token: string; email: string }> {
  userCounter += 1;
  const email = `user${userCounter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await api.post('/api/auth/register', { email, name, password: 'correct horse battery' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { id: res.body.id, token: res.body.access_token, email };
}

/** A digest of every row of every table of a SQLite file, read through a separate connection. */
export function databaseDigest(file: string, options: { except?: readonly string[] } = {}): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as { name: string }[]
    ).filter(({ name }) => !options.except?.includes(name));
    const hash = crypto.createHash('sha256');
    for (const { name } of tables) {
      hash.update(`#${name}\n`);
      const rows = db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
      const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).sort();
      for (const line of lines) hash.update(line + '\n');
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

/**
 * databaseDigest for a file read again and again: the digest is recomputed only when SQLite says a
 * write was committed since the last one (`PRAGMA data_version` on a connection of its own changes
 * with every commit by another connection) or the file was replaced (a restore renames a copy over
 * it). Otherwise the rows are the ones last digested, and so is the digest.
 */
export function watchDigest(file: string): { digest(): string; close(): void } {
  let db: Database.Database | undefined;
  let inode = -1;
  let version: unknown;
  let last = '';
  const close = () => {
    db?.close();
    db = undefined;
  };
  return {
    digest() {
      const now = fs.statSync(file).ino;
      if (now !== inode || db === undefined) {
        close();
        db = new Database(file, { readonly: true });
        inode = now;
        version = undefined;
      }
      // Read before the rows: a commit while they are read shows as a new version next time.
      const current = db.pragma('data_version', { simple: true });
      if (current !== version) {
        last = databaseDigest(file);
        version = current;
      }
      return last;
    },
    close,
  };
}

export function ledgerFile(dataDir: string, userId: string): string {
  return path.join(dataDir, 'ledgers', `${userId}.sqlite`);
}

export function identityFile(dataDir: string): string {
  return path.join(dataDir, 'identity.sqlite');
}

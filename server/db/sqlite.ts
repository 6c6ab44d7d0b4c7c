import fs from 'node:fs';
import Database from 'better-sqlite3';
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
} from 'kysely';

/**
 * A SQLite file with a typed query builder. Kysely only builds SQL here; better-sqlite3 runs it
 * synchronously, so a use case is one synchronous transaction that can never stay open across an
 * await (the model server, bcrypt, the network).
 */
export class SqliteDb<Schema> {
  readonly sqlite: Database.Database;
  readonly qb: Kysely<Schema>;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(sqlite: Database.Database) {
    this.sqlite = sqlite;
    this.qb = new Kysely<Schema>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      // Integers come back as bigint so that money sums stay exact past 2^53.
      if (statement.reader) statement.safeIntegers(true);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).all(...(parameters as unknown[])) as R[];
  }

  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).get(...(parameters as unknown[])) as R | undefined;
  }

  run(query: Compilable<unknown>): number {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).run(...(parameters as unknown[])).changes;
  }

  /** Raw SQL for the few statements the builder does not express well (upserts with arithmetic). */
  runSql(sql: string, ...parameters: unknown[]): number {
    return this.prepare(sql).run(...parameters).changes;
  }

  allSql<R>(sql: string, ...parameters: unknown[]): R[] {
    return this.prepare(sql).all(...parameters) as R[];
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE); any throw rolls everything back. */
  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn).immediate();
  }

  close(): void {
    this.statements.clear();
    if (this.sqlite.open) this.sqlite.close();
  }
}

/**
 * Opens (creating if needed) a SQLite file readable by its owner only, in WAL mode with foreign
 * keys on. synchronous=FULL: an acknowledged write survives a power cut, not only a crash.
 */
export function openSqliteFile(file: string): Database.Database {
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

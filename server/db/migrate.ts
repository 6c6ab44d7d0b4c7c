import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** Reads `NNNN_name.sql` files in order; versions must run 1, 2, 3… without gaps. */
export function loadMigrations(dir: string): Migration[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return files.map((file, index) => {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new MigrationError(`migration file name ${file} is not NNNN_name.sql`);
    const version = Number(match[1]);
    if (version !== index + 1) throw new MigrationError(`migration ${file} is out of sequence (expected ${index + 1})`);
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const checksum = crypto.createHash('sha256').update(sql).digest('hex');
    return { version, name: match[2]!, sql, checksum };
  });
}

/**
 * Applies the pending migrations, each with its record in one transaction. Refuses, without
 * touching anything, a file written by a newer app or whose applied migrations were edited.
 */
export function migrate(sqlite: Database.Database, migrations: readonly Migration[], label: string): void {
  applyMigrations(sqlite, pendingMigrations(sqlite, migrations, label), label);
}

/**
 * The migrations the file still lacks, in order (all of them for a new file). Refuses, without
 * touching anything but the record table, a file written by a newer app or whose applied
 * migrations were edited.
 */
export function pendingMigrations(
  sqlite: Database.Database,
  migrations: readonly Migration[],
  label: string,
): Migration[] {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = sqlite.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all() as {
    version: number;
    name: string;
    checksum: string;
  }[];
  const known = migrations.length;
  for (const row of applied) {
    if (row.version > known) {
      throw new MigrationError(
        `${label} was written by a newer version of Personal Ledger (schema ${row.version}, this app knows ${known}); update the app to open it`,
      );
    }
    const migration = migrations[row.version - 1]!;
    if (migration.checksum !== row.checksum || migration.name !== row.name) {
      throw new MigrationError(
        `${label}: applied migration ${row.version} (${row.name}) differs from this app's copy; refusing to open`,
      );
    }
  }
  return migrations.slice(applied.length);
}

/** A file's schema objects (type and name → table and SQL, spaces folded), SQLite's statistics aside. */
function schemaObjects(sqlite: Database.Database): Map<string, string> {
  const rows = sqlite
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_stat%'")
    .all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, `${r.tbl_name} ${(r.sql ?? '').replace(/\s+/g, ' ')}`]));
}

/**
 * Refuses a file whose schema is not exactly the one its applied migrations make in a new ledger:
 * an added trigger, view, table or index, or one changed or missing, is a file this app did not
 * write (a restore's check, before the pending migrations run, so nothing of it runs first).
 */
export function assertAppSchema(sqlite: Database.Database, migrations: readonly Migration[], label: string): void {
  const applied = migrations.length - pendingMigrations(sqlite, migrations, label).length;
  const reference = new Database(':memory:');
  try {
    pendingMigrations(reference, migrations, label);
    applyMigrations(reference, migrations.slice(0, applied), 'a new ledger');
    const expected = schemaObjects(reference);
    const actual = schemaObjects(sqlite);
    const changed = [...actual].filter(([key, sql]) => expected.get(key) !== sql).map(([key]) => key);
    const missing = [...expected.keys()].filter((key) => !actual.has(key));
    if (changed.length > 0 || missing.length > 0) {
      const what = [
        ...changed.map((key) => (expected.has(key) ? `a changed ${key}` : `an added ${key}`)),
        ...missing.map((key) => `no ${key}`),
      ];
      throw new MigrationError(
        `${label} is not a ledger of this app: its schema has ${what.slice(0, 3).join(', ')}${what.length > 3 ? ` and ${what.length - 3} more differences` : ''}`,
      );
    }
  } finally {
    reference.close();
  }
}

/** Applies migrations (as `pendingMigrations` answered them), each with its record in one transaction. */
export function applyMigrations(sqlite: Database.Database, pending: readonly Migration[], label: string): void {
  if (pending.length === 0) return;
  const record = sqlite.prepare(
    'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
  );
  // One statement of a migration may rewrite a whole table: its statement journal then holds that
  // table's pages, which go to a temporary file here rather than to memory (openSqliteFile).
  const tempStore = sqlite.pragma('temp_store', { simple: true }) as number;
  sqlite.pragma('temp_store = FILE');
  try {
    for (const migration of pending) applyMigration(sqlite, migration, record, label);
  } finally {
    sqlite.pragma(`temp_store = ${tempStore}`);
  }
}

function applyMigration(
  sqlite: Database.Database,
  migration: Migration,
  record: Database.Statement,
  label: string,
): void {
  try {
    // Migrations are the app's own files: they may edit a table's definition in place as SQLite
    // documents for loosening a constraint (writable_schema), which defensive mode forbids.
    sqlite.unsafeMode(true);
    sqlite
      .transaction(() => {
        sqlite.exec(migration.sql);
        record.run(migration.version, migration.name, migration.checksum, new Date().toISOString());
      })
      .immediate();
  } catch (error) {
    const file = `${String(migration.version).padStart(4, '0')}_${migration.name}.sql`;
    throw new MigrationError(`${label}: migration ${file} failed and was rolled back: ${(error as Error).message}`);
  } finally {
    sqlite.unsafeMode(false);
  }
}

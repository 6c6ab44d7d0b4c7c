import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseDigest, identityFile, ledgerFile, registerUser, startTestServer } from '../../test/support/server.ts';
import { MigrationError, assertAppSchema, loadMigrations, migrate } from './migrate.ts';
import { openSqliteFile } from './sqlite.ts';
import { DEFAULT_MIGRATIONS_DIR } from './stores.ts';

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-migrate-'));
  tempDirs.push(dir);
  return dir;
}

/** A folder of migration files, written in reverse order so that directory order proves nothing. */
function migrationsDir(files: Record<string, string>): string {
  const dir = tempDir();
  for (const name of Object.keys(files).reverse()) fs.writeFileSync(path.join(dir, name), files[name]!);
  return dir;
}

const M1 = 'CREATE TABLE things (id INTEGER PRIMARY KEY, label TEXT NOT NULL) STRICT;';
const M2 =
  "ALTER TABLE things ADD COLUMN colour TEXT NOT NULL DEFAULT 'red';\nINSERT INTO things (label) VALUES ('seeded');";
const M3 = 'CREATE INDEX things_by_label ON things (label);';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

type Record_ = { version: number; name: string; checksum: string; applied_at: string };

function records(file: string): Record_[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version')
      .all() as Record_[];
  } finally {
    db.close();
  }
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as { name: string }[]
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

/** Opens the file the way the app does, migrates it, closes it. */
function openAndMigrate(file: string, dir: string): void {
  const sqlite = openSqliteFile(file);
  try {
    migrate(sqlite, loadMigrations(dir), file);
  } finally {
    sqlite.close();
  }
}

function dbFile(): string {
  return path.join(tempDir(), 'ledger.sqlite');
}

describe('loading migration files', () => {
  it('when the folder holds 0001…000N files, then they load in version order with name and sha-256 checksum, ignoring other files', () => {
    const dir = migrationsDir({
      '0001_things.sql': M1,
      '0002_colour.sql': M2,
      '0003_index.sql': M3,
      'README.md': '# notes',
    });
    expect(loadMigrations(dir)).toEqual([
      { version: 1, name: 'things', sql: M1, checksum: sha256(M1) },
      { version: 2, name: 'colour', sql: M2, checksum: sha256(M2) },
      { version: 3, name: 'index', sql: M3, checksum: sha256(M3) },
    ]);
  });

  it.each([
    ['a three-digit version', { '001_things.sql': M1 }, /not NNNN_name\.sql/],
    ['a dash instead of an underscore', { '0001-things.sql': M1 }, /not NNNN_name\.sql/],
    ['upper-case letters in the name', { '0001_Things.sql': M1 }, /not NNNN_name\.sql/],
    ['no name', { '0001.sql': M1 }, /not NNNN_name\.sql/],
    [
      'a gap (0001, 0003)',
      { '0001_things.sql': M1, '0003_index.sql': M3 },
      /0003_index\.sql is out of sequence \(expected 2\)/,
    ],
    ['a first version of 0002', { '0002_colour.sql': M2 }, /out of sequence \(expected 1\)/],
    ['two files with the same version', { '0001_things.sql': M1, '0001_other.sql': M3 }, /out of sequence/],
  ])('when the folder has %s, then loading is refused with a MigrationError', (_what, files, message) => {
    const dir = migrationsDir(files);
    expect(() => loadMigrations(dir)).toThrow(MigrationError);
    expect(() => loadMigrations(dir)).toThrow(message);
  });

  it("when the app's own migration folders are loaded, then they are in sequence", () => {
    for (const kind of ['identity', 'ledger']) {
      const loaded = loadMigrations(path.join(DEFAULT_MIGRATIONS_DIR, kind));
      expect(loaded.length).toBeGreaterThan(0);
      expect(loaded.map((m) => m.version)).toEqual(loaded.map((_m, i) => i + 1));
    }
  });
});

describe('applying migrations', () => {
  it('when a new file is opened, then every migration is applied in order, each with its record', () => {
    const file = dbFile();
    const before = Date.now();
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2, '0003_index.sql': M3 }));
    expect(records(file)).toEqual([
      { version: 1, name: 'things', checksum: sha256(M1), applied_at: expect.any(String) },
      { version: 2, name: 'colour', checksum: sha256(M2), applied_at: expect.any(String) },
      { version: 3, name: 'index', checksum: sha256(M3), applied_at: expect.any(String) },
    ]);
    for (const r of records(file)) expect(Date.parse(r.applied_at)).toBeGreaterThanOrEqual(before - 1000);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT label, colour FROM things').all()).toEqual([{ label: 'seeded', colour: 'red' }]);
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'things_by_label'").get(),
    ).toEqual({ name: 'things_by_label' });
    db.close();
  });

  it('when the file is opened again with the same migrations, then nothing is applied and nothing changes', () => {
    const file = dbFile();
    const dir = migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2 });
    openAndMigrate(file, dir);
    const digest = databaseDigest(file);
    openAndMigrate(file, dir);
    expect(databaseDigest(file)).toBe(digest);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM things').get()).toEqual({ n: 1 }); // the seed ran once
    db.close();
  });

  it('when the app gains a migration, then only the new one is applied and the old records keep their times', () => {
    const file = dbFile();
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2 }));
    const old = records(file);
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2, '0003_index.sql': M3 }));
    const now = records(file);
    expect(now.slice(0, 2)).toEqual(old);
    expect(now.map((r) => r.version)).toEqual([1, 2, 3]);
  });

  it('when migrations run, then their statement journals go to a temporary file, and the connection keeps them in memory again afterwards, a failed migration included', () => {
    const file = dbFile();
    const seen = 'CREATE TABLE seen AS SELECT temp_store FROM pragma_temp_store;';
    const sqlite = openSqliteFile(file);
    try {
      expect(sqlite.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
      migrate(sqlite, loadMigrations(migrationsDir({ '0001_seen.sql': seen })), file);
      expect(sqlite.prepare('SELECT temp_store FROM seen').get()).toEqual({ temp_store: 1 }); // FILE
      expect(sqlite.pragma('temp_store', { simple: true })).toBe(2);
      expect(() =>
        migrate(sqlite, loadMigrations(migrationsDir({ '0001_seen.sql': seen, '0002_bad.sql': 'NOT SQL;' })), file),
      ).toThrow(MigrationError);
      expect(sqlite.pragma('temp_store', { simple: true })).toBe(2);
    } finally {
      sqlite.close();
    }
  });

  it('when a migration fails half-way, then neither its changes nor its record remain, and the earlier ones stay applied', () => {
    const file = dbFile();
    const failing =
      "CREATE TABLE half_done (id INTEGER);\nINSERT INTO things (label) VALUES ('partial');\nINSERT INTO no_such_table VALUES (1);";
    const dir = migrationsDir({ '0001_things.sql': M1, '0002_broken.sql': failing });
    expect(() => openAndMigrate(file, dir)).toThrow(/no_such_table/);
    expect(records(file).map((r) => r.version)).toEqual([1]);
    expect(tables(file)).toEqual(['schema_migrations', 'things']);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM things').get()).toEqual({ n: 0 });
    db.close();

    // Once fixed, the migration applies on the next open.
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2 }));
    expect(records(file).map((r) => r.version)).toEqual([1, 2]);
  });

  it('when the file was written by a newer app (a version this app lacks), then it is refused naming "newer version" and not altered', () => {
    const file = dbFile();
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2, '0003_index.sql': M3 }));
    const digest = databaseDigest(file);
    const bytes = fs.readFileSync(file);
    const older = migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2 });
    expect(() => openAndMigrate(file, older)).toThrow(MigrationError);
    expect(() => openAndMigrate(file, older)).toThrow(/newer version.*schema 3.*knows 2/);
    expect(databaseDigest(file)).toBe(digest);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('when an applied migration was edited afterwards, then the file is refused and not altered', () => {
    const file = dbFile();
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1 }));
    const digest = databaseDigest(file);
    const edited = migrationsDir({ '0001_things.sql': `${M1}\n-- a harmless-looking comment`, '0002_colour.sql': M2 });
    expect(() => openAndMigrate(file, edited)).toThrow(MigrationError);
    expect(() => openAndMigrate(file, edited)).toThrow(/applied migration 1 \(things\) differs/);
    expect(databaseDigest(file)).toBe(digest);
    expect(tables(file)).toEqual(['schema_migrations', 'things']);
  });

  it('when an applied migration was renamed afterwards, then the file is refused', () => {
    const file = dbFile();
    openAndMigrate(file, migrationsDir({ '0001_things.sql': M1 }));
    const digest = databaseDigest(file);
    expect(() => openAndMigrate(file, migrationsDir({ '0001_renamed.sql': M1 }))).toThrow(/differs/);
    expect(databaseDigest(file)).toBe(digest);
  });
});

describe('a ledger file written by a newer app, through the running server', () => {
  it('when a user whose ledger is newer makes requests, then they fail with a JSON error and no stack trace, the file is untouched, and other users are unaffected', async () => {
    const dataDir = tempDir();
    let logs: string[] = [];
    const first = await startTestServer({ dataDir });
    const victim = await registerUser(first.api);
    await first.server.close();

    const file = ledgerFile(dataDir, victim.id);
    const db = new Database(file);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'from_the_future', 'x', '2030-01-01T00:00:00Z')",
    ).run();
    db.close();
    const digest = databaseDigest(file);
    const bytes = fs.readFileSync(file);

    const second = await startTestServer({ dataDir, log: (line) => logs.push(line) });
    try {
      const bystander = await registerUser(second.api);
      for (const p of ['/api/accounts', '/api/auth/me', '/api/journal-entries']) {
        logs = [];
        const res = await second.api.get(p, victim.token);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(res.body).every((k) => ['detail', 'code', 'errors'].includes(k))).toBe(true);
        expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|SqliteError|schema_migrations/);
        // a clear 503: the user's data is intact, only this app version cannot open it
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          detail: expect.stringMatching(/^Your ledger cannot be opened: .*newer version of Personal Ledger/),
          code: 'LEDGER_UNAVAILABLE',
        });
      }
      const login = await second.api.post('/api/auth/login', {
        email: victim.email,
        password: 'correct horse battery',
      });
      expect(login.status).toBe(200);
      expect(databaseDigest(file)).toBe(digest);
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);
      expect((await second.api.get('/api/accounts', bystander.token)).status).toBe(200);
      expect(fs.existsSync(identityFile(dataDir))).toBe(true);
    } finally {
      await second.stop();
    }
  });
});

describe('checking a file is a ledger of this app', () => {
  const check = (file: string, migrations: ReturnType<typeof loadMigrations>) => {
    const sqlite = openSqliteFile(file);
    try {
      assertAppSchema(sqlite, migrations, 'the backup');
    } finally {
      sqlite.close();
    }
  };

  it('when a file was made by some or all of the app’s migrations, then its schema is the app’s and it passes', () => {
    const migrations = loadMigrations(DEFAULT_MIGRATIONS_DIR);
    for (const applied of [1, Math.ceil(migrations.length / 2), migrations.length]) {
      const file = dbFile();
      const sqlite = openSqliteFile(file);
      migrate(sqlite, migrations.slice(0, applied), file);
      sqlite.close();
      expect(() => check(file, migrations)).not.toThrow();
    }
  });

  it('when a file lacks one of the app’s indexes, or holds a table no recorded migration made, then it is refused naming it', () => {
    const dir = migrationsDir({ '0001_things.sql': M1, '0002_colour.sql': M2, '0003_index.sql': M3 });
    const migrations = loadMigrations(dir);
    const file = dbFile();
    openAndMigrate(file, dir);
    const db = new Database(file);
    db.exec('DROP INDEX things_by_label');
    db.close();
    expect(() => check(file, migrations)).toThrow(
      new MigrationError('the backup is not a ledger of this app: its schema has no index things_by_label'),
    );
    const other = dbFile();
    const made = new Database(other);
    made.exec('CREATE TABLE things (id INTEGER PRIMARY KEY, label TEXT) STRICT;');
    made.close();
    const partial = migrations.slice(0, 1);
    expect(() => check(other, partial)).toThrow(/is not a ledger of this app: its schema has an added table things/);
  });
});

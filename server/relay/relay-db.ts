/**
 * The relay's storage: one SQLite file (`<relay data dir>/relay.sqlite`) behind Kysely's async API.
 * Every query is written with Kysely's builder against this schema, so that moving the relay to
 * PostgreSQL is a change of dialect here (`PostgresDialect` over a `pg` pool) and of the tables'
 * types in its migrations (BLOB -> BYTEA), not of the queries (docs/sync.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { appRoot } from '../app-root.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';

export interface RelaySchema {
  relay_users: { id: string; username: string; password_hash: string; password_set_at: number; created_at: string };
  relay_sessions: { token_hash: string; user_id: string; created_at: string; expires_at: string };
  sync_groups: { id: string; salt: string; key_id: string; key_test: string; created_by: string; created_at: string };
  group_members: { group_id: string; user_id: string; joined_at: string };
  group_invites: { token_hash: string; group_id: string; created_by: string; expires_at: string; uses_left: number };
  messages: { group_id: string; timestamp: string; is_encrypted: number; content: Buffer };
  group_merkles: { group_id: string; merkle: string };
}

export type RelayDb = Kysely<RelaySchema>;

export const RELAY_MIGRATIONS_DIR = path.join(appRoot(), 'migrations', 'relay');
export const RELAY_FILE = 'relay.sqlite';

/**
 * Opens (creating and migrating when needed) the relay's file in `dataDir`. WAL with a full sync at
 * each commit: an answered sync request's envelopes are on disk before the answer leaves.
 */
export function openRelayDb(dataDir: string, migrationsDir = RELAY_MIGRATIONS_DIR): RelayDb {
  return new Kysely<RelaySchema>({ dialect: new SqliteDialect({ database: openRelaySqlite(dataDir, migrationsDir) }) });
}

/** The relay's SQLite file, opened, set up and migrated (openRelayDb puts Kysely over it). */
export function openRelaySqlite(dataDir: string, migrationsDir = RELAY_MIGRATIONS_DIR): Database.Database {
  const file = path.join(dataDir, RELAY_FILE);
  const sqlite = new Database(file);
  try {
    fs.chmodSync(file, 0o600);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    migrate(sqlite, loadMigrations(migrationsDir), `the relay file ${file}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

import type { IdentitySchema } from '../../db/schema.ts';
import type { IdentityDb } from '../../db/stores.ts';
import type { User } from './auth.model.ts';

type Row = IdentitySchema['users'];

function toUser(row: Row): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    passwordChangedAt: row.password_changed_at,
  };
}

const USER_COLUMNS = 'id, email, name, password_hash, created_at, password_changed_at';

export function findUserByEmail(db: IdentityDb, email: string): User | undefined {
  const [row] = db.allSql<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, email);
  return row && toUser(row);
}

export function findUserById(db: IdentityDb, id: string): User | undefined {
  const [row] = db.allSql<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id);
  return row && toUser(row);
}

/** Inserts the user; false when the email is already taken. */
export function insertUser(db: IdentityDb, user: User): boolean {
  const changes = db.run(
    db.qb
      .insertInto('users')
      .values({
        id: user.id,
        email: user.email,
        name: user.name,
        password_hash: user.passwordHash,
        created_at: user.createdAt,
        password_changed_at: user.passwordChangedAt,
      })
      .onConflict((oc) => oc.column('email').doNothing()),
  );
  return changes === 1;
}

export function setPassword(db: IdentityDb, userId: string, passwordHash: string, changedAt: string): void {
  db.runSql(
    'UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?',
    passwordHash,
    changedAt,
    userId,
  );
}

export interface SessionRow {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export function insertSession(db: IdentityDb, session: SessionRow): void {
  db.runSql(
    'INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    session.id,
    session.userId,
    session.createdAt,
    session.expiresAt,
  );
}

/**
 * Asked by every authenticated request: whether the session is live and its user exists. One
 * prepared statement of two primary-key probes as scalar subqueries: about the cost of one probe,
 * where a join of the two tables cost five times as much (better-sqlite3, measured side by side).
 */
export function sessionIsLive(db: IdentityDb, sessionId: string, userId: string): boolean {
  const [row] = db.allSql<{ live: bigint | null }>(
    'SELECT (SELECT 1 FROM sessions WHERE id = ? AND user_id = ?) AND (SELECT 1 FROM users WHERE id = ?) AS live',
    sessionId,
    userId,
    userId,
  );
  return row?.live === 1n;
}

/** Keeps a session's row past `tokenExpiry` (as far as `keptUntil`) when it would go sooner; a write only then. */
export function extendSession(
  db: IdentityDb,
  sessionId: string,
  userId: string,
  tokenExpiry: string,
  keptUntil: string,
): void {
  db.runSql(
    'UPDATE sessions SET expires_at = ? WHERE id = ? AND user_id = ? AND expires_at < ?',
    keptUntil,
    sessionId,
    userId,
    tokenExpiry,
  );
}

export function deleteSession(db: IdentityDb, sessionId: string, userId: string): void {
  db.runSql('DELETE FROM sessions WHERE id = ? AND user_id = ?', sessionId, userId);
}

export function deleteSessionsOf(db: IdentityDb, userId: string): void {
  db.runSql('DELETE FROM sessions WHERE user_id = ?', userId);
}

/** Drops sessions whose every token has expired (an index range of the expired ones). */
export function deleteExpiredSessions(db: IdentityDb, now: string): void {
  db.runSql('DELETE FROM sessions WHERE expires_at < ?', now);
}

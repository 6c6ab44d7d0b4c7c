import type { IdentitySchema } from '../../db/schema.ts';
import type { IdentityDb } from '../../db/stores.ts';

export interface User {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: string;
}

type Row = IdentitySchema['users'];

function toUser(row: Row): User {
  return { id: row.id, email: row.email, name: row.name, passwordHash: row.password_hash, createdAt: row.created_at };
}

export function findUserByEmail(db: IdentityDb, email: string): User | undefined {
  const row = db.first(db.qb.selectFrom('users').selectAll().where('email', '=', email));
  return row && toUser(row);
}

/** Asked by every authenticated request: prepared SQL, not a query built per call. */
export function findUserById(db: IdentityDb, id: string): User | undefined {
  const [row] = db.allSql<Row>('SELECT id, email, name, password_hash, created_at FROM users WHERE id = ?', id);
  return row && toUser(row);
}

/** Asked by every authenticated request: the cheapest question SQLite can answer (one index probe, one constant column). */
export function userIdExists(db: IdentityDb, id: string): boolean {
  return db.existsSql('SELECT 1 FROM users WHERE id = ?', id);
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
      })
      .onConflict((oc) => oc.column('email').doNothing()),
  );
  return changes === 1;
}

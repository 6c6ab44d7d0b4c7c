-- Every token belongs to a session: logging out ends one session, a password change all of the
-- user's. A session's row goes when it ends, or once the last token issued for it has expired.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  -- when the newest token issued for the session expires
  expires_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

-- When the password was last set by a change or by the data folder owner's reset command (null:
-- at registration). A login lock-out counted before it no longer holds for that email.
ALTER TABLE users ADD COLUMN password_changed_at TEXT;

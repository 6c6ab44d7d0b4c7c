-- The relay's file: accounts and their sessions, sync groups, their members and invites, and each
-- group's encrypted messages with the merkle trie of their timestamps. Nothing here is plaintext of
-- anyone's books: messages are ciphertext, tokens and invites are kept as SHA-256 hashes, passwords
-- as bcrypt hashes.

CREATE TABLE relay_users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  -- when the password was set (ms since the epoch): the login limits let its owner back in after a reset
  password_set_at BIGINT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE relay_sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES relay_users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX relay_sessions_by_user ON relay_sessions (user_id);

CREATE TABLE sync_groups (
  id TEXT PRIMARY KEY,
  -- the passphrase's scrypt salt and the key test, in base64: neither reveals the key
  salt TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_test TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE group_members (
  group_id TEXT NOT NULL REFERENCES sync_groups (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES relay_users (id) ON DELETE CASCADE,
  joined_at TEXT NOT NULL,
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_by_user ON group_members (user_id);

CREATE TABLE group_invites (
  token_hash TEXT PRIMARY KEY,
  group_id TEXT NOT NULL REFERENCES sync_groups (id) ON DELETE CASCADE,
  created_by TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  uses_left INTEGER NOT NULL
);
CREATE INDEX group_invites_by_group ON group_invites (group_id);

CREATE TABLE messages (
  group_id TEXT NOT NULL REFERENCES sync_groups (id) ON DELETE CASCADE,
  -- the envelope's timestamp: 46 collatable characters, its node the last 16
  timestamp TEXT NOT NULL,
  is_encrypted INTEGER NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (group_id, timestamp)
);

CREATE TABLE group_merkles (
  group_id TEXT PRIMARY KEY REFERENCES sync_groups (id) ON DELETE CASCADE,
  merkle TEXT NOT NULL
);

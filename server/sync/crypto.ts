/**
 * End-to-end encryption of a sync group's messages (node:crypto).
 *
 * - A group key is 32 bytes: derived from the group's passphrase with scrypt and the group's salt
 *   (16 random bytes, kept on the relay, not secret), or random and shown once as a recovery code.
 * - Each message is sealed with AES-256-GCM under a fresh 12-byte IV; the additional authenticated
 *   data is the message's envelope timestamp, so a relay can neither change a ciphertext nor move it
 *   to another time or message.
 * - The key test is a known text sealed under the key (its AAD names the key id); a client opens it
 *   before it applies anything, so a wrong passphrase is SYNC_WRONG_KEY, never garbage applied. A
 *   message that then fails to open was changed on the way: SYNC_TAMPERED.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { DomainError } from '../domain/errors.ts';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const KEY_BYTES = 32;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** scrypt's cost for a group key: N = 2^17 (128 MiB, about half a second), as a key that guards whole books deserves. */
const SCRYPT_OPTIONS: crypto.ScryptOptions = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

/** AES-256-GCM output: the protobuf `EncryptedData` fields. */
export interface Sealed {
  iv: Uint8Array;
  authTag: Uint8Array;
  data: Uint8Array;
}

/** A group's key and the id the relay knows it by. */
export interface GroupKey {
  keyId: string;
  key: Buffer;
}

export function newSalt(): Buffer {
  return crypto.randomBytes(SALT_BYTES);
}

export function newKeyId(): string {
  return crypto.randomUUID();
}

/** The group key from its passphrase (NFC, so the same words typed on any keyboard give the same key) and salt. */
export async function keyFromPassphrase(passphrase: string, salt: Uint8Array): Promise<Buffer> {
  if (passphrase.length === 0) throw new DomainError('VALIDATION_ERROR', 'The passphrase is empty');
  if (salt.length !== SALT_BYTES)
    throw new DomainError('VALIDATION_ERROR', `The group's salt is not ${SALT_BYTES} bytes`);
  return scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, SCRYPT_OPTIONS);
}

export function randomKey(): Buffer {
  return crypto.randomBytes(KEY_BYTES);
}

export function seal(key: Uint8Array, aad: string, plaintext: Uint8Array): Sealed {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, authTag: cipher.getAuthTag(), data };
}

/** Opens a sealed value, or throws `failure` when the key, the AAD or any byte does not authenticate. */
export function open(key: Uint8Array, aad: string, sealed: Sealed, failure: () => DomainError = tampered): Buffer {
  if (key.length !== KEY_BYTES || sealed.iv.length !== IV_BYTES || sealed.authTag.length !== TAG_BYTES) throw failure();
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.data), decipher.final()]);
  } catch {
    throw failure();
  }
}

function tampered(): DomainError {
  return new DomainError(
    'SYNC_TAMPERED',
    'A change from the relay failed its authentication (it was altered on the way); nothing of this sync was applied',
  );
}

function wrongKey(): DomainError {
  return new DomainError(
    'SYNC_WRONG_KEY',
    "The passphrase or recovery code does not open this sync group's data; nothing was applied",
  );
}

const KEY_TEST_TEXT = 'personal-ledger sync key test';

function keyTestAad(keyId: string): string {
  return `key-test ${keyId}`;
}

/** The key test the relay keeps for a group: a known text sealed under its key. */
export function makeKeyTest(group: GroupKey): Sealed {
  return seal(group.key, keyTestAad(group.keyId), Buffer.from(KEY_TEST_TEXT, 'utf8'));
}

/** Throws SYNC_WRONG_KEY unless `group.key` opens the group's key test. */
export function checkKeyTest(group: GroupKey, keyTest: Sealed): void {
  const text = open(group.key, keyTestAad(group.keyId), keyTest, wrongKey);
  if (text.toString('utf8') !== KEY_TEST_TEXT) throw wrongKey();
}

// Recovery codes: the key in Crockford's base32 (no I, L, O, U; read case-insensitively, I and L
// as 1, O as 0), in groups of four, then one group of checksum: the first 20 bits of the key's
// SHA-256, so that a mistyped character is caught before anything reaches the network.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CHECK_CHARS = 4;

function base32(bytes: Uint8Array, chars: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out.slice(0, chars);
}

function checksum(key: Uint8Array): string {
  return base32(crypto.createHash('sha256').update(key).digest().subarray(0, 3), CHECK_CHARS);
}

/** The key as the recovery code shown once: `XXXX-XXXX-…-XXXX`, thirteen groups of key and one of checksum. */
export function recoveryCode(key: Uint8Array): string {
  if (key.length !== KEY_BYTES) throw new Error(`a group key is ${KEY_BYTES} bytes`);
  const text = base32(key, Math.ceil((KEY_BYTES * 8) / 5)) + checksum(key);
  return text.match(/.{1,4}/g)!.join('-');
}

const KEY_CHARS = Math.ceil((KEY_BYTES * 8) / 5);

/** The key a recovery code holds; SYNC_BAD_RECOVERY_CODE when a character is mistyped, missing or extra. */
export function keyFromRecoveryCode(code: string): Buffer {
  const bad = (why: string) =>
    new DomainError('SYNC_BAD_RECOVERY_CODE', `The recovery code is not right: ${why}. Check it and type it again.`);
  const text = code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (text.length !== KEY_CHARS + CHECK_CHARS)
    throw bad(`it has ${text.length} characters where ${KEY_CHARS + CHECK_CHARS} are expected`);
  const bytes = Buffer.alloc(KEY_BYTES);
  let value = 0;
  let bits = 0;
  let at = 0;
  for (const char of text.slice(0, KEY_CHARS)) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw bad(`"${char}" is not one of its characters`);
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bytes[at++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
      value &= (1 << bits) - 1;
    }
  }
  // The last character's spare bits are zero in every code this app writes.
  if (value !== 0 || checksum(bytes) !== text.slice(KEY_CHARS)) throw bad('its checksum does not match');
  return bytes;
}

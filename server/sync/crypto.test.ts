import { describe, expect, it } from 'vitest';
import {
  KEY_BYTES,
  checkKeyTest,
  keyFromPassphrase,
  keyFromRecoveryCode,
  makeKeyTest,
  newKeyId,
  newSalt,
  open,
  randomKey,
  recoveryCode,
  seal,
} from './crypto.ts';
import { decryptEnvelope, encryptMessage, type SyncMessage } from './messages.ts';

const TIMESTAMP = '2026-11-28T12:00:00.000Z-0000-0123456789ABCDEF';
const message: SyncMessage = {
  timestamp: TIMESTAMP,
  dataset: 'journal_entries',
  row: '0190f5c2-0000-7000-8000-000000000001',
  column: 'row',
  value: JSON.stringify({ memo: 'Groceries at the corner shop', lines: [{ amount: '82.50' }] }),
};

/** A fixed key, so that which typos the checksum catches is the same on every run. */
const FIXED_KEY = Buffer.from(Array.from({ length: KEY_BYTES }, (_, i) => (i * 37 + 11) & 255));

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[at] = copy[at]! ^ 1;
  return copy;
}

describe('sealing', () => {
  it('when a message is encrypted and decrypted with the group key, then it comes back whole', () => {
    const group = { keyId: newKeyId(), key: randomKey() };
    const envelope = encryptMessage(group, message);
    expect(envelope.isEncrypted).toBe(true);
    expect(Buffer.from(envelope.content).includes(Buffer.from('Groceries'))).toBe(false);
    expect(decryptEnvelope(group, envelope)).toEqual(message);
  });

  it('when the same message is sealed twice, then the IVs and ciphertexts differ', () => {
    const key = randomKey();
    const a = seal(key, TIMESTAMP, Buffer.from('same'));
    const b = seal(key, TIMESTAMP, Buffer.from('same'));
    expect(Buffer.from(a.iv).equals(Buffer.from(b.iv))).toBe(false);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(false);
  });

  it('when any byte of the ciphertext, tag or IV is changed, or another AAD is given, then it is refused as SYNC_TAMPERED', () => {
    const key = randomKey();
    const sealed = seal(key, TIMESTAMP, Buffer.from('a memo and 82.50'));
    const refused = expect.objectContaining({ code: 'SYNC_TAMPERED' });
    for (let at = 0; at < sealed.data.length; at++)
      expect(() => open(key, TIMESTAMP, { ...sealed, data: flip(sealed.data, at) })).toThrow(refused);
    for (let at = 0; at < sealed.authTag.length; at++)
      expect(() => open(key, TIMESTAMP, { ...sealed, authTag: flip(sealed.authTag, at) })).toThrow(refused);
    for (let at = 0; at < sealed.iv.length; at++)
      expect(() => open(key, TIMESTAMP, { ...sealed, iv: flip(sealed.iv, at) })).toThrow(refused);
    expect(() => open(key, TIMESTAMP.replace('12:00', '12:01'), sealed)).toThrow(refused);
    expect(() => open(key, TIMESTAMP, { ...sealed, authTag: sealed.authTag.subarray(0, 12) })).toThrow(refused);
    expect(open(key, TIMESTAMP, sealed).toString()).toBe('a memo and 82.50');
  });

  it('when an envelope is moved to another timestamp, then it is refused as SYNC_TAMPERED', () => {
    const group = { keyId: newKeyId(), key: randomKey() };
    const envelope = encryptMessage(group, message);
    const moved = { ...envelope, timestamp: '2026-11-28T12:00:00.001Z-0000-0123456789ABCDEF' };
    expect(() => decryptEnvelope(group, moved)).toThrow(expect.objectContaining({ code: 'SYNC_TAMPERED' }));
    expect(() => decryptEnvelope(group, { ...envelope, isEncrypted: false })).toThrow(
      expect.objectContaining({ code: 'SYNC_TAMPERED' }),
    );
    expect(() => decryptEnvelope(group, { ...envelope, content: new Uint8Array([1, 2, 3]) })).toThrow(
      expect.objectContaining({ code: 'SYNC_TAMPERED' }),
    );
  });
});

describe('group keys', () => {
  it('when the same passphrase is typed in either Unicode form with the same salt, then it gives the same key; another salt another key', async () => {
    const salt = newSalt();
    const composed = await keyFromPassphrase('caf\u00e9 au lait le matin', salt);
    const decomposed = await keyFromPassphrase('cafe\u0301 au lait le matin', salt);
    const otherSalt = await keyFromPassphrase('caf\u00e9 au lait le matin', newSalt());
    expect(composed.length).toBe(KEY_BYTES);
    expect(composed.equals(decomposed)).toBe(true);
    expect(composed.equals(otherSalt)).toBe(false);
  });

  it('when the key test is opened with a key from the wrong passphrase, then it is SYNC_WRONG_KEY', async () => {
    const salt = newSalt();
    const keyId = newKeyId();
    const right = { keyId, key: await keyFromPassphrase('correct horse battery staple', salt) };
    const keyTest = makeKeyTest(right);
    expect(() => checkKeyTest(right, keyTest)).not.toThrow();
    const wrong = { keyId, key: await keyFromPassphrase('correct horse battery stapler', salt) };
    expect(() => checkKeyTest(wrong, keyTest)).toThrow(expect.objectContaining({ code: 'SYNC_WRONG_KEY' }));
    expect(() => checkKeyTest({ keyId: newKeyId(), key: right.key }, keyTest)).toThrow(
      expect.objectContaining({ code: 'SYNC_WRONG_KEY' }),
    );
  });

  it('when a random key is shown as a recovery code and typed back, then it is the same key, in any case and with I, L and O', () => {
    const code = recoveryCode(FIXED_KEY);
    expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){13}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(keyFromRecoveryCode(code).equals(FIXED_KEY)).toBe(true);
    const sloppy = code.toLowerCase().replaceAll('1', 'l').replaceAll('0', 'o').replaceAll('-', ' ');
    expect(keyFromRecoveryCode(sloppy).equals(FIXED_KEY)).toBe(true);
    const key = randomKey();
    expect(keyFromRecoveryCode(recoveryCode(key)).equals(key)).toBe(true);
  });

  it('when any one character of a recovery code is mistyped, or two neighbours swapped, or one left out, then the code is refused', () => {
    const text = recoveryCode(FIXED_KEY).replaceAll('-', '');
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const refused = expect.objectContaining({ code: 'SYNC_BAD_RECOVERY_CODE' });
    let tried = 0;
    for (let at = 0; at < text.length; at++) {
      for (const char of alphabet) {
        if (char === text[at]) continue;
        expect(() => keyFromRecoveryCode(text.slice(0, at) + char + text.slice(at + 1))).toThrow(refused);
        tried++;
      }
      if (at + 1 < text.length && text[at] !== text[at + 1]) {
        expect(() => keyFromRecoveryCode(text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2))).toThrow(
          refused,
        );
      }
      expect(() => keyFromRecoveryCode(text.slice(0, at) + text.slice(at + 1))).toThrow(refused);
    }
    expect(tried).toBe(text.length * 31);
    expect(() => keyFromRecoveryCode(text.slice(0, 10) + 'U' + text.slice(11))).toThrow(refused);
  });
});

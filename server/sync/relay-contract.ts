/**
 * What the relay's JSON routes accept and answer (zod): the relay validates requests with these and
 * documents itself from them (/relay/openapi.json), and the app's relay client checks every answer
 * with them, since a relay is not trusted with anything but ciphertext.
 */
import { z } from 'zod';
import { isoDateTime } from '../contract/common.ts';
import { newPassword } from '../contract/common.ts';

const base64 = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
    .refine((s) => Buffer.from(s, 'base64').length === bytes && Buffer.from(s, 'base64').toString('base64') === s, {
      message: `must be ${bytes} bytes in base64`,
    })
    .meta({ description: `${what}: ${bytes} bytes in base64`, contentEncoding: 'base64' });

const username = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._@-]{2,63}$/, 'must be 3 to 64 letters, digits and . _ @ -, starting with a letter or digit')
  .meta({ example: 'ada' });

export const credentialsBody = z.strictObject({ username, password: newPassword });
export const loginBody = z.strictObject({ username: z.string().max(1000), password: z.string().max(1000) });

export const relayToken = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    user: z.object({ id: z.string(), username: z.string() }),
  })
  .meta({ id: 'RelayToken' });

/** A key id: the client's random id of the group key (a UUID in this app). */
const keyId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -')
  .meta({ example: '0d3c7c9e-8f0a-4b8e-9d4f-2c1b0a9e8d7c' });

/** The key test: a protobuf EncryptedData (12-byte IV, 16-byte tag, the sealed text), in base64. */
const keyTest = z
  .string()
  .max(1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
  .meta({ description: 'A protobuf EncryptedData of a known text under the group key, in base64' });

export const createGroupBody = z.strictObject({
  salt: base64(16, "The passphrase's scrypt salt"),
  key_id: keyId,
  key_test: keyTest,
});

const groupId = z.string().max(100).meta({ format: 'uuid' });
export const groupParams = z.strictObject({ id: groupId });

export const group = z
  .object({
    id: groupId,
    salt: z.string().meta({ description: "The passphrase's scrypt salt, 16 bytes in base64" }),
    key_id: z.string(),
    key_test: z.string(),
    members: z.number().int().min(1),
    created_at: isoDateTime,
  })
  .meta({ id: 'SyncGroup' });

export const groupList = z.object({ groups: z.array(group) }).meta({ id: 'SyncGroupList' });

const INVITE_LIMITS = { maxHours: 24 * 30, defaultHours: 24 * 7, maxUses: 20 } as const;

export const createInviteBody = z.strictObject({
  expires_in_hours: z
    .number()
    .int()
    .min(1)
    .max(INVITE_LIMITS.maxHours)
    .default(INVITE_LIMITS.defaultHours)
    .meta({ description: 'How long the invite can be used (hours)' }),
  uses: z.number().int().min(1).max(INVITE_LIMITS.maxUses).default(1).meta({ description: 'How many joins it allows' }),
});

export const invite = z
  .object({
    invite: z.string().meta({ description: 'The invite token, shown once; the relay keeps only its hash' }),
    group_id: groupId,
    expires_at: isoDateTime,
    uses: z.number().int(),
  })
  .meta({ id: 'SyncInvite' });

export const joinBody = z.strictObject({ invite: z.string().min(1).max(200) });

export const health = z.object({ status: z.literal('ok') }).meta({ id: 'RelayHealth' });

export type RelayTokenDto = z.infer<typeof relayToken>;
export type InviteDto = z.infer<typeof invite>;

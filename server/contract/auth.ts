import { z } from 'zod';
import { isoDateTime, nameText, resourceId } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** A new password (CONTRACT §8): 8..72 bytes (bcrypt reads no further) and not only white space. */
export const newPassword = z
  .string()
  .refine((p) => utf8Bytes(p) >= 8, 'must be at least 8 bytes')
  .refine((p) => utf8Bytes(p) <= 72, 'must be at most 72 bytes (bcrypt reads no further)')
  .refine((p) => p.trim() !== '', 'must not be only white space')
  .meta({
    // JSON Schema counts characters: 72 bytes are at most 72 of them, and 8 bytes at least 2 (of four bytes each)
    minLength: 2,
    maxLength: 72,
    description: '8 to 72 bytes of UTF-8 (8 to 72 ASCII characters; bcrypt reads no further), not only white space',
  });

export const registerBody = z.strictObject({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email('must be a valid email address'))
    .meta({ format: 'email' }),
  name: nameText(TEXT_LIMITS.personName),
  password: newPassword,
});

export const loginBody = z.strictObject({
  email: z.string().max(1000),
  password: z.string().max(1000),
});

export const passwordChangeBody = z.strictObject({
  current_password: z.string().max(1000),
  new_password: newPassword,
});

/** A token of a new session (a password change ends every earlier one). */
export const accessToken = z
  .object({ access_token: z.string(), token_type: z.literal('bearer') })
  .meta({ id: 'AccessToken' });

export const user = z
  .object({
    id: resourceId,
    email: z.string(),
    name: z.string(),
    created_at: isoDateTime,
    access_token: z.string(),
    token_type: z.literal('bearer'),
  })
  .meta({ id: 'User' });

export type UserDto = z.infer<typeof user>;
export type AccessTokenDto = z.infer<typeof accessToken>;

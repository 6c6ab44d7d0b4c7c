import { z } from 'zod';
import { isoDateTime, nameText, newPassword, resourceId } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

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

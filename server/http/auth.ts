import crypto, { type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Request } from 'express';
import { DomainError } from '../domain/errors.ts';

const NOT_AUTHENTICATED = 'Not authenticated';
export const BAD_CREDENTIALS = 'Could not validate credentials';

export interface TokenConfig {
  secret: string;
  expireMinutes: number;
}

/** Who a token speaks for: the user (`sub`) and the server-side session it belongs to (`sid`). */
export interface Credentials {
  userId: string;
  sessionId: string;
}

export function issueToken(credentials: Credentials, config: TokenConfig): string {
  return jwt.sign({ sub: credentials.userId, sid: credentials.sessionId }, config.secret, {
    algorithm: 'HS256',
    expiresIn: config.expireMinutes * 60,
  });
}

const secretKeys = new Map<string, KeyObject>();

/**
 * The secret as a key object, made once: given the string, jsonwebtoken builds a key on every
 * verification (first trying it as a public key, which throws), a large part of a small request.
 */
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

/**
 * Tokens already verified, by their exact text: their credentials and expiry. A token seen again
 * skips the signature check (its text cannot be had without the signature) but not the expiry,
 * nor the check that its session is still live (made for every request, after this).
 * Bounded; cleared when full.
 */
const verified = new Map<string, { secret: string; credentials: Credentials; exp: number }>();
const MAX_VERIFIED = 1000;

/**
 * The credentials of a bearer token; identity never comes from anywhere else (no X-User-Id). A
 * token without a session (issued before sessions existed) is not valid.
 */
export function credentialsFromRequest(req: Request, config: TokenConfig): Credentials {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') throw new DomainError('NOT_AUTHENTICATED', NOT_AUTHENTICATED);
  // A credential was sent, but not a bearer token (Basic, a bare "Bearer"): it is invalid, not missing.
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
  const token = match[1]!;
  const known = verified.get(token);
  if (known && known.secret === config.secret && Math.floor(Date.now() / 1000) < known.exp) return known.credentials;
  try {
    const claims = jwt.verify(token, secretKey(config.secret), { algorithms: ['HS256'] });
    if (
      typeof claims !== 'object' ||
      typeof claims.sub !== 'string' ||
      typeof claims.sid !== 'string' ||
      typeof claims.exp !== 'number'
    ) {
      throw new Error('missing claims');
    }
    const credentials = { userId: claims.sub, sessionId: claims.sid as string };
    if (claims.nbf === undefined) {
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(token, { secret: config.secret, credentials, exp: claims.exp });
    }
    return credentials;
  } catch {
    throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
  }
}

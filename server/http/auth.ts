import jwt from 'jsonwebtoken';
import type { Request } from 'express';
import { DomainError } from '../domain/errors.ts';

export const NOT_AUTHENTICATED = 'Not authenticated';
export const BAD_CREDENTIALS = 'Could not validate credentials';

export interface TokenConfig {
  secret: string;
  expireMinutes: number;
}

export function issueToken(userId: string, config: TokenConfig): string {
  return jwt.sign({ sub: userId }, config.secret, { algorithm: 'HS256', expiresIn: config.expireMinutes * 60 });
}

/** The user id of a bearer token; identity never comes from anywhere else (no X-User-Id). */
export function userIdFromRequest(req: Request, config: TokenConfig): string {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') throw new DomainError('NOT_AUTHENTICATED', NOT_AUTHENTICATED);
  // A credential was sent, but not a bearer token (Basic, a bare "Bearer"): it is invalid, not missing.
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
  try {
    const claims = jwt.verify(match[1]!, config.secret, { algorithms: ['HS256'] });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
      throw new Error('missing claims');
    }
    return claims.sub;
  } catch {
    throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
  }
}

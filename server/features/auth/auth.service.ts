import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { DomainError } from '../../domain/errors.ts';
import type { IdentityDb, Stores } from '../../db/stores.ts';
import { BAD_CREDENTIALS, issueToken, type TokenConfig } from '../../http/auth.ts';
import type { AccessTokenDto, UserDto } from '../../contract/auth.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  extendSession,
  findUserByEmail,
  findUserById,
  insertSession,
  insertUser,
  sessionIsLive,
  setPassword,
} from './users.repository.ts';
import type { User } from './auth.model.ts';

const INVALID_LOGIN = 'Invalid email or password';

export interface AuthDeps {
  stores: Stores;
  token: TokenConfig;
  bcryptCost: number;
}

/** bcrypt reads at most 72 bytes; a longer password can never be the one set. */
const fitsBcrypt = (password: string) => Buffer.byteLength(password, 'utf8') <= 72;

/**
 * Registration, login and sessions. Every token belongs to a session row in the identity file
 * (its `sid` claim): a request's token is good only while its session is live, so logging out
 * ends a session and a password change (or the owner's reset) ends all of the user's.
 */
export class AuthService {
  private readonly deps: AuthDeps;
  /** A hash to compare against when the email is unknown, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined;

  constructor(deps: AuthDeps) {
    this.deps = deps;
  }

  private get identity(): IdentityDb {
    return this.deps.stores.identity;
  }

  /**
   * A token for a new session of the user (expired sessions are dropped meanwhile). With
   * `passwordHash`, only while that is still the user's password: a login checked against a
   * password changed meanwhile gets no session.
   */
  private startSession(userId: string, passwordHash?: string): string {
    const now = new Date();
    const sessionId = crypto.randomUUID();
    this.identity.transaction(() => {
      if (passwordHash !== undefined && findUserById(this.identity, userId)?.passwordHash !== passwordHash)
        throw new DomainError('INVALID_CREDENTIALS', INVALID_LOGIN);
      deleteExpiredSessions(this.identity, now.toISOString());
      insertSession(this.identity, {
        id: sessionId,
        userId,
        createdAt: now.toISOString(),
        expiresAt: this.keptUntil(now.getTime()),
      });
    });
    return issueToken({ userId, sessionId }, this.deps.token);
  }

  private get lifetimeMs(): number {
    return this.deps.token.expireMinutes * 60_000;
  }

  /**
   * How long a session's row is kept for a token issued at `issuedMs`: past the token's expiry by
   * half a lifetime, so that refreshing its tokens (/me) writes the row at most once per half a
   * lifetime, not on every refresh (a read that writes would be a read that can fail on a full disk).
   */
  private keptUntil(issuedMs: number): string {
    return new Date(issuedMs + this.lifetimeMs * 1.5 + 60_000).toISOString();
  }

  private toDto(user: User, accessToken: string): UserDto {
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      created_at: user.createdAt,
      access_token: accessToken,
      token_type: 'bearer',
    };
  }

  async register(input: { email: string; name: string; password: string }): Promise<UserDto> {
    const { stores } = this.deps;
    if (findUserByEmail(this.identity, input.email))
      throw new DomainError('EMAIL_TAKEN', 'This email is already registered');
    // bcryptjs's asynchronous API yields to the event loop, so a hash never stalls other requests.
    const passwordHash = await bcrypt.hash(input.password, this.deps.bcryptCost);
    const user: User = {
      id: crypto.randomUUID(),
      email: input.email,
      name: input.name,
      passwordHash,
      createdAt: new Date().toISOString(),
      passwordChangedAt: null,
    };
    if (!insertUser(this.identity, user)) throw new DomainError('EMAIL_TAKEN', 'This email is already registered');
    stores.ledger(user.id);
    return this.toDto(user, this.startSession(user.id));
  }

  /** The user of `email` when `password` is theirs, else INVALID_CREDENTIALS (the same time either way). */
  private async verified(user: User | undefined, password: string): Promise<User> {
    this.decoyHash ??= bcrypt.hash('decoy password', this.deps.bcryptCost);
    const hash = user?.passwordHash ?? (await this.decoyHash);
    const matches = await bcrypt.compare(fitsBcrypt(password) ? password : '', hash);
    if (!user || !fitsBcrypt(password) || !matches) throw new DomainError('INVALID_CREDENTIALS', INVALID_LOGIN);
    return user;
  }

  /** When the password of `email` was last changed or reset (ms), or null: the login limits read it. */
  passwordSetAt(email: string): number | null {
    const changed = findUserByEmail(this.identity, email)?.passwordChangedAt;
    return changed ? Date.parse(changed) : null;
  }

  async login(email: string, password: string): Promise<UserDto> {
    const user = await this.verified(findUserByEmail(this.identity, email), password);
    return this.toDto(user, this.startSession(user.id, user.passwordHash));
  }

  /** The user, with a fresh token of the same session (its row kept long enough for it). */
  me(userId: string, sessionId: string): UserDto {
    const user = findUserById(this.identity, userId);
    if (!user || !sessionIsLive(this.identity, sessionId, userId))
      throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
    const now = Date.now();
    const tokenExpiry = new Date(now + this.lifetimeMs + 60_000).toISOString();
    extendSession(this.identity, sessionId, userId, tokenExpiry, this.keptUntil(now));
    return this.toDto(user, issueToken({ userId, sessionId }, this.deps.token));
  }

  /** Ends the session: every token of it (the login's and each refreshed one) is refused from now on. */
  logout(userId: string, sessionId: string): void {
    deleteSession(this.identity, sessionId, userId);
  }

  /** The email of a user, for the login limits of a password change. */
  emailOf(userId: string): string {
    const user = findUserById(this.identity, userId);
    if (!user) throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
    return user.email;
  }

  /**
   * Changes the password after checking the current one (a wrong one is INVALID_LOGIN), ends every
   * session of the user and answers a token of a new one.
   */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<AccessTokenDto> {
    const user = await this.verified(findUserById(this.identity, userId), currentPassword);
    await replacePassword(this.identity, user.id, newPassword, this.deps.bcryptCost);
    return { access_token: this.startSession(user.id), token_type: 'bearer' };
  }

  /** Whether a token's session is live and its user exists: asked by every authenticated request. */
  sessionIsLive(userId: string, sessionId: string): boolean {
    return sessionIsLive(this.identity, sessionId, userId);
  }
}

/** Sets a user's password and ends every session of theirs, in one transaction. */
async function replacePassword(identity: IdentityDb, userId: string, newPassword: string, cost: number): Promise<void> {
  const hash = await bcrypt.hash(newPassword, cost);
  identity.transaction(() => {
    setPassword(identity, userId, hash, new Date().toISOString());
    deleteSessionsOf(identity, userId);
  });
}

/**
 * The data folder owner's way back in (server/reset-password.ts): sets a new password for an email
 * without the old one, ends all of the user's sessions, and lifts a login lock-out on the email
 * (the login limits read when the password was set). Answers false for an unknown email.
 */
export async function resetPassword(
  identity: IdentityDb,
  email: string,
  newPassword: string,
  cost: number,
): Promise<boolean> {
  const user = findUserByEmail(identity, email.trim().toLowerCase());
  if (!user) return false;
  await replacePassword(identity, user.id, newPassword, cost);
  return true;
}

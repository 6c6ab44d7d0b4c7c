import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { DomainError } from '../../domain/errors.ts';
import type { Stores } from '../../db/stores.ts';
import { issueToken, type TokenConfig } from '../../http/auth.ts';
import type { UserDto } from '../../contract/auth.ts';
import { findUserByEmail, findUserById, insertUser, userIdExists, type User } from './users.repository.ts';

export const INVALID_LOGIN = 'Invalid email or password';

export interface AuthDeps {
  stores: Stores;
  token: TokenConfig;
  bcryptCost: number;
}

function toDto(user: User, token: TokenConfig): UserDto {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    created_at: user.createdAt,
    access_token: issueToken(user.id, token),
    token_type: 'bearer',
  };
}

export class AuthService {
  private readonly deps: AuthDeps;
  /** A hash to compare against when the email is unknown, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined;

  constructor(deps: AuthDeps) {
    this.deps = deps;
  }

  async register(input: { email: string; name: string; password: string }): Promise<UserDto> {
    const { stores } = this.deps;
    if (findUserByEmail(stores.identity, input.email))
      throw new DomainError('EMAIL_TAKEN', 'This email is already registered');
    // bcryptjs's asynchronous API yields to the event loop, so a hash never stalls other requests.
    const passwordHash = await bcrypt.hash(input.password, this.deps.bcryptCost);
    const user: User = {
      id: crypto.randomUUID(),
      email: input.email,
      name: input.name,
      passwordHash,
      createdAt: new Date().toISOString(),
    };
    if (!insertUser(stores.identity, user)) throw new DomainError('EMAIL_TAKEN', 'This email is already registered');
    stores.ledger(user.id);
    return toDto(user, this.deps.token);
  }

  async login(email: string, password: string): Promise<UserDto> {
    const user = findUserByEmail(this.deps.stores.identity, email.trim().toLowerCase());
    this.decoyHash ??= bcrypt.hash('decoy password', this.deps.bcryptCost);
    const hash = user?.passwordHash ?? (await this.decoyHash);
    // bcrypt reads at most 72 bytes; a longer password can never be the one registered.
    const fits = Buffer.byteLength(password, 'utf8') <= 72;
    const matches = await bcrypt.compare(fits ? password : '', hash);
    if (!user || !fits || !matches) throw new DomainError('INVALID_CREDENTIALS', INVALID_LOGIN);
    return toDto(user, this.deps.token);
  }

  me(userId: string): UserDto {
    const user = findUserById(this.deps.stores.identity, userId);
    if (!user) throw new DomainError('INVALID_CREDENTIALS', 'Could not validate credentials');
    return toDto(user, this.deps.token);
  }

  userExists(userId: string): boolean {
    return userIdExists(this.deps.stores.identity, userId);
  }
}

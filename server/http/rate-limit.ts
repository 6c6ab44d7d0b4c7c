import type { Request, Response } from 'express';
import { DomainError } from '../domain/errors.ts';

/** The client's address for the rate limits: the socket's, or with TRUST_PROXY the proxy's last X-Forwarded-For entry. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** "15 minutes", "1 hour", "40 seconds": a wait in words, rounded up to its largest unit. */
function waitInWords(seconds: number): string {
  const [amount, unit] =
    seconds >= 3600
      ? [Math.ceil(seconds / 3600), 'hour']
      : seconds >= 60
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.max(1, Math.ceil(seconds)), 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** Answers 429 RATE_LIMITED with Retry-After (seconds) and the wait in words. */
export function refuseTooMany(res: Response, retryAfterSeconds: number, advice = ''): never {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  throw new DomainError(
    'RATE_LIMITED',
    `Too many attempts: try again in ${waitInWords(retryAfterSeconds)}${advice ? `. ${advice}` : ''}`,
  );
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters per key: a window starts with its first count and lasts `windowMs`; once
 * `limit` counts are in it, the key is refused until it ends. Expired windows are swept once many
 * keys are kept, so that many keys cannot grow the map without bound.
 */
export class CountWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();
  readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** The live window of `key`, if any. */
  private live(key: string, now: number): { start: number; count: number } | undefined {
    const window = this.windows.get(key);
    if (window && now - window.start < this.windowMs) return window;
    if (window) this.windows.delete(key);
    return undefined;
  }

  /** Whether `key` may count once more, and if not, for how many seconds it may not. */
  check(key: string): Verdict {
    const now = this.now();
    const window = this.live(key, now);
    if (!window || window.count < this.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)) };
  }

  /** When the live window of `key` began, or undefined. */
  startOf(key: string): number | undefined {
    return this.live(key, this.now())?.start;
  }

  count(key: string): void {
    const now = this.now();
    this.sweep(now);
    const window = this.live(key, now);
    if (window) window.count += 1;
    else this.windows.set(key, { start: now, count: 1 });
  }

  /** Takes back one count (an attempt counted ahead that did not fail). */
  uncount(key: string): void {
    const window = this.live(key, this.now());
    if (window && window.count > 0) window.count -= 1;
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

/**
 * Every attempt counts, whether it succeeds or not (registrations: CONTRACT §8); once the attempts
 * are used up, every further one is refused until the window ends.
 */
export class AttemptLimiter {
  private readonly windows: CountWindows;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.windows = new CountWindows(limit, windowMs, now);
  }

  /** Counts an attempt; answers how many seconds to wait when it is over the limit. */
  attempt(key: string): Verdict {
    const verdict = this.windows.check(key);
    if (verdict.allowed) this.windows.count(key);
    return verdict;
  }
}

export interface LoginLimits {
  /** Failed attempts per (address, email) in a window: then that email from that address is refused. */
  perPair: number;
  /** Failed attempts per address in a window, over all emails: then every login from it is refused. */
  perAddress: number;
  windowMs: number;
}

export const LOGIN_LIMITS: LoginLimits = { perPair: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/**
 * The login limits of CONTRACT §8: failures per (address, email) and per address. A success clears
 * only its own pair's count: it never wipes failures counted against another email, and no success
 * lowers the address's count. An attempt is counted before the password is checked (so that
 * simultaneous guesses cannot all slip under the limit) and taken back if it succeeds; a refused
 * attempt (429) counts nothing. A password set after a window began (a change, or the data folder
 * owner's reset command) ends that lock-out for its email: the pair's count is dropped, and the
 * address's cap does not hold the email back, so the owner can always get back in.
 */
export class LoginLimiter {
  private readonly pairs: CountWindows;
  private readonly addresses: CountWindows;

  constructor(limits: LoginLimits = LOGIN_LIMITS, now: () => number = Date.now) {
    this.pairs = new CountWindows(limits.perPair, limits.windowMs, now);
    this.addresses = new CountWindows(limits.perAddress, limits.windowMs, now);
  }

  /**
   * Lets an attempt through, counted as a failure until `succeeded` is called, or refuses it.
   * `passwordSetAt`: when the email's password was last set (ms), or null.
   */
  begin(
    address: string,
    email: string,
    passwordSetAt: number | null,
  ): { allowed: true; succeeded(): void } | { allowed: false; retryAfterSeconds: number } {
    const pair = `${address}\n${email}`;
    const pairStart = this.pairs.startOf(pair);
    if (pairStart !== undefined && passwordSetAt !== null && passwordSetAt >= pairStart) this.pairs.clear(pair);
    const addressStart = this.addresses.startOf(address);
    const resetSinceAddress = addressStart !== undefined && passwordSetAt !== null && passwordSetAt >= addressStart;
    for (const verdict of [this.pairs.check(pair), resetSinceAddress ? undefined : this.addresses.check(address)]) {
      if (verdict && !verdict.allowed) return verdict;
    }
    this.pairs.count(pair);
    this.addresses.count(address);
    return {
      allowed: true,
      succeeded: () => {
        this.pairs.clear(pair);
        this.addresses.uncount(address);
      },
    };
  }
}

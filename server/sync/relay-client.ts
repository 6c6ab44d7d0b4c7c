/**
 * The app's side of the relay's HTTP API: its JSON routes, each answer checked against the relay's
 * contract (a relay is trusted with nothing but ciphertext), and the sync transport. Errors are
 * DomainErrors: the relay's own code when it answered one, SYNC_RELAY_UNREACHABLE when it did
 * not answer, SYNC_BAD_ANSWER when its answer is not what the contract says.
 */
import type { z } from 'zod';
import { DomainError } from '../domain/errors.ts';
import type { Sealed } from './crypto.ts';
import { SYNC_BODY_LIMIT, sealedFromBase64, sealedToBase64 } from './messages.ts';
import { group, groupList, invite, relayToken, type InviteDto, type RelayTokenDto } from './relay-contract.ts';
import type { SyncTransport } from './sync-client.ts';

/** The relay's own refusal, with how long it asks to wait (Retry-After, seconds) when it says. */
export class RelayRefusal extends DomainError {
  readonly retryAfterSeconds: number | undefined;

  constructor(code: string, detail: string, retryAfterSeconds?: number) {
    super(code, detail);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A group as the app uses it: its salt and key test as bytes. */
export interface RelayGroup {
  id: string;
  salt: Buffer;
  keyId: string;
  keyTest: Sealed;
  members: number;
  createdAt: string;
}

/** The largest answer read from a relay: a sync page and then some. */
const MAX_ANSWER_BYTES = 2 * Number.parseInt(SYNC_BODY_LIMIT, 10) * 1024 * 1024;

export interface RelayClientOptions {
  /** The token of an earlier login. */
  token?: string;
  fetch?: typeof fetch;
  /** How long one request may take before it is given up (ms). */
  timeoutMs?: number;
}

function groupOf(dto: z.infer<typeof group>): RelayGroup {
  return {
    id: dto.id,
    salt: Buffer.from(dto.salt, 'base64'),
    keyId: dto.key_id,
    keyTest: sealedFromBase64(dto.key_test),
    members: dto.members,
    createdAt: dto.created_at,
  };
}

export class RelayClient {
  readonly url: string;
  token: string | undefined;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(url: string, options: RelayClientOptions = {}) {
    this.url = url.replace(/\/+$/, '');
    this.token = options.token;
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /**
   * One request; the answer's bytes when it is a success, a DomainError otherwise. A request the
   * relay may receive twice (`replaySafe`: a read, or a sync, whose replay stores nothing) is sent
   * once more when its connection was reset before any answer: a kept-alive connection the relay
   * closed while this process was busy fails that way without the request having reached it.
   */
  private async call(
    method: string,
    path: string,
    body?: { type: string; bytes: Uint8Array | string },
    replaySafe = method === 'GET',
  ): Promise<{ status: number; bytes: Buffer }> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body) headers['content-type'] = body.type;
    const send = () =>
      this.fetch(this.url + path, {
        method,
        headers,
        body: body?.bytes as BodyInit | undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    let response: Response;
    try {
      try {
        response = await send();
      } catch (error) {
        if (!replaySafe || !connectionReset(error)) throw error;
        response = await send();
      }
    } catch (error) {
      throw new DomainError(
        'SYNC_RELAY_UNREACHABLE',
        `The relay at ${this.url} cannot be reached (${(error as Error).message})`,
      );
    }
    const bytes = await readCapped(response, MAX_ANSWER_BYTES);
    if (response.ok) return { status: response.status, bytes };
    let problem: { detail?: unknown; code?: unknown } = {};
    try {
      problem = JSON.parse(bytes.toString('utf8')) as typeof problem;
    } catch {
      // not the error shape: said below by status
    }
    const code =
      typeof problem.code === 'string' && /^[A-Z_]{1,40}$/.test(problem.code)
        ? problem.code
        : response.status === 401
          ? 'INVALID_CREDENTIALS'
          : 'SYNC_RELAY_ERROR';
    const detail = typeof problem.detail === 'string' ? problem.detail.slice(0, 500) : `HTTP ${response.status}`;
    const wait = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    throw new RelayRefusal(
      code,
      `The relay refused: ${detail}`,
      Number.isSafeInteger(wait) && wait > 0 ? wait : undefined,
    );
  }

  private async json<T>(schema: z.ZodType<T>, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call(
      method,
      path,
      body === undefined ? undefined : { type: 'application/json', bytes: JSON.stringify(body) },
    );
    let value: unknown;
    try {
      value = JSON.parse(answer.bytes.toString('utf8'));
    } catch {
      value = undefined;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new DomainError('SYNC_BAD_ANSWER', `The relay's answer to ${method} ${path} is not as its contract says`);
    return parsed.data;
  }

  async register(username: string, password: string): Promise<RelayTokenDto> {
    const answer = await this.json(relayToken, 'POST', '/relay/register', { username, password });
    this.token = answer.access_token;
    return answer;
  }

  async login(username: string, password: string): Promise<RelayTokenDto> {
    const answer = await this.json(relayToken, 'POST', '/relay/login', { username, password });
    this.token = answer.access_token;
    return answer;
  }

  async logout(): Promise<void> {
    await this.call('POST', '/relay/logout');
    this.token = undefined;
  }

  async groups(): Promise<RelayGroup[]> {
    return (await this.json(groupList, 'GET', '/relay/groups')).groups.map(groupOf);
  }

  async createGroup(input: { salt: Uint8Array; keyId: string; keyTest: Sealed }): Promise<RelayGroup> {
    return groupOf(
      await this.json(group, 'POST', '/relay/groups', {
        salt: Buffer.from(input.salt).toString('base64'),
        key_id: input.keyId,
        key_test: sealedToBase64(input.keyTest),
      }),
    );
  }

  async group(id: string): Promise<RelayGroup> {
    return groupOf(await this.json(group, 'GET', `/relay/groups/${encodeURIComponent(id)}`));
  }

  async invite(id: string, options: { expiresInHours?: number; uses?: number } = {}): Promise<InviteDto> {
    return this.json(invite, 'POST', `/relay/groups/${encodeURIComponent(id)}/invites`, {
      ...(options.expiresInHours !== undefined ? { expires_in_hours: options.expiresInHours } : {}),
      ...(options.uses !== undefined ? { uses: options.uses } : {}),
    });
  }

  async join(id: string, inviteToken: string): Promise<RelayGroup> {
    return groupOf(
      await this.json(group, 'POST', `/relay/groups/${encodeURIComponent(id)}/join`, { invite: inviteToken }),
    );
  }

  async leave(id: string): Promise<void> {
    await this.call('DELETE', `/relay/groups/${encodeURIComponent(id)}/members/me`);
  }

  /** The sync transport over this client's token: POST /relay/sync with the protobuf bytes. */
  transport(): SyncTransport {
    return async (request) =>
      (await this.call('POST', '/relay/sync', { type: 'application/x-protobuf', bytes: request }, true)).bytes;
  }
}

/** Whether fetch failed because the connection was reset or closed under it (not refused, not timed out). */
function connectionReset(error: unknown): boolean {
  const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string;
  return ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(code);
}

/** The answer's body, refused past `max` bytes (a relay cannot make a device hold more). */
async function readCapped(response: Response, max: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > max) {
    await response.body?.cancel();
    throw new DomainError('SYNC_BAD_ANSWER', 'The relay answered more than a sync page');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) {
      await response.body.cancel().catch(() => {});
      throw new DomainError('SYNC_BAD_ANSWER', 'The relay answered more than a sync page');
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

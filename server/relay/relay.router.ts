/** The relay's routes: what each accepts and answers (server/sync/relay-contract.ts), and the service call. */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { errorBody } from '../contract/common.ts';
import { refuseTooMany } from '../http/rate-limit.ts';
import type { RouteDoc, RouteResult } from '../http/route.ts';
import { SYNC_BODY_LIMIT, decodeSyncRequest } from '../sync/messages.ts';
import {
  createGroupBody,
  createInviteBody,
  credentialsBody,
  group,
  groupList,
  groupParams,
  health,
  invite,
  joinBody,
  loginBody,
  relayToken,
} from '../sync/relay-contract.ts';
import { TooManyAttempts, type RelayService, type RelaySession } from './relay.service.ts';

interface RelayContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The caller; only on routes with `auth: true`. */
  session: RelaySession;
}

export interface RelayRoute<P = unknown, Q = unknown, B = unknown> extends RouteDoc<P, Q, B> {
  handler(ctx: RelayContext<P, Q, B>): Promise<RouteResult> | RouteResult;
}

function relayRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RelayRoute<P, Q, B>,
): RelayRoute {
  return def as unknown as RelayRoute;
}

const PROTOBUF = 'application/x-protobuf';

const notMember = { status: 404, description: 'NOT_FOUND: no sync group of yours has that id', schema: errorBody };

export function relayRoutes(relay: RelayService): RelayRoute[] {
  return [
    relayRoute({
      method: 'get',
      path: '/relay/health',
      tag: 'meta',
      summary: 'Whether the relay answers',
      auth: false,
      responses: [{ status: 200, description: 'The relay is up', schema: health }],
      handler: () => ({ status: 200, body: { status: 'ok' } }),
    }),
    relayRoute({
      method: 'post',
      path: '/relay/register',
      tag: 'accounts',
      summary: 'Open an account on this relay',
      auth: false,
      body: credentialsBody,
      rateLimit: relay.registerLimiter,
      responses: [
        { status: 201, description: 'The account and a token of its first session', schema: relayToken },
        { status: 409, description: 'USERNAME_TAKEN: another account has that username', schema: errorBody },
      ],
      handler: async ({ body }) => ({ status: 201, body: await relay.register(body.username, body.password) }),
    }),
    relayRoute({
      method: 'post',
      path: '/relay/login',
      tag: 'accounts',
      summary: 'A token for an account (failed attempts limited per address and username)',
      auth: false,
      body: loginBody,
      responses: [
        { status: 200, description: 'A token of a new session', schema: relayToken },
        { status: 401, description: '`Incorrect username or password`', schema: errorBody },
        {
          status: 429,
          description: 'RATE_LIMITED: too many failed logins from this address (for this username, or for any)',
          schema: errorBody,
          headers: { 'Retry-After': { description: 'Seconds to wait', schema: z.number().int().min(1) } },
        },
      ],
      handler: async ({ body, req, res }) => {
        try {
          return { status: 200, body: await relay.login(req.ip ?? 'unknown', body.username, body.password) };
        } catch (error) {
          if (error instanceof TooManyAttempts) refuseTooMany(res, error.retryAfterSeconds);
          throw error;
        }
      },
    }),
    relayRoute({
      method: 'post',
      path: '/relay/logout',
      tag: 'accounts',
      summary: "End this token's session",
      auth: true,
      responses: [{ status: 204, description: 'The token no longer works' }],
      handler: async ({ session }) => {
        await relay.logout(session);
        return { status: 204 };
      },
    }),
    relayRoute({
      method: 'get',
      path: '/relay/groups',
      tag: 'groups',
      summary: 'The sync groups this account belongs to',
      auth: true,
      responses: [{ status: 200, description: 'Its groups, oldest first', schema: groupList }],
      handler: async ({ session }) => ({ status: 200, body: { groups: await relay.listGroups(session.userId) } }),
    }),
    relayRoute({
      method: 'post',
      path: '/relay/groups',
      tag: 'groups',
      summary: "Create a sync group with its key's salt, id and key test (the key itself never reaches the relay)",
      auth: true,
      body: createGroupBody,
      responses: [
        { status: 201, description: 'The group; its creator is its first member', schema: group },
        {
          status: 409,
          description: 'LIMIT_REACHED: the account belongs to as many groups as it may',
          schema: errorBody,
        },
      ],
      handler: async ({ body, session }) => ({
        status: 201,
        body: await relay.createGroup(session.userId, { salt: body.salt, keyId: body.key_id, keyTest: body.key_test }),
      }),
    }),
    relayRoute({
      method: 'get',
      path: '/relay/groups/:id',
      tag: 'groups',
      summary: "A group of this account's: its salt, key id and key test",
      auth: true,
      params: groupParams,
      responses: [{ status: 200, description: 'The group', schema: group }, notMember],
      handler: async ({ params, session }) => ({ status: 200, body: await relay.getGroup(session.userId, params.id) }),
    }),
    relayRoute({
      method: 'post',
      path: '/relay/groups/:id/invites',
      tag: 'groups',
      summary: 'An invite to the group, for another account to join with',
      auth: true,
      params: groupParams,
      body: createInviteBody,
      responses: [
        { status: 201, description: 'The invite token (shown once) and when it expires', schema: invite },
        notMember,
        { status: 409, description: 'LIMIT_REACHED: the group has as many open invites as it may', schema: errorBody },
      ],
      handler: async ({ params, body, session }) => ({
        status: 201,
        body: await relay.createInvite(session.userId, params.id, {
          expiresInHours: body.expires_in_hours,
          uses: body.uses,
        }),
      }),
    }),
    relayRoute({
      method: 'post',
      path: '/relay/groups/:id/join',
      tag: 'groups',
      summary: 'Join a group with one of its invites (joining again changes nothing)',
      auth: true,
      params: groupParams,
      body: joinBody,
      responses: [
        { status: 200, description: 'The group joined', schema: group },
        {
          status: 403,
          description: 'INVITE_INVALID: no such invite of that group, or it expired or was used up',
          schema: errorBody,
        },
        {
          status: 409,
          description: 'LIMIT_REACHED: the group is full, or the account belongs to as many groups as it may',
          schema: errorBody,
        },
      ],
      handler: async ({ params, body, session }) => ({
        status: 200,
        body: await relay.join(session.userId, params.id, body.invite),
      }),
    }),
    relayRoute({
      method: 'delete',
      path: '/relay/groups/:id/members/me',
      tag: 'groups',
      summary: 'Leave a group (the last member to leave deletes it and its messages)',
      auth: true,
      params: groupParams,
      responses: [{ status: 204, description: 'Left' }, notMember],
      handler: async ({ params, session }) => {
        await relay.leave(session.userId, params.id);
        return { status: 204 };
      },
    }),
    relayRoute({
      method: 'post',
      path: '/relay/sync',
      tag: 'sync',
      summary:
        "Store a SyncRequest's envelopes and answer the group's envelopes after `since` that do not come from the caller's node, with the group's merkle trie",
      auth: true,
      rawBody: {
        contentTypes: [PROTOBUF],
        description:
          "A protobuf SyncRequest of @actual-app/crdt: `groupId`, `keyId` (the group's), `since` (a timestamp, or empty for all), `fileId` (the caller's node id, or empty), and at most 1000 encrypted `messages`",
        limit: SYNC_BODY_LIMIT,
      },
      responses: [
        {
          status: 200,
          description:
            'A protobuf SyncResponse: at most one page of envelopes (1000, or up to 4 MiB of content), oldest first, and the merkle trie as JSON',
          contentTypes: [PROTOBUF],
          schema: z.string().meta({ format: 'binary' }),
        },
        {
          status: 400,
          description:
            'MALFORMED_PROTOBUF: the body is not a SyncRequest; VALIDATION_ERROR: a field or envelope is malformed or not encrypted (`errors` names each)',
          schema: errorBody,
        },
        { status: 404, description: 'NOT_FOUND: no sync group of yours has that id', schema: errorBody },
        { status: 409, description: "SYNC_KEY_MISMATCH: the request's key id is not the group's", schema: errorBody },
        {
          status: 413,
          description: 'PAYLOAD_TOO_LARGE: the body is over 16 MiB or carries more than 1000 messages',
          schema: errorBody,
        },
        {
          status: 415,
          description: `UNSUPPORTED_MEDIA_TYPE: a body sent as anything but ${PROTOBUF}`,
          schema: errorBody,
        },
      ],
      handler: async ({ req, session, res }) => {
        const bytes = await relay.sync(session.userId, decodeSyncRequest(req.body as Buffer));
        res.status(200).setHeader('Content-Type', PROTOBUF);
        res.setHeader('Content-Length', bytes.length);
        res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return undefined;
      },
    }),
  ];
}

import type { Response } from 'express';
import { errorBody } from '../../contract/common.ts';
import {
  createGroupBody,
  createInviteBody,
  groupCreated,
  joinGroupBody,
  syncInvite,
  syncResult,
  syncStatus,
} from '../../contract/sync.ts';
import { refuseTooMany } from '../../http/rate-limit.ts';
import { RelayRefusal } from '../../sync/relay-client.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import type { SyncService } from './sync.service.ts';

const relayErrors = [
  { status: 403, description: 'SYNC_RELAY_LOGIN: the relay refused its account; INVITE_INVALID', schema: errorBody },
  {
    status: 429,
    description: 'RATE_LIMITED: the relay asks to wait; Retry-After says how long',
    schema: errorBody,
  },
  {
    status: 502,
    description:
      'SYNC_RELAY_UNREACHABLE: the relay did not answer; SYNC_BAD_ANSWER, SYNC_TAMPERED: it answered what no relay may',
    schema: errorBody,
  },
];
/** The relay answers these to a signed-in member; it limits only registrations and logins. */
const memberErrors = relayErrors.filter((e) => e.status !== 429);
const notSetUp = { status: 409, description: 'SYNC_NOT_SET_UP: the books are in no group', schema: errorBody };

/** Runs a call to the relay; its "wait" (429) is answered with the wait it asked for. */
async function answerRelayWait<T>(res: Response, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RelayRefusal && error.code === 'RATE_LIMITED')
      refuseTooMany(res, error.retryAfterSeconds ?? 60, 'The relay asks to wait');
    throw error;
  }
}

export function syncRoutes(sync: SyncService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/sync/status',
      tag: 'sync',
      summary: 'Whether the books are in a sync group, the last sync, and the changes waiting to go',
      auth: true,
      responses: [{ status: 200, description: 'The status', schema: syncStatus }],
      handler: ({ session }) => ({ status: 200, body: sync.status(session.ledger) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/sync/group',
      tag: 'sync',
      summary:
        'Make a sync group on a relay for these books (with a passphrase, or a random key shown once as a recovery code) and send the books to it',
      auth: true,
      body: createGroupBody,
      responses: [
        {
          status: 201,
          description: 'The group, and the recovery code when no passphrase was given',
          schema: groupCreated,
        },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
        {
          status: 409,
          description: 'SYNC_ALREADY_SET_UP; USERNAME_TAKEN (register); LIMIT_REACHED',
          schema: errorBody,
        },
        ...relayErrors,
      ],
      handler: async ({ session, body, res }) => ({
        status: 201,
        body: await answerRelayWait(res, () => sync.createGroup(session.userId, session.ledger, body)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/sync/join',
      tag: 'sync',
      summary:
        'Join a sync group with an invite code and the passphrase (or recovery code); empty books take the group’s',
      auth: true,
      body: joinGroupBody,
      responses: [
        { status: 200, description: 'The status after the first sync', schema: syncStatus },
        {
          status: 400,
          description:
            'VALIDATION_ERROR; SYNC_BAD_INVITE; SYNC_WRONG_KEY: the passphrase is not the group’s; SYNC_BAD_RECOVERY_CODE',
          schema: errorBody,
        },
        {
          status: 409,
          description:
            'SYNC_ALREADY_SET_UP; SYNC_LEDGER_NOT_EMPTY: join with empty books; USERNAME_TAKEN; LIMIT_REACHED',
          schema: errorBody,
        },
        ...relayErrors,
      ],
      handler: async ({ session, body, res }) => ({
        status: 200,
        body: await answerRelayWait(res, () => sync.join(session.userId, session.ledger, body)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/sync/invites',
      tag: 'sync',
      summary: 'An invite code for a household member (holds the relay and the group, never the passphrase)',
      auth: true,
      body: createInviteBody,
      responses: [
        { status: 201, description: 'The invite code, shown once', schema: syncInvite },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
        { ...notSetUp, description: 'SYNC_NOT_SET_UP; LIMIT_REACHED: too many open invites' },
        ...memberErrors,
      ],
      handler: async ({ session, body }) => ({ status: 201, body: await sync.invite(session.ledger, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/sync/now',
      tag: 'sync',
      summary: 'Sync the books with the group now',
      auth: true,
      responses: [
        { status: 200, description: 'What went each way', schema: syncResult },
        {
          ...notSetUp,
          description: 'SYNC_NOT_SET_UP; SYNC_CLOCK_DRIFT: a device’s clock is far off; SYNC_OUT_OF_SYNC: try again',
        },
        ...memberErrors,
      ],
      handler: async ({ session }) => {
        const done = await sync.syncNow(session.userId, session.ledger);
        return { status: 200, body: { ...done, status: sync.status(session.ledger) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/sync/group',
      tag: 'sync',
      summary: 'Leave the sync group: the books stay on this computer and stop syncing',
      auth: true,
      responses: [{ status: 204, description: 'Left' }, notSetUp],
      handler: async ({ session }) => {
        await sync.leave(session.userId, session.ledger);
        return { status: 204 };
      },
    }),
  ];
}

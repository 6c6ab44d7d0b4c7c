import type { z } from 'zod';
import type {
  CreateGroupInput,
  CreateInviteInput,
  JoinGroupInput,
  SyncStatusDto,
  groupCreated,
  syncInvite,
  syncResult,
} from '../../../server/contract/sync.ts';
import { json } from './http.ts';

export type { SyncStatusDto };
export type SyncGroupCreated = z.infer<typeof groupCreated>;
export type SyncInvite = z.infer<typeof syncInvite>;
export type SyncResult = z.infer<typeof syncResult>;
/** `register` may be left out: the server takes false. */
export type CreateSyncGroupInput = Omit<CreateGroupInput, 'register'> & { register?: boolean };
export type JoinSyncGroupInput = Omit<JoinGroupInput, 'register'> & { register?: boolean };

export function getSyncStatus(): Promise<SyncStatusDto> {
  return json('GET', '/api/sync/status');
}

/** Makes a group on the relay; without a passphrase the answer's `recovery_code` is the key, shown this once. */
export function createSyncGroup(input: CreateSyncGroupInput): Promise<SyncGroupCreated> {
  return json('POST', '/api/sync/group', { json: input });
}

/** Joins another member's group with empty books; the passphrase or recovery code stays on this computer. */
export function joinSyncGroup(input: JoinSyncGroupInput): Promise<SyncStatusDto> {
  return json('POST', '/api/sync/join', { json: input });
}

export function createSyncInvite(input: Partial<CreateInviteInput> = {}): Promise<SyncInvite> {
  return json('POST', '/api/sync/invites', { json: input });
}

export function syncNow(): Promise<SyncResult> {
  return json('POST', '/api/sync/now');
}

/** Leaves the group: the books stay here, and stop syncing. */
export function leaveSyncGroup(): Promise<void> {
  return json('DELETE', '/api/sync/group');
}

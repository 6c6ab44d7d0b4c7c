import { answer, api, type Body, type Schemas } from './client.ts';

export type SyncStatusDto = Schemas['SyncStatus'];
export type SyncGroupCreated = Schemas['SyncGroupCreated'];
export type SyncInvite = Schemas['SyncInviteCode'];
export type SyncResult = Schemas['SyncResult'];
export type CreateSyncGroupInput = Body<'/api/sync/group', 'post'>;
export type JoinSyncGroupInput = Body<'/api/sync/join', 'post'>;

export function getSyncStatus(): Promise<SyncStatusDto> {
  return answer(api.GET('/api/sync/status'));
}

/** Makes a group on the relay; without a passphrase the answer's `recovery_code` is the key, shown this once. */
export function createSyncGroup(input: CreateSyncGroupInput): Promise<SyncGroupCreated> {
  return answer(api.POST('/api/sync/group', { body: input }));
}

/** Joins another member's group with empty books; the passphrase or recovery code stays on this computer. */
export function joinSyncGroup(input: JoinSyncGroupInput): Promise<SyncStatusDto> {
  return answer(api.POST('/api/sync/join', { body: input }));
}

export function createSyncInvite(): Promise<SyncInvite> {
  return answer(api.POST('/api/sync/invites', { body: {} }));
}

export function syncNow(): Promise<SyncResult> {
  return answer(api.POST('/api/sync/now'));
}

/** Leaves the group: the books stay here, and stop syncing. */
export async function leaveSyncGroup(): Promise<void> {
  await answer(api.DELETE('/api/sync/group'));
}

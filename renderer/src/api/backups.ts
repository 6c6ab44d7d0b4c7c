import { answer, api, type Answer, type Schemas } from './client.ts';

export type BackupDto = Schemas['Backup'];
export type BackupList = Answer<'/api/backups', 'get'>;
export type RestoreResult = Schemas['RestoreResult'];

export function createBackup(): Promise<BackupDto> {
  return answer(api.POST('/api/backup'));
}

export function listBackups(): Promise<BackupList> {
  return answer(api.GET('/api/backups'));
}

/** Replaces the ledger by a backup; the server backs up the ledger as it was first (`safety_backup`). */
export function restoreBackup(name: string): Promise<RestoreResult> {
  return answer(api.POST('/api/backups/{name}/restore', { params: { path: { name } } }));
}

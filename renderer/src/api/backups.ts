import type { z } from 'zod';
import type { BackupDto, backupList, restoreResult } from '../../../server/contract/export.ts';
import { json } from './http.ts';

export type { BackupDto };
export type BackupList = z.infer<typeof backupList>;
export type RestoreResult = z.infer<typeof restoreResult>;

export function createBackup(): Promise<BackupDto> {
  return json('POST', '/api/backup');
}

export function listBackups(): Promise<BackupList> {
  return json('GET', '/api/backups');
}

/** Replaces the ledger by a backup; the server backs up the ledger as it was first (`safety_backup`). */
export function restoreBackup(name: string): Promise<RestoreResult> {
  return json('POST', `/api/backups/${encodeURIComponent(name)}/restore`);
}

import { errorBody, jobBudgetResponse } from '../../contract/common.ts';
import { backup, backupList, backupNameParams, restoreResult } from '../../contract/export.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { BACKUPS_KEPT, type BackupService } from './backup.service.ts';

export function backupRoutes(backups: BackupService): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/backup',
      tag: 'backup',
      summary: `Back up the ledger now (SQLite online backup, consistent while the app runs); the newest ${BACKUPS_KEPT} backups are kept`,
      auth: true,
      responses: [{ status: 201, description: 'The backup', schema: backup }, jobBudgetResponse],
      handler: async ({ session }) => ({ status: 201, body: await backups.create(session.userId, 'manual') }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/backups',
      tag: 'backup',
      summary: 'The user’s own backups, newest first (manual, daily and pre-restore)',
      auth: true,
      responses: [{ status: 200, description: 'Backups', schema: backupList }],
      handler: ({ session }) => ({ status: 200, body: { items: backups.list(session.userId), keep: BACKUPS_KEPT } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/backups/:name/restore',
      tag: 'backup',
      summary:
        'Restore a backup: the current ledger is backed up first (reason pre-restore), then replaced by the backup once it passes ' +
        'an integrity check and the migrations. A name that is not one of the user’s backups is 404.',
      auth: true,
      params: backupNameParams,
      responses: [
        {
          status: 200,
          description: 'The restored backup, the safety backup of the ledger as it was, and what the ledger now holds',
          schema: restoreResult,
        },
        { status: 404, description: 'NOT_FOUND', schema: errorBody },
        {
          status: 400,
          description: 'INVALID_BACKUP (damaged, or written by a newer app); the ledger is unchanged',
          schema: errorBody,
        },
        jobBudgetResponse,
      ],
      handler: async ({ session, params }) => {
        const { restored, safety, summary } = await backups.restore(session.userId, params.name);
        return { status: 200, body: { restored, safety_backup: safety, ...summary } };
      },
    }),
  ];
}

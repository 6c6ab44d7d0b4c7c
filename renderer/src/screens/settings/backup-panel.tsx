import { useId, useState } from 'react';
import { createBackup, listBackups, restoreBackup, type BackupDto, type RestoreResult } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { formatMoment } from '../../dates.ts';
import { formatSize } from './backup-format.ts';
import { RestoreConfirm } from './restore-confirm.tsx';

/** Backing up now, the kept backups (newest first), and restoring one after a confirm step. */
export function BackupPanel() {
  const { t, language } = useI18n();
  const headingId = useId();
  const list = useLoader(listBackups, []);
  const [made, setMade] = useState<BackupDto | null>(null);
  const [confirming, setConfirming] = useState<BackupDto | null>(null);
  const [restored, setRestored] = useState<RestoreResult | null>(null);
  const when = (backup: BackupDto) => formatMoment(backup.created_at, language);
  const kind = (backup: BackupDto) => t(`backup.reason.${backup.reason}`);

  const backUp = useAction(async () => {
    setRestored(null);
    setMade(await createBackup());
    list.reload();
  });
  const restore = useAction(async (backup: BackupDto) => {
    setMade(null);
    setRestored(await restoreBackup(backup.name));
    setConfirming(null);
    list.reload();
  });

  const items = list.data?.items ?? [];
  return (
    <article className="panel" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{t('backup.title')}</h2>
        <button
          type="button"
          className="primary"
          disabled={backUp.busy || restore.busy}
          onClick={() => void backUp.run()}
        >
          {t('backup.now')}
        </button>
      </div>
      <p className="hint">{t('backup.hint', { keep: list.data?.keep ?? 10 })}</p>
      {backUp.busy && <Busy label={t('backup.working')} />}
      <ErrorNotice error={backUp.error} onDismiss={backUp.clearError} />
      {made && (
        <p role="status" className="notice notice-ok">
          {t('backup.made', { when: when(made), size: formatSize(made.size_bytes) })}
        </p>
      )}
      {restored && (
        <div role="status" className="notice notice-ok restore-result">
          <div className="notice-body">
            <p>
              {t('backup.restored', {
                when: when(restored.restored),
                accounts: restored.accounts,
                entries: restored.entries,
              })}
            </p>
            <p>{t('backup.safety', { when: when(restored.safety_backup) })}</p>
          </div>
        </div>
      )}

      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Busy label={t('loading')} />}
      {list.data && (
        <DataTable
          scroll
          className="compact"
          label={t('backup.list')}
          rows={items}
          rowKey={(backup) => backup.name}
          rowProps={(backup) => ({ className: confirming?.name === backup.name ? 'selected' : undefined })}
          empty={<EmptyState title={t('backup.emptyTitle')}>{t('backup.emptyHint')}</EmptyState>}
          columns={[
            { header: t('backup.created'), cellClassName: 'nowrap', cell: when },
            { header: t('backup.kind'), cell: kind },
            { header: t('backup.size'), numeric: true, cell: (backup) => formatSize(backup.size_bytes) },
            {
              header: t('accounts.actions'),
              hiddenHeader: true,
              cell: (backup) => (
                <button
                  type="button"
                  disabled={restore.busy}
                  aria-label={t('backup.restoreLabel', { when: when(backup), kind: kind(backup) })}
                  onClick={() => {
                    restore.clearError();
                    setConfirming(backup);
                  }}
                >
                  {t('backup.restore')}
                </button>
              ),
            },
          ]}
        />
      )}
      {confirming && (
        <RestoreConfirm
          question={t('backup.confirm', { when: when(confirming) })}
          busy={restore.busy}
          onConfirm={() => void restore.run(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
      {restore.busy && <Busy label={t('backup.restoring')} />}
      <ErrorNotice error={restore.error} onDismiss={restore.clearError} />
    </article>
  );
}

import type { ImportResult } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';

/** The import's last step: what was stored (or that nothing was new), then reconcile it or import another file. */
export function ImportDoneStep({
  result,
  onRun,
  onAnother,
}: {
  result: ImportResult;
  onRun: (statementId: string) => void;
  onAnother: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="stack">
      {result.id === null ? (
        <p role="status" className="notice notice-warn">
          {t('import.nothingNew', { duplicates: result.duplicate_count })}
        </p>
      ) : (
        <p role="status" className="notice notice-ok">
          {t('import.done', {
            count: result.imported_count,
            duplicates: result.duplicate_count,
            name: result.name,
          })}
        </p>
      )}
      <div className="form-actions">
        {result.id !== null && (
          <button type="button" className="primary" onClick={() => result.id !== null && onRun(result.id)}>
            {t('import.runNow')}
          </button>
        )}
        <button type="button" onClick={onAnother}>
          {t('import.another')}
        </button>
      </div>
    </div>
  );
}

import { ApiError } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';

/** The server's own words for what went wrong (`detail`), with the fields it names. */
export function ErrorNotice({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  const { t } = useI18n();
  if (error === undefined || error === null) return null;
  const api = error instanceof ApiError ? error : null;
  const detail = api
    ? api.code === 'NETWORK'
      ? `${t('error.network')} ${api.detail}`
      : api.detail
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div role="alert" className="notice notice-error">
      <div className="notice-body">
        <strong>{t('error.title')}</strong> <span className="error-detail">{detail}</span>
        {api && api.errors.length > 0 && (
          <ul className="field-errors">
            {api.errors.map((e) => (
              <li key={`${e.field}:${e.message}`}>
                <code>{e.field}</code> {e.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {onDismiss && (
        <button type="button" className="icon-button" aria-label={t('action.dismiss')} onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}

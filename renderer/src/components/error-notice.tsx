import { ApiError } from '../api/index.ts';
import { useI18n, type MessageKey, type Translate } from '../i18n/index.ts';
import { waitInWords } from '../wait-in-words.ts';
import { fieldReason } from './field-error.tsx';

/** What people are told for each error code the server answers: what happened and what to do. */
const WORDS_BY_CODE: Record<string, MessageKey> = {
  NETWORK: 'error.code.NETWORK',
  INSUFFICIENT_UNITS: 'error.code.INSUFFICIENT_UNITS',
  INVALID_LOT: 'error.code.INVALID_LOT',
  TOO_MANY_SECURITIES: 'error.code.TOO_MANY_SECURITIES',
  VALIDATION_ERROR: 'error.code.VALIDATION_ERROR',
  MALFORMED_JSON: 'error.code.VALIDATION_ERROR',
  UNBALANCED: 'error.code.UNBALANCED',
  TOO_FEW_LINES: 'error.code.TOO_FEW_LINES',
  INACTIVE_ACCOUNT: 'error.code.INACTIVE_ACCOUNT',
  INVALID_ACCOUNT: 'error.code.INVALID_ACCOUNT',
  CURRENCY_MISMATCH: 'error.code.CURRENCY_MISMATCH',
  MISSING_RATE: 'error.code.MISSING_RATE',
  INVALID_STATUS: 'error.code.INVALID_STATUS',
  DUPLICATE_NAME: 'error.code.DUPLICATE_NAME',
  INVALID_TYPE: 'error.code.INVALID_TYPE',
  INVALID_PARENT: 'error.code.INVALID_PARENT',
  HAS_ENTRIES: 'error.code.HAS_ENTRIES',
  HAS_CHILDREN: 'error.code.HAS_CHILDREN',
  NOT_FOUND: 'error.code.NOT_FOUND',
  EMAIL_TAKEN: 'error.code.EMAIL_TAKEN',
  PAYLOAD_TOO_LARGE: 'error.code.PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'error.code.INVALID_STATEMENT_FILE',
  INVALID_STATEMENT_FILE: 'error.code.INVALID_STATEMENT_FILE',
  INVALID_JOURNAL: 'error.code.INVALID_JOURNAL',
  UNSUPPORTED_DIRECTIVE: 'error.code.INVALID_JOURNAL',
  UNSUPPORTED_COMMODITY: 'error.code.INVALID_JOURNAL',
  ALREADY_PROCESSED: 'error.code.ALREADY_PROCESSED',
  SUPERSEDED: 'error.code.SUPERSEDED',
  VERSION_CONFLICT: 'error.code.VERSION_CONFLICT',
  JOB_BUDGET_EXCEEDED: 'error.code.JOB_BUDGET_EXCEEDED',
  LEDGER_BUSY: 'error.code.LEDGER_BUSY',
  STORAGE_FULL: 'error.code.STORAGE_FULL',
  STORAGE_UNAVAILABLE: 'error.code.STORAGE_UNAVAILABLE',
  LEDGER_UNAVAILABLE: 'error.code.STORAGE_UNAVAILABLE',
  SERVICE_UNAVAILABLE: 'error.code.STORAGE_UNAVAILABLE',
};

export interface ErrorWords {
  /** what to do, in the interface language */
  message: string;
  /** what the server or the browser said, for whoever wants the detail; null: nothing more to tell */
  details: string | null;
}

/**
 * An error in words for people: a mistake of theirs as what to do, in their language, with the
 * technical text (the server's own words, the code, the fields) kept for a "details" toggle.
 */
function errorWords(error: unknown, t: Translate, words: Readonly<Record<string, MessageKey>> = {}): ErrorWords {
  if (!(error instanceof ApiError)) {
    const text = error instanceof Error ? error.message : String(error);
    return { message: t('error.unexpected'), details: text || null };
  }
  // the technical words in the interface language; the server's own sentence is quoted as it came
  const details = [
    error.code ? t('error.detailsCode', { code: error.code, status: error.status }) : `HTTP ${error.status}`,
    error.detail ? t('error.detailsServer', { detail: error.detail }) : '',
    ...error.errors.map((e) => t('error.detailsField', { field: e.field, reason: fieldReason(e.message, t) })),
  ]
    .filter(Boolean)
    .join('\n');
  if (error.status === 429) {
    return { message: t('error.code.RATE_LIMITED', { wait: waitInWords(error.retryAfterSeconds ?? 60, t) }), details };
  }
  const chosen = error.code ? words[error.code] : undefined;
  if (chosen) return { message: t(chosen), details };
  const first = error.errors[0];
  if (error.code === 'VALIDATION_ERROR' && first)
    return { message: t('error.code.VALIDATION_ERROR_REASON', { reason: fieldReason(first.message, t) }), details };
  const key = error.code ? WORDS_BY_CODE[error.code] : undefined;
  if (key) return { message: t(key), details };
  return { message: t(error.status >= 500 ? 'error.unexpected' : 'error.refused'), details };
}

/**
 * What went wrong, in words for people, with the technical details behind a toggle. `words`: codes
 * this place says more precisely than the app at large (a refused correction's INVALID_STATUS).
 */
export function ErrorNotice({
  error,
  onDismiss,
  words,
}: {
  error: unknown;
  onDismiss?: () => void;
  words?: Readonly<Record<string, MessageKey>>;
}) {
  const { t } = useI18n();
  if (error === undefined || error === null) return null;
  const { message, details } = errorWords(error, t, words);
  return (
    <div role="alert" className="notice notice-error">
      <div className="notice-body">
        <span className="error-message">{message}</span>
        {details && (
          <details className="error-details">
            <summary>{t('error.details')}</summary>
            <pre>{details}</pre>
          </details>
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

import { useState } from 'react';
import { createEntries, type AccountDto, type ImportResult } from '../../api/index.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { statementLabel } from '../../names.ts';

/**
 * The import's last step: what was stored (or that nothing was new) and how many lines the rules
 * match; then book those by the rules, reconcile the statement, or import another file.
 */
export function ImportDoneStep({
  result,
  accounts,
  onRun,
  onBooked,
  onAnother,
}: {
  result: ImportResult;
  /** the bank accounts, to name where each account of a file of several went */
  accounts: AccountDto[];
  onRun: (statementId: string) => void;
  onBooked: () => void;
  onAnother: () => void;
}) {
  const { t } = useI18n();
  const [booked, setBooked] = useState<{ count: number; skipped: number } | null>(null);
  const book = useAction(async () => {
    if (result.id === null) return;
    const answer = await createEntries({ statement_id: result.id });
    setBooked({ count: answer.created.length, skipped: answer.skipped.length });
    onBooked();
  });
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
            name: statementLabel(result, t),
          })}{' '}
          {result.rule_matched_count > 0 && t('import.ruleMatched', { count: result.rule_matched_count })}
        </p>
      )}
      {result.accounts.length > 1 && (
        <ul data-testid="import-accounts">
          {result.accounts.map((a, i) => {
            const ref = a.account_ref ?? t('import.noAccountRef');
            const own = accounts.find((x) => x.id === a.account_id);
            return (
              <li key={i}>
                {own
                  ? t('import.accountsDone', { ref, count: a.imported_count, account: own.name })
                  : t('import.accountSkipped', { ref })}
              </li>
            );
          })}
        </ul>
      )}
      {booked && (
        <p role="status" className="notice notice-ok">
          {t('statements.bookedByRules', booked)}
        </p>
      )}
      <div className="form-actions">
        {result.id !== null && result.rule_matched_count > 0 && !booked && (
          <button type="button" className="primary" disabled={book.busy} onClick={() => void book.run()}>
            {t('statements.bookByRules')}
          </button>
        )}
        {result.id !== null && (
          <button
            type="button"
            className={result.rule_matched_count > 0 && !booked ? undefined : 'primary'}
            onClick={() => result.id !== null && onRun(result.id)}
          >
            {t('import.runNow')}
          </button>
        )}
        <button type="button" onClick={onAnother}>
          {t('import.another')}
        </button>
      </div>
      <ErrorNotice error={book.error} onDismiss={book.clearError} />
    </div>
  );
}

import { useCallback, useState } from 'react';
import { createEntries, listStatements, type AccountDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { Busy } from '../../components/busy.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { statementLabel } from '../../names.ts';

const PER_PAGE = 10;

/** The imported statements, newest first, each with its closing balance, a button to reconcile it and one to book its lines by rules. */
export function StatementList({
  accounts,
  refresh,
  running,
  onRun,
  onBooked,
}: {
  accounts: AccountDto[];
  refresh: number;
  running: boolean;
  onRun: (statementId: string) => void;
  onBooked: () => void;
}) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const load = useCallback(() => listStatements(page, PER_PAGE), [page]);
  const { data, error, loading } = useLoader(load, [load, refresh]);
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const currencies = new Map(accounts.map((a) => [a.id, a.currency]));
  const [booked, setBooked] = useState<{ count: number; skipped: number } | null>(null);
  const book = useAction(async (statementId: string) => {
    const result = await createEntries({ statement_id: statementId });
    setBooked({ count: result.created.length, skipped: result.skipped.length });
    onBooked();
  });
  return (
    <article className="panel" aria-labelledby="statements-heading">
      <h2 id="statements-heading">{t('statements.title')}</h2>
      <ErrorNotice error={error ?? book.error} onDismiss={book.clearError} />
      {booked && (
        <p role="status" className="notice notice-ok">
          {t('statements.bookedByRules', booked)}
        </p>
      )}
      {loading && !data && <Busy label={t('loading')} />}
      {data && (
        <DataTable
          scroll
          className="compact"
          rows={data.items}
          rowKey={(s) => s.id}
          empty={<EmptyState title={t('statements.empty')}>{t('statements.emptyHint')}</EmptyState>}
          columns={[
            {
              header: t('statements.name'),
              cell: (s) => (
                <>
                  <Clipped text={statementLabel(s, t)} /> <span className="muted">({s.source.toUpperCase()})</span>
                </>
              ),
            },
            { header: t('import.account'), cell: (s) => names.get(s.account_id) ?? '—' },
            {
              header: t('import.period'),
              cell: (s) =>
                s.start_date ? (
                  <>
                    <span className="nowrap">{s.start_date} –</span> <span className="nowrap">{s.end_date}</span>
                  </>
                ) : (
                  '—'
                ),
            },
            {
              header: t('statements.imported'),
              numeric: true,
              cell: (s) => (
                <>
                  {s.imported_count}
                  {s.duplicate_count > 0 && (
                    <span className="muted">
                      {' '}
                      (+{s.duplicate_count} {t('import.duplicates').toLowerCase()})
                    </span>
                  )}
                </>
              ),
            },
            {
              header: t('statements.closingBalance'),
              numeric: true,
              cell: (s) =>
                s.closing_balance === null ? (
                  '—'
                ) : (
                  <span title={s.closing_date ?? undefined}>
                    <Amount value={s.closing_balance} currency={currencies.get(s.account_id)} />
                  </span>
                ),
            },
            {
              header: t('accounts.actions'),
              hiddenHeader: true,
              cell: (s) => (
                <div className="row-actions">
                  <button
                    type="button"
                    disabled={running}
                    aria-label={t('statements.runLabel', { name: statementLabel(s, t) })}
                    onClick={() => onRun(s.id)}
                  >
                    {t('statements.run')}
                  </button>
                  <button
                    type="button"
                    disabled={book.busy}
                    aria-label={t('statements.bookByRulesLabel', { name: statementLabel(s, t) })}
                    onClick={() => void book.run(s.id)}
                  >
                    {t('statements.bookByRules')}
                  </button>
                </div>
              ),
            },
          ]}
        />
      )}
      {data && (
        <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('statements.pages')} />
      )}
    </article>
  );
}

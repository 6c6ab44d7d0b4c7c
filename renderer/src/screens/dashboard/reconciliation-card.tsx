import type { ReconciliationStats } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { Facts } from '../../components/facts.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';

/**
 * How many imported bank lines are matched to entries, and how far each account is reconciled to the
 * bank's balance (a different thing: matching pairs lines; reconciling agrees the balance), or where to
 * start when nothing is imported.
 */
export function ReconciliationCard({
  stats,
  onNavigate,
}: {
  stats: ReconciliationStats;
  onNavigate: (route: Route) => void;
}) {
  const { t } = useI18n();
  const progress = t('dashboard.reconciledOf', { done: stats.matched, total: stats.total_transactions });
  return (
    <article className="card" aria-labelledby="reconciliation-progress">
      <h2 id="reconciliation-progress">{t('dashboard.reconciliation')}</h2>
      {stats.total_transactions === 0 ? (
        <EmptyState
          title={t('dashboard.noStatements')}
          action={
            <button type="button" onClick={() => onNavigate('/statements')}>
              {t('dashboard.importStatement')}
            </button>
          }
        />
      ) : (
        <>
          <p className="figure">{stats.match_rate.toFixed(1)}%</p>
          <ProgressBar
            value={stats.matched}
            max={stats.total_transactions}
            label={t('dashboard.reconciliation')}
            text={progress}
            tone="good"
          />
          <p className="muted">{progress}</p>
          <Facts
            facts={[
              { label: t('stats.pending'), value: stats.pending_review },
              { label: t('stats.unmatched'), value: stats.unmatched },
            ]}
          />
          <ul className="reconciled-through" aria-label={t('reconcile.title')}>
            {stats.by_account.map((a) => (
              <li key={a.account_id}>
                {a.reconciled_through
                  ? t('dashboard.reconciledThrough', { account: a.account_name, date: a.reconciled_through })
                  : t('dashboard.neverReconciled', { account: a.account_name })}
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

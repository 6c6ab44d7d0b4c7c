import type { ReconciliationStats } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { Facts } from '../../components/facts.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';

/** How far the imported bank lines are reconciled, or where to start when none are. */
export function ReconciliationCard({
  stats,
  onNavigate,
}: {
  stats: ReconciliationStats;
  onNavigate: (route: Route) => void;
}) {
  const { t } = useI18n();
  const progress = t('dashboard.reconciledOf', { done: stats.reconciled, total: stats.total_transactions });
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
          <p className="figure">{stats.reconciliation_rate.toFixed(1)}%</p>
          <ProgressBar
            value={stats.reconciled}
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
        </>
      )}
    </article>
  );
}

import { reconciliationStats } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Facts } from '../../components/facts.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';

/** How much of the imported bank lines is matched to entries, in all and per account. */
export function ReconciliationStats({ refresh }: { refresh: number }) {
  const { t } = useI18n();
  const { data, error, loading } = useLoader(reconciliationStats, [refresh]);
  if (!data) return loading ? <Busy label={t('loading')} /> : <ErrorNotice error={error} />;
  if (data.total_transactions === 0)
    return <EmptyState title={t('dashboard.noStatements')}>{t('statements.emptyHint')}</EmptyState>;
  const distribution = [
    { key: '85_100', label: '85–100', value: data.score_distribution['85_100'], tone: 'good' as const },
    { key: '60_84', label: '60–84', value: data.score_distribution['60_84'], tone: 'warn' as const },
    { key: '0_59', label: '0–59', value: data.score_distribution['0_59'], tone: 'bad' as const },
  ];
  const most = Math.max(1, ...distribution.map((d) => d.value));
  return (
    <div className="stats" data-testid="reconciliation-stats">
      <ErrorNotice error={error} />
      <Facts
        className="stat-facts"
        facts={[
          { label: t('stats.total'), value: data.total_transactions },
          { label: t('stats.reconciled'), value: data.matched, testId: 'stats-matched' },
          { label: t('stats.pending'), value: data.pending_review },
          { label: t('stats.unmatched'), value: data.unmatched },
          { label: t('stats.rate'), value: `${data.match_rate.toFixed(1)}%` },
          { label: t('stats.average'), value: data.average_score.toFixed(1) },
        ]}
      />
      <ProgressBar
        value={data.matched}
        max={data.total_transactions}
        label={t('stats.rate')}
        text={`${data.match_rate.toFixed(1)}%`}
        tone="good"
      />
      <h3>{t('stats.distribution')}</h3>
      <dl className="distribution">
        {distribution.map((d) => (
          <div key={d.key}>
            <dt>{d.label}</dt>
            <dd>
              <ProgressBar
                value={d.value}
                max={most}
                label={t('stats.scoresBetween', { range: d.label })}
                text={String(d.value)}
                tone={d.tone}
              />
              <span>{d.value}</span>
            </dd>
          </div>
        ))}
      </dl>
      {data.by_account.length > 0 && (
        <DataTable
          className="compact"
          caption={t('stats.byAccount')}
          rows={data.by_account}
          rowKey={(a) => a.account_id}
          columns={[
            { header: t('import.account'), cell: (a) => a.account_name },
            { header: t('stats.reconciled'), numeric: true, cell: (a) => a.matched },
            { header: t('stats.pending'), numeric: true, cell: (a) => a.pending },
            { header: t('stats.unmatched'), numeric: true, cell: (a) => a.unmatched },
          ]}
        />
      )}
    </div>
  );
}

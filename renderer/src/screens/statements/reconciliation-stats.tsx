import { reconciliationStats } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';

/** How much of the imported bank lines is reconciled, in all and per account. */
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
      <dl className="facts stat-facts">
        <div>
          <dt>{t('stats.total')}</dt>
          <dd>{data.total_transactions}</dd>
        </div>
        <div>
          <dt>{t('stats.reconciled')}</dt>
          <dd data-testid="stats-reconciled">{data.reconciled}</dd>
        </div>
        <div>
          <dt>{t('stats.pending')}</dt>
          <dd>{data.pending_review}</dd>
        </div>
        <div>
          <dt>{t('stats.unmatched')}</dt>
          <dd>{data.unmatched}</dd>
        </div>
        <div>
          <dt>{t('stats.rate')}</dt>
          <dd>{data.reconciliation_rate.toFixed(1)}%</dd>
        </div>
        <div>
          <dt>{t('stats.average')}</dt>
          <dd>{data.average_score.toFixed(1)}</dd>
        </div>
      </dl>
      <ProgressBar
        value={data.reconciled}
        max={data.total_transactions}
        label={t('stats.rate')}
        text={`${data.reconciliation_rate.toFixed(1)}%`}
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
        <table className="data-table compact">
          <caption className="visually-hidden">{t('stats.byAccount')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('import.account')}</th>
              <th scope="col" className="num">
                {t('stats.reconciled')}
              </th>
              <th scope="col" className="num">
                {t('stats.pending')}
              </th>
              <th scope="col" className="num">
                {t('stats.unmatched')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.by_account.map((a) => (
              <tr key={a.account_id}>
                <td>{a.account_name}</td>
                <td className="num">{a.reconciled}</td>
                <td className="num">{a.pending}</td>
                <td className="num">{a.unmatched}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

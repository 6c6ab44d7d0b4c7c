import { getBudget } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { monthOf, today } from '../../dates.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { chartValue, isNegative } from '../../money.ts';
import type { Route } from '../../router.ts';

/** What is left to spend this month across the budgeted expenses, per currency. */
export function BudgetCard({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  const { data, error } = useLoader(() => getBudget(monthOf(today())), []);
  const expenses = data?.totals.filter((total) => total.type === 'EXPENSE') ?? [];
  return (
    <article className="card" aria-labelledby="budget-left">
      <h2 id="budget-left">{t('budget.leftThisMonth')}</h2>
      <ErrorNotice error={error} />
      {data && expenses.length === 0 && (
        <EmptyState
          title={t('budget.noBudget')}
          action={
            <button type="button" onClick={() => onNavigate('/budget')}>
              {t('budget.makeBudget')}
            </button>
          }
        />
      )}
      {expenses.map((total) => {
        // budgeted and carried in: what is left plus what was spent
        const room = chartValue(total.available) + chartValue(total.actual);
        return (
          <div key={total.currency} data-testid="budget-left">
            <p className="figure">
              <Amount value={total.available} currency={total.currency} />
            </p>
            <ProgressBar
              value={Math.max(0, chartValue(total.actual))}
              max={room > 0 ? room : 1}
              label={t('budget.leftThisMonth')}
              text={t('budget.leftOf', { left: total.available, budgeted: total.budgeted })}
              tone={isNegative(total.available) ? 'bad' : 'good'}
            />
            <p className="muted">{t('budget.leftOf', { left: total.available, budgeted: total.budgeted })}</p>
          </div>
        );
      })}
      {expenses.length > 0 && (
        <button type="button" className="link" onClick={() => onNavigate('/budget')}>
          {t('nav.budget')}
        </button>
      )}
    </article>
  );
}

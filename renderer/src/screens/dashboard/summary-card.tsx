import type { BalanceSheet, IncomeStatement } from '../../api.ts';
import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n.tsx';

/** One currency's net worth, this month's income and spending, assets and liabilities. */
export function SummaryCard({
  sheet,
  month,
}: {
  sheet: BalanceSheet['currencies'][number];
  month: IncomeStatement['currencies'][number] | undefined;
}) {
  const { t } = useI18n();
  const currency = sheet.currency;
  const facts = [
    { label: t('dashboard.incomeThisMonth'), value: month?.total_income ?? '0' },
    { label: t('dashboard.spendingThisMonth'), value: month?.total_expenses ?? '0' },
    { label: t('dashboard.assets'), value: sheet.total_assets },
    { label: t('dashboard.liabilities'), value: sheet.total_liabilities },
    // in the home currency: what foreign money bought by exchanges is worth now less what it cost
    ...(sheet.unrealized_gains !== undefined
      ? [{ label: t('currency.unrealized'), value: sheet.unrealized_gains }]
      : []),
  ];
  return (
    <article className="card" aria-label={t('dashboard.summaryFor', { currency })}>
      <h2>{t('dashboard.netWorth')}</h2>
      <p className="figure" data-testid={`net-worth-${currency}`}>
        <Amount value={sheet.net_worth} currency={currency} />
      </p>
      <dl className="facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>
              <Amount value={fact.value} currency={currency} />
            </dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

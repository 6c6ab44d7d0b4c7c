import type { BalanceSheet, IncomeStatement } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Facts } from '../../components/facts.tsx';
import { useI18n } from '../../i18n/index.ts';

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
  const amount = (value: string) => <Amount value={value} currency={currency} />;
  return (
    <article className="card" aria-label={t('dashboard.summaryFor', { currency })}>
      <h2>{t('dashboard.netWorth')}</h2>
      <p className="figure" data-testid={`net-worth-${currency}`}>
        {amount(sheet.net_worth)}
      </p>
      <Facts
        facts={[
          { label: t('dashboard.incomeThisMonth'), value: amount(month?.total_income ?? '0') },
          { label: t('dashboard.spendingThisMonth'), value: amount(month?.total_expenses ?? '0') },
          { label: t('dashboard.assets'), value: amount(sheet.total_assets) },
          { label: t('dashboard.liabilities'), value: amount(sheet.total_liabilities) },
          // in the home currency: what foreign money bought by exchanges is worth now less what it cost
          ...(sheet.unrealized_gains !== undefined
            ? [{ label: t('currency.unrealized'), value: amount(sheet.unrealized_gains) }]
            : []),
        ]}
      />
    </article>
  );
}

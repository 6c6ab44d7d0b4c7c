import { useState } from 'react';
import {
  allAccounts,
  balanceSheetReport,
  incomeStatementReport,
  netWorthReport,
  reconciliationStats,
  type MissingRate,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { CreateAccountsFirst } from '../../components/create-accounts-first.tsx';
import { CurrencySwitch, type CurrencyMode } from '../../components/currency-switch.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { NetWorthChart, type NetWorthPoint } from '../../components/net-worth-chart.tsx';
import { MissingRates } from '../../components/missing-rates.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { monthEnd, monthOf, monthStart, today } from '../../dates.ts';
import { browserCurrency, inHomeCurrency, useHomeCurrency } from '../../hooks/use-home-currency.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal, isZero } from '../../money.ts';
import type { Route } from '../../router.ts';
import { ReconciliationCard } from './reconciliation-card.tsx';
import { BudgetCard } from './budget-card.tsx';
import { BillsCard } from './bills-card.tsx';
import { HomeCurrencyCard } from './home-currency-card.tsx';
import { SpendingChart } from './spending-chart.tsx';
import { SummaryCard } from './summary-card.tsx';

/** The last six months, oldest first; this month ends today. */
const SPENDING_MONTHS = [5, 4, 3, 2, 1, 0];

/** The dashboard's reads; with `convertTo`, every figure in that currency (each at its own date). */
async function loadDashboard(convertTo: string | undefined) {
  const end = today();
  const [accounts, sheet, stats, netWorth, months] = await Promise.all([
    allAccounts(),
    balanceSheetReport(end, convertTo),
    reconciliationStats(),
    netWorthReport(monthStart(11), end, 'month', convertTo),
    Promise.all(
      SPENDING_MONTHS.map((back) =>
        incomeStatementReport(monthStart(back), back === 0 ? end : monthEnd(back), convertTo),
      ),
    ),
  ]);
  const missing = new Map<string, MissingRate>();
  for (const report of [sheet, netWorth, ...months])
    for (const m of report.missing_rates ?? []) if (!missing.has(m.from)) missing.set(m.from, m);
  if (!convertTo) return { accounts, sheet, stats, netWorth, months, month: months[months.length - 1]!, missing: [] };
  const converted = months.map((m) => inHomeCurrency(m));
  return {
    accounts,
    sheet: inHomeCurrency(sheet),
    stats,
    netWorth: inHomeCurrency(netWorth),
    months: converted,
    month: converted[converted.length - 1]!,
    missing: [...missing.values()],
  };
}

/** Net worth at each month's end over the last twelve, or a word on how to start when there is none. */
function NetWorthCard({ series, currency }: { series: NetWorthPoint[]; currency: string }) {
  const { t } = useI18n();
  if (series.every((p) => isZero(p.assets) && isZero(p.liabilities)))
    return <EmptyState title={t('dashboard.noHistory')}>{t('dashboard.noHistoryHint')}</EmptyState>;
  const last = series[series.length - 1];
  return (
    <NetWorthChart
      series={series}
      currency={currency}
      label={t('dashboard.netWorthChartLabel', { currency, value: last ? groupDecimal(last.net_worth) : '0' })}
      pointLabel={monthOf}
    />
  );
}

/** Net worth, this month's income and spending, reconciliation progress, and two charts. */
export function DashboardScreen({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  const { home, confirmed, change } = useHomeCurrency();
  const [mode, setMode] = useState<CurrencyMode>('home');
  const { data, error, loading } = useLoader(
    // the home currency comes first: until then nothing is loaded
    () => (home ? loadDashboard(mode === 'home' ? home : undefined) : new Promise<never>(() => {})),
    [mode, home],
  );
  const [chosenCurrency, setChosenCurrency] = useState<string | null>(null);

  if (!data) {
    return (
      <section className="screen" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title">{t('nav.dashboard')}</h1>
        {loading && <Busy label={t('loading')} />}
        <ErrorNotice error={error} />
      </section>
    );
  }

  const { accounts, sheet, month, stats, netWorth, months, missing } = data;
  const currencies = sheet.currencies.map((c) => c.currency);
  const bookCurrencies = new Set(accounts.map((a) => a.currency));
  const switchable = home !== undefined && (bookCurrencies.size > 1 || !bookCurrencies.has(home));
  const currency =
    chosenCurrency && currencies.includes(chosenCurrency)
      ? chosenCurrency
      : currencies.includes('USD')
        ? 'USD'
        : currencies[0];

  return (
    <section className="screen" aria-labelledby="dashboard-title">
      <div className="screen-head">
        <h1 id="dashboard-title">{t('nav.dashboard')}</h1>
        {switchable && <CurrencySwitch home={home} mode={mode} onMode={setMode} />}
        {currencies.length > 1 && (
          <label className="inline-field">
            {t('dashboard.chartCurrency')}
            <select value={currency} onChange={(e) => setChosenCurrency(e.target.value)}>
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ErrorNotice error={error} />
      <MissingRates missing={missing} onAddRates={() => onNavigate('/prices')} />
      {accounts.length === 0 && !confirmed && <HomeCurrencyCard offered={browserCurrency()} onConfirm={change} />}
      {accounts.length === 0 ? (
        <CreateAccountsFirst
          title={t('dashboard.emptyTitle')}
          hint={t('dashboard.emptyHint')}
          onNavigate={onNavigate}
        />
      ) : (
        <>
          <div className="cards">
            {sheet.currencies.map((c) => (
              <SummaryCard key={c.currency} sheet={c} month={month.currencies.find((x) => x.currency === c.currency)} />
            ))}
            <ReconciliationCard stats={stats} onNavigate={onNavigate} />
            <BudgetCard onNavigate={onNavigate} />
            <BillsCard onNavigate={onNavigate} />
          </div>
          {currency && (
            <div className="charts">
              <article className="card chart-card">
                <h2>{t('dashboard.netWorthChart', { currency })}</h2>
                <NetWorthCard
                  series={netWorth.currencies.find((c) => c.currency === currency)?.series ?? []}
                  currency={currency}
                />
              </article>
              <article className="card chart-card">
                <h2>{t('dashboard.spendingChart', { currency })}</h2>
                <SpendingChart months={months} currency={currency} onNavigate={onNavigate} />
              </article>
            </div>
          )}
        </>
      )}
    </section>
  );
}

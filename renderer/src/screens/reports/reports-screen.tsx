import { useCallback, useState } from 'react';
import {
  allAccounts,
  balanceSheetReport,
  cashFlowReport,
  incomeExpensesReport,
  incomeStatementReport,
  netWorthReport,
  trialBalanceReport,
  type MissingRate,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { CurrencySwitch, type CurrencyMode } from '../../components/currency-switch.tsx';
import { MissingRates } from '../../components/missing-rates.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { saveFile } from '../../components/save-file.ts';
import { TabList } from '../../components/tab-list.tsx';
import { inHomeCurrency, useHomeCurrency } from '../../hooks/use-home-currency.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { registerPath, type Navigate } from '../../router.ts';
import {
  AS_OF_REPORTS,
  REPORT_KINDS,
  reportBlocks,
  type Drill,
  type ReportKind,
  type Reports,
} from './report-model.ts';
import { reportCsv, withoutZeroRows } from './report-output.ts';
import { PRESETS, presetPeriod, previousPeriod, type Period, type Preset } from './report-period.ts';
import { IncomeExpensesChart, NetWorthReportChart, reportTableId, SpendingByCategory } from './report-charts.tsx';
import { ReportTable } from './report-table.tsx';

const HIDE_ZERO_KEY = 'ledger.reports.hideZeroRows';

/** Whether "Hide zero rows" was ticked last time on this computer. */
function keptHideZero(): boolean {
  return window.localStorage.getItem(HIDE_ZERO_KEY) === 'true';
}

/** Days a series covers by day, then by week; longer ones go by month. */
function intervalOf(period: Period): 'day' | 'week' | 'month' {
  const days = (Date.parse(period.end) - Date.parse(period.start)) / 86_400_000 + 1;
  return days <= 31 ? 'day' : days <= 120 ? 'week' : 'month';
}

/** A report; with `convertTo`, as its one group in that currency (each figure at its own date: CONTRACT §16). */
async function loadReport(kind: ReportKind, period: Period, convertTo: string | undefined): Promise<Reports['now']> {
  const report = await (() => {
    switch (kind) {
      case 'trial-balance':
        return trialBalanceReport(period.end, convertTo);
      case 'balance-sheet':
        return balanceSheetReport(period.end, convertTo);
      case 'income-statement':
        return incomeStatementReport(period.start, period.end, convertTo);
      case 'income-expenses':
        return incomeExpensesReport(period.start, period.end, 'month', convertTo);
      case 'cash-flow':
        return cashFlowReport(period.start, period.end, 'month', convertTo);
      case 'net-worth':
        return netWorthReport(period.start, period.end, intervalOf(period), convertTo);
    }
  })();
  return (convertTo ? inHomeCurrency(report as never) : report) as Reports['now'];
}

/** The rates the shown figures lacked, once per currency. */
function missingRates(reports: (Reports['now'] | null)[]): MissingRate[] {
  const missing = new Map<string, MissingRate>();
  for (const report of reports)
    for (const m of (report as { missing_rates?: MissingRate[] } | null)?.missing_rates ?? [])
      if (!missing.has(m.from)) missing.set(m.from, m);
  return [...missing.values()];
}

/**
 * The reports a bookkeeper reads: balance sheet, income statement, cash flow, net worth and trial
 * balance, for a period (this or last month or year, or any dates), compared with the period
 * before when asked; every figure of an account opens the register lines behind it; downloaded
 * as CSV or printed.
 */
export function ReportsScreen({ onNavigate }: { onNavigate: Navigate }) {
  const { t } = useI18n();
  const [kind, setKindNow] = useState<ReportKind>('balance-sheet');
  const [hideZero, setHideZero] = useState(keptHideZero);
  const [preset, setPreset] = useState<Preset>('this-month');
  const [period, setPeriod] = useState<Period>(() => presetPeriod('this-month'));
  const [compare, setCompare] = useState(false);
  const [mode, setMode] = useState<CurrencyMode>('home');
  const before = previousPeriod(period);
  const asOf = AS_OF_REPORTS.includes(kind);

  // books in more than one currency (or in another than the home one) are shown in the home
  // currency unless the switch asks for each currency on its own, as on the dashboard
  const { home } = useHomeCurrency();
  const books = useLoader(allAccounts, []);
  const bookCurrencies = new Set((books.data ?? []).map((a) => a.currency));
  const switchable =
    home !== undefined && (bookCurrencies.size > 1 || (bookCurrencies.size === 1 && !bookCurrencies.has(home)));
  const convertTo = switchable && mode === 'home' ? home : undefined;
  const ready = home !== undefined && (books.data !== undefined || books.error !== undefined);

  const load = useCallback(async (): Promise<Reports> => {
    // nothing is read before the currency to show it in is known
    if (!ready) return new Promise<never>(() => {});
    const [now, then] = await Promise.all([
      loadReport(kind, period, convertTo),
      compare ? loadReport(kind, previousPeriod(period), convertTo) : Promise.resolve(null),
    ]);
    return { kind, now, before: then } as Reports;
  }, [kind, period, compare, convertTo, ready]);
  const { data, error, loading } = useLoader(load, [load]);
  // an answer for another report than the one chosen (still loading) is not drawn
  const reports = data && data.kind === kind ? data : undefined;
  const missing = reports ? missingRates([reports.now, reports.before]) : [];
  const allBlocks = reports ? reportBlocks(reports, { now: period, before }, compare, t) : [];
  // what is shown is what is downloaded and printed
  const blocks = hideZero ? allBlocks.map(withoutZeroRows) : allBlocks;

  const title = t(`reports.kind.${kind}`);
  const when = asOf
    ? t('reports.asOfDate', { date: period.end })
    : t('reports.fromTo', { start: period.start, end: period.end });
  const choosePreset = (next: Preset) => {
    setPreset(next);
    if (next !== 'custom') setPeriod(presetPeriod(next));
  };
  // income and expenses by month are read over twelve months unless another period was chosen
  const setKind = (next: ReportKind) => {
    setKindNow(next);
    if (next === 'income-expenses' && preset === 'this-month') choosePreset('last-12-months');
  };
  const keepHideZero = (hide: boolean) => {
    setHideZero(hide);
    window.localStorage.setItem(HIDE_ZERO_KEY, String(hide));
  };
  const setDates = (patch: Partial<Period>) => {
    setPreset('custom');
    setPeriod((p) => {
      const next = { ...p, ...patch };
      return next.start > next.end ? { start: next.end, end: next.start } : next;
    });
  };
  const drill = (target: Drill) => {
    if ('asOf' in target) {
      setKind('balance-sheet');
      setPreset('custom');
      setPeriod((p) => ({ start: p.start <= target.asOf ? p.start : target.asOf, end: target.asOf }));
      return;
    }
    onNavigate(registerPath(target.accountId, { ...(target.start ? { start: target.start } : {}), end: target.end }));
  };
  const download = () =>
    saveFile({
      fileName: `${kind}-${asOf ? period.end : `${period.start}-${period.end}`}.csv`,
      contentType: 'text/csv; charset=utf-8',
      text: reportCsv(`${title} ${when}`, blocks, t),
    });

  return (
    <section className="screen reports-screen" aria-labelledby="reports-title">
      <div className="screen-head">
        <h1 id="reports-title">{t('nav.reports')}</h1>
      </div>
      <TabList
        className="tabs report-tabs"
        items={REPORT_KINDS.map((id) => ({ id, label: t(`reports.kind.${id}`) }))}
        selected={kind}
        onSelect={setKind}
        label={t('reports.which')}
        idPrefix="report"
      />
      <div className="report-toolbar">
        {switchable && <CurrencySwitch home={home} mode={mode} onMode={setMode} />}
        <div className="segmented presets" role="group" aria-label={t('reports.period')}>
          {PRESETS.map((p) => (
            <button key={p} type="button" aria-pressed={preset === p} onClick={() => choosePreset(p)}>
              {t(`reports.preset.${p}`)}
            </button>
          ))}
        </div>
        {!asOf && (
          <DateInput label={t('filter.from')} value={period.start} onChange={(d) => d && setDates({ start: d })} />
        )}
        <DateInput
          label={asOf ? t('reports.asOf') : t('filter.to')}
          value={period.end}
          onChange={(d) => d && setDates({ end: d })}
        />
        <label className="checkbox">
          <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} />
          {asOf
            ? t('reports.compareAsOf', { date: before.end })
            : t('reports.compareWith', { start: before.start, end: before.end })}
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={hideZero} onChange={(e) => keepHideZero(e.target.checked)} />
          {t('reports.hideZeroRows')}
        </label>
        <div className="row-actions report-actions">
          <button type="button" disabled={blocks.length === 0} onClick={download}>
            {t('reports.csv')}
          </button>
          <button type="button" disabled={blocks.length === 0} onClick={() => window.print()}>
            {t('reports.print')}
          </button>
        </div>
      </div>
      <div role="tabpanel" id={`report-panel-${kind}`} aria-labelledby={`report-tab-${kind}`} className="report">
        <h2 className="report-title">
          {title} <span className="muted">{when}</span>
        </h2>
        <ErrorNotice error={error} />
        <MissingRates missing={missing} onAddRates={() => onNavigate('/prices')} />
        {loading && <Busy label={t('loading')} />}
        {reports && blocks.length === 0 && <EmptyState title={t('reports.empty')}>{t('reports.emptyHint')}</EmptyState>}
        {blocks.map((block) => (
          <div key={block.currency} className="report-currency">
            {reports && <BlockChart reports={reports} currency={block.currency} hideZero={hideZero} />}
            <ReportTable block={block} title={title} id={reportTableId(block.currency)} onDrill={drill} />
          </div>
        ))}
        <p className="hint no-print">{t('reports.drillHint')}</p>
      </div>
    </section>
  );
}

/** The chart of a currency's block, for the reports that have one. */
function BlockChart({ reports, currency, hideZero }: { reports: Reports; currency: string; hideZero: boolean }) {
  switch (reports.kind) {
    case 'income-expenses': {
      const group = reports.now.currencies.find((c) => c.currency === currency);
      return group ? <IncomeExpensesChart group={group} /> : null;
    }
    case 'net-worth': {
      const group = reports.now.currencies.find((c) => c.currency === currency);
      return group ? <NetWorthReportChart group={group} /> : null;
    }
    case 'income-statement': {
      const group = reports.now.currencies.find((c) => c.currency === currency);
      return group ? <SpendingByCategory group={group} hideZero={hideZero} /> : null;
    }
    default:
      return null;
  }
}

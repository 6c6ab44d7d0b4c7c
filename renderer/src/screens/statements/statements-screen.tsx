import { useCallback, useState } from 'react';
import { allAccounts, runReconciliation, type RunResult } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { CreateAccountsFirst } from '../../components/create-accounts-first.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { TabList } from '../../components/tab-list.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';
import { ImportWizard } from './import-wizard.tsx';
import { ReconcilePanel } from './reconcile-panel.tsx';
import { ReconciliationStats } from './reconciliation-stats.tsx';
import { ReviewQueue } from './review-queue.tsx';
import { RulesPanel } from './rules-panel.tsx';
import { StatementList } from './statement-list.tsx';
import { UnmatchedList } from './unmatched-list.tsx';

type Tab = 'review' | 'unmatched' | 'rules' | 'stats';
const TABS: { id: Tab; label: MessageKey }[] = [
  { id: 'review', label: 'review.title' },
  { id: 'unmatched', label: 'unmatched.title' },
  { id: 'rules', label: 'rules.title' },
  { id: 'stats', label: 'stats.title' },
];

/** Bank statements in, reconciliation out: import, run, review, fill the gaps, see the progress. */
export function StatementsScreen({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  const accounts = useLoader(allAccounts, []);
  const [refresh, setRefresh] = useState(0);
  const [tab, setTab] = useState<Tab>('review');
  const [summary, setSummary] = useState<RunResult | null>(null);
  const bump = useCallback(() => setRefresh((n) => n + 1), []);
  const run = useAction(async (statementId: string) => {
    setSummary(null);
    setSummary(await runReconciliation({ statement_id: statementId }));
    bump();
  });

  const all = accounts.data ?? [];
  const bankAccounts = all.filter((a) => a.is_active && (a.type === 'ASSET' || a.type === 'LIABILITY'));
  if (accounts.data && all.length === 0) {
    return (
      <section className="screen" aria-labelledby="statements-title">
        <h1 id="statements-title">{t('nav.statements')}</h1>
        <CreateAccountsFirst
          title={t('journal.noAccountsTitle')}
          hint={t('import.noBankAccountHint')}
          onNavigate={onNavigate}
        />
      </section>
    );
  }

  return (
    <section className="screen" aria-labelledby="statements-title">
      <div className="screen-head">
        <h1 id="statements-title">{t('nav.statements')}</h1>
      </div>
      <ErrorNotice error={accounts.error} />
      {accounts.loading && !accounts.data && <Busy label={t('loading')} />}
      {accounts.data && (
        <div className="two-columns">
          <div className="stack">
            <ImportWizard accounts={bankAccounts} onImported={bump} onRun={(id) => void run.run(id)} onBooked={bump} />
            <StatementList
              accounts={all}
              refresh={refresh}
              running={run.busy}
              onRun={(id) => void run.run(id)}
              onBooked={bump}
            />
            <ReconcilePanel accounts={bankAccounts} bookTo={all} refresh={refresh} onChanged={bump} />
          </div>
          <div className="stack">
            {run.busy && (
              <div className="panel">
                <Busy label={t('run.running')} />
              </div>
            )}
            <ErrorNotice error={run.error} onDismiss={run.clearError} />
            {summary && (
              <p role="status" className="notice notice-ok" data-testid="run-summary">
                {t('run.summary', {
                  total: summary.summary.total_transactions,
                  auto: summary.summary.auto_accepted,
                  review: summary.summary.pending_review,
                  unmatched: summary.summary.unmatched,
                })}
              </p>
            )}
            <article className="panel">
              <TabList
                className="tabs"
                items={TABS.map((item) => ({ id: item.id, label: t(item.label) }))}
                selected={tab}
                onSelect={setTab}
                label={t('statements.reconciliation')}
                idPrefix="reconciliation"
              />
              <div role="tabpanel" id={`reconciliation-panel-${tab}`} aria-labelledby={`reconciliation-tab-${tab}`}>
                {tab === 'review' && <ReviewQueue accounts={all} refresh={refresh} onChanged={bump} />}
                {tab === 'unmatched' && <UnmatchedList accounts={all} refresh={refresh} onChanged={bump} />}
                {tab === 'rules' && <RulesPanel accounts={all} refresh={refresh} onChanged={bump} />}
                {tab === 'stats' && <ReconciliationStats refresh={refresh} />}
              </div>
            </article>
          </div>
        </div>
      )}
    </section>
  );
}

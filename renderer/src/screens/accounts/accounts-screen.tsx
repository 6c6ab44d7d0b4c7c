import { useCallback, useState } from 'react';
import {
  accountBalances,
  balanceSheetReport,
  createAccount,
  incomeStatementReport,
  type AccountType,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { browserCurrency, useHomeCurrency } from '../../hooks/use-home-currency.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { registerPath, type Navigate } from '../../router.ts';
import { DateInput } from '../../components/date-input.tsx';
import { AccountForm, type NewAccountDraft } from './account-form.tsx';
import { buildAccountTrees } from './account-tree-model.ts';
import { AccountTree } from './account-tree.tsx';

/** Income and expense balances as of a date count from the very beginning. */
const BEGINNING = '1900-01-01';

/** A ready-made chart of accounts for a household, named in the interface language. */
const STARTER_SET: { name: MessageKey; type: AccountType }[] = [
  { name: 'starter.checking', type: 'ASSET' },
  { name: 'starter.savings', type: 'ASSET' },
  { name: 'starter.creditCard', type: 'LIABILITY' },
  { name: 'starter.opening', type: 'EQUITY' },
  { name: 'starter.salary', type: 'INCOME' },
  { name: 'starter.groceries', type: 'EXPENSE' },
  { name: 'starter.rent', type: 'EXPENSE' },
  { name: 'starter.utilities', type: 'EXPENSE' },
];

/** The chart of accounts as trees per currency, with balances as of a chosen date; a name opens its register. */
export function AccountsScreen({ onNavigate }: { onNavigate: Navigate }) {
  const { t } = useI18n();
  const [asOf, setAsOf] = useState(today);
  const [draft, setDraft] = useState<NewAccountDraft | null>(null);
  const load = useCallback(async () => {
    const date = asOf || today();
    const [balances, sheet, income] = await Promise.all([
      accountBalances(date),
      balanceSheetReport(date),
      incomeStatementReport(BEGINNING, date),
    ]);
    return { balances, trees: buildAccountTrees(balances, sheet, income) };
  }, [asOf]);
  const { data, error, loading, reload } = useLoader(load, [load]);
  const { home, confirmed } = useHomeCurrency();
  // new accounts are in the home currency; a new ledger's, before it is chosen, is the browser region's
  const currency = (confirmed ? home : undefined) ?? browserCurrency();
  const starter = useAction(async () => {
    for (const account of STARTER_SET) await createAccount({ name: t(account.name), type: account.type, currency });
    reload();
  });

  const rows = data?.balances.balances ?? [];
  return (
    <section className="screen" aria-labelledby="accounts-title">
      <div className="screen-head">
        <h1 id="accounts-title">{t('nav.accounts')}</h1>
        <DateInput inline label={t('accounts.asOf')} value={asOf} onChange={setAsOf} />
        <button type="button" className="primary" onClick={() => setDraft({ parentId: null, type: 'ASSET', currency })}>
          {t('accounts.new')}
        </button>
      </div>
      {draft && (
        <AccountForm
          draft={draft}
          accounts={rows}
          onCancel={() => setDraft(null)}
          onCreated={() => {
            setDraft(null);
            reload();
          }}
        />
      )}
      <ErrorNotice error={error} />
      {loading && <Busy label={t('loading')} />}
      {data && rows.length === 0 && (
        <EmptyState
          title={t('accounts.emptyTitle')}
          action={
            <div className="row-actions">
              <button
                type="button"
                className="primary"
                onClick={() => setDraft({ parentId: null, type: 'ASSET', currency })}
              >
                {t('accounts.new')}
              </button>
              <button type="button" onClick={() => void starter.run()} disabled={starter.busy}>
                {t('accounts.starter')}
              </button>
            </div>
          }
        >
          {t('accounts.emptyHint')}
        </EmptyState>
      )}
      {starter.busy && <Busy label={t('accounts.creatingStarter')} />}
      <ErrorNotice error={starter.error} onDismiss={starter.clearError} />
      {data?.trees.map((tree) => (
        <AccountTree
          key={tree.currency}
          tree={tree}
          onChanged={reload}
          onAddChild={(parent) => setDraft({ parentId: parent.id, type: parent.type, currency: parent.currency })}
          onOpen={(node) => onNavigate(registerPath(node.id, asOf && asOf !== today() ? { end: asOf } : {}))}
        />
      ))}
    </section>
  );
}

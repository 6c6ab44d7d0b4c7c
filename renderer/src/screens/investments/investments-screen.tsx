import { useState } from 'react';
import { allAccounts, holdings, listSecurities } from '../../api/index.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { HoldingRow } from './holding-row.tsx';
import { InvestmentSettingsPanel } from './investment-settings-panel.tsx';
import { PriceImportPanel } from './price-import-panel.tsx';
import { SecurityPanel } from './security-panel.tsx';
import { TradeForm } from './trade-form.tsx';

export function InvestmentsScreen() {
  const { t } = useI18n();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const accounts = useLoader(() => allAccounts(), []);
  const securities = useLoader(() => listSecurities(), [version]);
  const held = useLoader(() => holdings(), [version]);
  const active = (accounts.data ?? []).filter((a) => a.is_active);
  return (
    <section className="screen" aria-labelledby="investments-title">
      <div className="screen-head">
        <h1 id="investments-title">{t('investments.title')}</h1>
      </div>
      <p className="hint">{t('investments.intro')}</p>
      <article className="panel" aria-labelledby="holdings-title">
        <h2 id="holdings-title">{t('investments.holdings')}</h2>
        <ErrorNotice error={held.error ?? accounts.error ?? securities.error} />
        {held.data && held.data.items.length === 0 && <EmptyState title={t('investments.none')} />}
        {held.data && held.data.items.length > 0 && (
          <div className="table-wrap">
            <table className="data-table compact" aria-label={t('investments.holdings')}>
              <thead>
                <tr>
                  <th>{t('investments.account')}</th>
                  <th>{t('investments.security')}</th>
                  <th className="numeric">{t('investments.units')}</th>
                  <th className="numeric">{t('investments.costBasis')}</th>
                  <th className="numeric">{t('investments.price')}</th>
                  <th className="numeric">{t('investments.marketValue')}</th>
                  <th className="numeric">{t('investments.unrealized')}</th>
                  <th className="numeric">{t('investments.return')}</th>
                  <th className="numeric">{t('investments.realized')}</th>
                </tr>
              </thead>
              <tbody>
                {held.data.items.map((h) => (
                  <HoldingRow key={`${h.account_id}-${h.security_id}`} h={h} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </article>
      <TradeForm accounts={active} securities={securities.data?.items ?? []} onBooked={changed} />
      <div className="two-columns">
        <SecurityPanel securities={securities.data?.items ?? []} onChanged={changed} />
        <InvestmentSettingsPanel accounts={active} />
      </div>
      <PriceImportPanel onImported={changed} />
    </section>
  );
}

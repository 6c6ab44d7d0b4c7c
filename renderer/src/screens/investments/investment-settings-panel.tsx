import { useId, useState } from 'react';
import { saveInvestmentSettings, type AccountDto } from '../../api/index.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { AccountSelect } from './investment-fields.tsx';

export function InvestmentSettingsPanel({ accounts }: { accounts: readonly AccountDto[] }) {
  const { t } = useI18n();
  const headingId = useId();
  const [account, setAccount] = useState('');
  const [method, setMethod] = useState<'FIFO' | 'LIFO' | 'AVERAGE'>('FIFO');
  const [shortTerm, setShortTerm] = useState('');
  const [longTerm, setLongTerm] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await saveInvestmentSettings(account, {
      booking_method: method,
      short_term_account_id: shortTerm,
      ...(longTerm ? { long_term_account_id: longTerm } : {}),
    });
    setSaved(true);
  });
  const assets = accounts.filter((a) => a.type === 'ASSET');
  const incomes = accounts.filter((a) => a.type === 'INCOME');
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('investments.settings')}</h2>
      <p className="hint">{t('investments.settingsHint')}</p>
      <form
        className="form-grid"
        aria-labelledby={headingId}
        onSubmit={(e) => {
          e.preventDefault();
          void save.run();
        }}
      >
        <AccountSelect label={t('investments.account')} accounts={assets} value={account} onChange={setAccount} />
        <label>
          {t('investments.method')}
          <select value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
            <option value="FIFO">{t('investments.methods.FIFO')}</option>
            <option value="LIFO">{t('investments.methods.LIFO')}</option>
            <option value="AVERAGE">{t('investments.methods.AVERAGE')}</option>
          </select>
        </label>
        <AccountSelect
          label={t('investments.shortTerm')}
          accounts={incomes}
          value={shortTerm}
          onChange={setShortTerm}
        />
        <AccountSelect
          label={t('investments.longTerm')}
          accounts={incomes}
          value={longTerm}
          onChange={setLongTerm}
          optional={t('investments.sameAsShort')}
        />
        <div className="form-actions span-2">
          <button type="submit" disabled={save.busy || !account || !shortTerm}>
            {t('investments.saveSettings')}
          </button>
        </div>
      </form>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {saved && (
        <p role="status" className="notice notice-ok">
          {t('investments.settingsSaved')}
        </p>
      )}
    </article>
  );
}

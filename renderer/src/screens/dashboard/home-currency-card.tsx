import { useId, useState } from 'react';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { HomeCurrencySelect } from '../../components/home-currency-select.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';

/** A new ledger's first question: the home currency, offered from the browser's region, confirmed in one click. */
export function HomeCurrencyCard({
  offered,
  onConfirm,
}: {
  offered: string;
  onConfirm: (currency: string) => Promise<void>;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [currency, setCurrency] = useState(offered);
  const confirm = useAction(onConfirm);
  return (
    <form
      className="panel home-currency-card"
      aria-labelledby={headingId}
      onSubmit={(e) => {
        e.preventDefault();
        void confirm.run(currency);
      }}
    >
      <h2 id={headingId}>{t('currency.confirmTitle')}</h2>
      <p className="hint">{t('currency.confirmHint')}</p>
      <div className="inline-form">
        <HomeCurrencySelect value={currency} onChange={setCurrency} disabled={confirm.busy} />
        <button type="submit" className="primary" disabled={confirm.busy}>
          {t('currency.confirm', { currency })}
        </button>
      </div>
      <ErrorNotice error={confirm.error} onDismiss={confirm.clearError} />
    </form>
  );
}

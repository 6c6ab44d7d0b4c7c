import { useId, useState } from 'react';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { HomeCurrencySelect } from '../../components/home-currency-select.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useHomeCurrency } from '../../hooks/use-home-currency.ts';
import { useI18n } from '../../i18n/index.ts';

/** The interface language and the home currency the dashboard, reports and advisor convert into. */
export function PreferencesPanel() {
  const { t } = useI18n();
  const headingId = useId();
  const { home, change } = useHomeCurrency();
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction(async (currency: string) => {
    setSaved(null);
    await change(currency);
    setSaved(currency);
  });
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('settings.preferences')}</h2>
      <div className="form-grid">
        <label>
          {t('language.label')}
          <LanguageSwitch />
        </label>
        {home === undefined ? (
          <Busy label={t('loading')} />
        ) : (
          <HomeCurrencySelect value={home} disabled={save.busy} onChange={(c) => void save.run(c)} />
        )}
      </div>
      <p className="hint">{t('currency.homeHint')}</p>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {saved && (
        <p role="status" className="notice notice-ok">
          {t('currency.homeSaved', { currency: saved })}
        </p>
      )}
    </article>
  );
}

import { useI18n } from '../i18n/index.ts';

/** How figures are shown: converted into the home currency, or each currency on its own. */
export type CurrencyMode = 'home' | 'each';

/**
 * The switch between figures in the home currency and the figures per currency (one click away).
 * Used by the dashboard and by every report screen.
 */
export function CurrencySwitch({
  home,
  mode,
  onMode,
}: {
  home: string;
  mode: CurrencyMode;
  onMode: (mode: CurrencyMode) => void;
}) {
  const { t } = useI18n();
  const options: { value: CurrencyMode; label: string }[] = [
    { value: 'home', label: t('currency.inHome', { currency: home }) },
    { value: 'each', label: t('currency.perCurrency') },
  ];
  return (
    <div className="segmented currency-switch" role="group" aria-label={t('currency.switchLabel')}>
      {options.map((o) => (
        <button key={o.value} type="button" aria-pressed={mode === o.value} onClick={() => onMode(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

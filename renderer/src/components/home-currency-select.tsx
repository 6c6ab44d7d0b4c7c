import { CURRENCY_CODES, currencyName } from '../currencies.ts';
import { useI18n } from '../i18n/index.ts';

/** Every ISO 4217 currency by code and name in the interface language ("CNY · 人民币"). */
export function HomeCurrencySelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (currency: string) => void;
  disabled?: boolean;
}) {
  const { t, language } = useI18n();
  return (
    <label>
      {t('currency.home')}
      <select value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code}>
            {code} · {currencyName(code, language)}
          </option>
        ))}
      </select>
    </label>
  );
}

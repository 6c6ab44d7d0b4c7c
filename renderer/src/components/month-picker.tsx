import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/index.ts';

/** A month's name in the interface language: "March", "3月". */
function monthName(month: number, language: 'en' | 'zh'): string {
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-US', { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, month - 1, 1)),
  );
}

/**
 * A month (YYYY-MM) chosen as a month's name and a year, both in the interface language; the
 * browser's own month field would speak the browser's language instead.
 */
export function MonthPicker({ value, onChange }: { value: string; onChange: (month: string) => void }) {
  const { t, language } = useI18n();
  const [year, month] = value.split('-') as [string, string];
  const [yearText, setYearText] = useState(year);
  useEffect(() => setYearText(year), [year]);
  return (
    <span className="month-picker">
      <select aria-label={t('budget.month')} value={month} onChange={(e) => onChange(`${year}-${e.target.value}`)}>
        {Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0')).map((m) => (
          <option key={m} value={m}>
            {monthName(Number(m), language)}
          </option>
        ))}
      </select>
      <input
        type="number"
        className="year-input"
        aria-label={t('budget.year')}
        min={1}
        max={9999}
        value={yearText}
        onChange={(e) => {
          setYearText(e.target.value);
          if (/^\d{4}$/.test(e.target.value) && e.target.value !== '0000') onChange(`${e.target.value}-${month}`);
        }}
      />
    </span>
  );
}

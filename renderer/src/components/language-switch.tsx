import { useI18n, type Language } from '../i18n/index.ts';

/** English or Chinese; the advisor's suggestions follow it. */
export function LanguageSwitch() {
  const { language, setLanguage, t } = useI18n();
  return (
    <select
      className="language-switch"
      aria-label={t('language.label')}
      value={language}
      onChange={(e) => setLanguage(e.target.value as Language)}
    >
      <option value="en">English</option>
      <option value="zh">中文</option>
    </select>
  );
}

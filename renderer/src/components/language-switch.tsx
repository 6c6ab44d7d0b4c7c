import { useI18n, type Language } from '../i18n/index.ts';

/** English or Chinese; the advisor's suggestions follow it. Named by the label around it, or by its own when `standalone`. */
export function LanguageSwitch({ standalone = false }: { standalone?: boolean }) {
  const { language, setLanguage, t } = useI18n();
  return (
    <select
      className="language-switch"
      aria-label={standalone ? t('language.label') : undefined}
      value={language}
      onChange={(e) => setLanguage(e.target.value as Language)}
    >
      <option value="en">English</option>
      <option value="zh">中文</option>
    </select>
  );
}

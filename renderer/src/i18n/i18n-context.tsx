import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Language, MessageKey, MessageValues } from './keys.ts';
import { translate } from './translate.ts';

export type Translate = (key: MessageKey, values?: MessageValues) => string;

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Translate;
}

const LANGUAGE_KEY = 'personal-ledger.language';

/** The language kept from last time, else the browser's. */
function initialLanguage(): Language {
  try {
    const kept = window.localStorage.getItem(LANGUAGE_KEY);
    if (kept === 'en' || kept === 'zh') return kept;
  } catch {
    // storage disabled: fall back to the browser's language
  }
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

const I18nContext = createContext<I18n | null>(null);

/** Holds the interface language (kept across restarts) and sets the document's `lang`. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      window.localStorage.setItem(LANGUAGE_KEY, next);
    } catch {
      // not kept across restarts; still switched now
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);
  const value = useMemo<I18n>(
    () => ({ language, setLanguage, t: (key, values) => translate(language, key, values) }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The one way a screen reads a text: `const { t } = useI18n(); t('accounts.new')`. */
export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

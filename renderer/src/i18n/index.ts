/** The interface texts in English and Chinese: what screens import to show a text. */
export { I18nProvider, useI18n, type Translate } from './i18n-context.tsx';
export type { Language, MessageKey } from './keys.ts';

import type { Translate } from './i18n/index.ts';

/** A wait in words ("15 minutes", "1 hour", "40 seconds"), rounded up to its largest whole unit. */
export function waitInWords(seconds: number, t: Translate): string {
  if (seconds >= 3600) {
    const n = Math.ceil(seconds / 3600);
    return n === 1 ? t('time.hour') : t('time.hours', { n });
  }
  if (seconds >= 60) {
    const n = Math.ceil(seconds / 60);
    return n === 1 ? t('time.minute') : t('time.minutes', { n });
  }
  const n = Math.max(1, Math.ceil(seconds));
  return n === 1 ? t('time.second') : t('time.seconds', { n });
}

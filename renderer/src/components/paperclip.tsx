import { useI18n } from '../i18n/index.ts';

/** A paperclip and the number of files a row's entry holds; nothing when it holds none. */
export function Paperclip({ count }: { count: number | undefined }) {
  const { t } = useI18n();
  if (!count) return null;
  return (
    <span className="paperclip" role="img" aria-label={t('attachments.count', { n: count })} data-testid="paperclip">
      {/* drawn rather than an emoji: a machine without an emoji font shows a box */}
      <svg aria-hidden="true" width="12" height="14" viewBox="0 0 12 14" fill="none" stroke="currentColor">
        <path d="M8.5 4.5v5a2.5 2.5 0 0 1-5 0V3a1.75 1.75 0 0 1 3.5 0v6.25a.75.75 0 0 1-1.5 0V4.5" strokeWidth="1.2" />
      </svg>
      <span aria-hidden="true">{count}</span>
    </span>
  );
}

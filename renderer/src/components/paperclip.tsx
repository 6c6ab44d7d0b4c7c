import { useI18n } from '../i18n/index.ts';

/** A paperclip and the number of files a row's entry holds; nothing when it holds none. */
export function Paperclip({ count }: { count: number | undefined }) {
  const { t } = useI18n();
  if (!count) return null;
  return (
    <span className="paperclip" role="img" aria-label={t('attachments.count', { n: count })} data-testid="paperclip">
      <span aria-hidden="true">📎{count}</span>
    </span>
  );
}

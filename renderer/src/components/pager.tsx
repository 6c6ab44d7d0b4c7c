import { useI18n } from '../i18n/index.ts';

/** Previous / next page of a server-paginated list. */
export function Pager({
  page,
  perPage,
  total,
  onPage,
  label,
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (total <= perPage && page === 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">{t('pager.position', { page, pages, total })}</span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

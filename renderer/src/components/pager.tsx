import { useI18n } from '../i18n/index.ts';

/**
 * Previous / next page of a server-paginated list. `exact` false: `total` is a lower bound (a
 * search counts its matches only so far past the page), so there may be more pages than it makes.
 */
export function Pager({
  page,
  perPage,
  total,
  exact = true,
  onPage,
  label,
}: {
  page: number;
  perPage: number;
  total: number;
  exact?: boolean;
  onPage: (page: number) => void;
  label: string;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (exact && total <= perPage && page === 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">{t(exact ? 'pager.position' : 'pager.positionAtLeast', { page, pages, total })}</span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={exact && page >= pages}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

import type { AccountDto, EntryFilter, EntryStatus, SourceType } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';

export type Filters = Omit<EntryFilter, 'page' | 'per_page'>;

const STATUSES: EntryStatus[] = ['draft', 'posted', 'void'];
const SOURCES: SourceType[] = ['manual', 'import', 'system', 'reconciliation'];

/** The register's filters: status, date range, account, source. */
export function EntryFilters({
  filters,
  accounts,
  onChange,
}: {
  filters: Filters;
  accounts: AccountDto[];
  onChange: (filters: Filters) => void;
}) {
  const { t } = useI18n();
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const any = Object.values(filters).some((v) => v !== undefined && v !== '');
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">{t('journal.filters')}</legend>
      <label>
        {t('entry.status')}
        <select
          value={filters.status ?? ''}
          onChange={(e) => set({ status: (e.target.value || undefined) as EntryStatus | undefined })}
        >
          <option value="">{t('filter.all')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('filter.from')}
        <input
          type="date"
          value={filters.start_date ?? ''}
          onChange={(e) => set({ start_date: e.target.value || undefined })}
        />
      </label>
      <label>
        {t('filter.to')}
        <input
          type="date"
          value={filters.end_date ?? ''}
          onChange={(e) => set({ end_date: e.target.value || undefined })}
        />
      </label>
      <label>
        {t('entry.account')}
        <select value={filters.account_id ?? ''} onChange={(e) => set({ account_id: e.target.value || undefined })}>
          <option value="">{t('filter.allAccounts')}</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('entry.source')}
        <select
          value={filters.source_type ?? ''}
          onChange={(e) => set({ source_type: (e.target.value || undefined) as SourceType | undefined })}
        >
          <option value="">{t('filter.all')}</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {t(`source.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {any && (
        <button type="button" className="link" onClick={() => onChange({})}>
          {t('filter.clear')}
        </button>
      )}
    </fieldset>
  );
}

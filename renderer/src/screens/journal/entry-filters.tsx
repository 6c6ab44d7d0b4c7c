import { useEffect, useId, useRef, useState } from 'react';
import type { AccountDto, EntryFilter, EntryStatus, SourceType } from '../../api/index.ts';
import { DateInput } from '../../components/date-input.tsx';
import { useI18n } from '../../i18n/index.ts';
import { AMOUNT_PATTERN, compareDecimals, plainAmount } from '../../../../server/contract/money.ts';

/** How long typing may pause before the search runs: one request per word, not per key. */
const SEARCH_PAUSE_MS = 300;

export type Filters = Omit<EntryFilter, 'page' | 'per_page'>;

const STATUSES: EntryStatus[] = ['draft', 'posted', 'void'];
const SOURCES: SourceType[] = ['manual', 'import', 'system', 'reconciliation', 'schedule'];

/**
 * The search box: what is typed goes to the filters once typing pauses, or at once on Enter. Its
 * hint says what the search looks in (CONTRACT §15).
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = window.setTimeout(() => search.current(text), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value]);
  const hintId = useId();
  return (
    <span className="search-box">
      <label className="search-field">
        {t('journal.search')}
        <input
          type="search"
          value={text}
          maxLength={200}
          placeholder={t('journal.searchPlaceholder')}
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onSearch(text);
            }
          }}
        />
      </label>
      <small id={hintId} className="hint">
        {t('journal.searchHint')}
      </small>
    </span>
  );
}

/**
 * A bound of the amount range: what is typed goes to the filters when the field is left or on
 * Enter, once it is a plain amount ("1,500" is read as 1500); anything else stays here, marked.
 */
function AmountBound({
  label,
  value,
  problem,
  onChange,
}: {
  label: string;
  value: string;
  problem: string | null;
  onChange: (amount: string | undefined) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const plain = plainAmount(text);
  const error = plain !== '' && !AMOUNT_PATTERN.test(plain) ? t('filter.amountHint') : problem;
  const commit = () => {
    if (plain === '') onChange(undefined);
    else if (AMOUNT_PATTERN.test(plain)) onChange(plain);
  };
  const hintId = useId();
  return (
    <span className="amount-bound">
      <label>
        {label}
        <input
          type="text"
          inputMode="decimal"
          value={text}
          maxLength={32}
          placeholder="0.00"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? hintId : undefined}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
      </label>
      {error && (
        <small id={hintId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </span>
  );
}

/** The register's filters: the search, status, date range, account, source. */
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
  const [range, setRange] = useState<{ min?: string | undefined; max?: string | undefined }>({
    min: filters.amount_min,
    max: filters.amount_max,
  });
  useEffect(
    () => setRange({ min: filters.amount_min, max: filters.amount_max }),
    [filters.amount_min, filters.amount_max],
  );
  const upsideDown = range.min !== undefined && range.max !== undefined && compareDecimals(range.min, range.max) > 0;
  // an upside-down range is kept here, marked, and the list keeps the last range that made sense
  const setBound = (next: typeof range) => {
    setRange(next);
    if (next.min === undefined || next.max === undefined || compareDecimals(next.min, next.max) <= 0)
      set({ amount_min: next.min, amount_max: next.max });
  };
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">{t('journal.filters')}</legend>
      <SearchBox value={filters.q ?? ''} onSearch={(q) => set({ q: q.trim() ? q : undefined })} />
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
      <DateInput
        label={t('filter.from')}
        value={filters.start_date ?? ''}
        onChange={(date) => set({ start_date: date || undefined })}
      />
      <DateInput
        label={t('filter.to')}
        value={filters.end_date ?? ''}
        onChange={(date) => set({ end_date: date || undefined })}
      />
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
      <AmountBound
        label={t('filter.amountMin')}
        value={filters.amount_min ?? ''}
        problem={upsideDown ? t('filter.amountUpsideDown') : null}
        onChange={(min) => setBound({ ...range, min })}
      />
      <AmountBound
        label={t('filter.amountMax')}
        value={filters.amount_max ?? ''}
        problem={null}
        onChange={(max) => setBound({ ...range, max })}
      />
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

import { useId, useState, type FormEvent } from 'react';
import type { CsvColumn, CsvMapping } from '../../api/index.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';

/** Every date layout the server reads (a Record, so that the compiler sees one missing). */
const DATE_FORMATS: Record<CsvMapping['date_format'], true> = {
  'YYYY-MM-DD': true,
  'YYYY/MM/DD': true,
  'YYYY.MM.DD': true,
  'YYYY:MM:DD': true,
  YYYYMMDD: true,
  'DD.MM.YYYY': true,
  'DD.MM.YY': true,
  'DD/MM/YYYY': true,
  'DD/MM/YY': true,
  'DD-MM-YYYY': true,
  'DD-MM-YY': true,
  'MM/DD/YYYY': true,
  'MM/DD/YY': true,
  'MM-DD-YYYY': true,
  'M/D/YYYY': true,
};
const DELIMITERS: Record<CsvMapping['delimiter'], MessageKey> = {
  ',': 'mapping.delimiters.comma',
  ';': 'mapping.delimiters.semicolon',
  '\t': 'mapping.delimiters.tab',
  '|': 'mapping.delimiters.pipe',
};

/** A column the form offers: what the mapping says, and what a person reads. */
interface ColumnOption {
  ref: CsvColumn;
  label: string;
}

/** A select's value for a column: its header text, or "#N" for a position (one select holds one kind). */
const keyOf = (ref: CsvColumn | null): string => (ref === null ? '' : typeof ref === 'number' ? `#${ref}` : ref);
const sameColumn = (a: CsvColumn | null, b: CsvColumn | null): boolean =>
  a !== null && b !== null && typeof a === typeof b && a === b;

/**
 * The column mapping of a CSV file: the server's guess, changeable. "Preview again" asks the server
 * to read the file with the changed mapping. With "the first row is data" the columns are named by
 * position (what the first row holds shows which is which).
 */
export function CsvMappingForm({
  mapping,
  columns,
  firstRow,
  busy,
  onApply,
}: {
  mapping: CsvMapping;
  /** the header names; null for a file read without a header */
  columns: string[] | null;
  /** the cells of the first data row */
  firstRow: string[] | null;
  busy: boolean;
  onApply: (mapping: CsvMapping) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [draft, setDraft] = useState<CsvMapping>(mapping);
  const width = Math.max(columns?.length ?? 0, firstRow?.length ?? 0);
  const named: ColumnOption[] =
    draft.has_header && columns
      ? columns.filter((c) => c.trim() !== '').map((c) => ({ ref: c, label: c }))
      : Array.from({ length: width }, (_, i) => {
          const sample = firstRow?.[i]?.trim();
          return {
            ref: i,
            label: sample
              ? t('mapping.columnWithSample', { n: i + 1, sample: sample.slice(0, 40) })
              : t('mapping.column', { n: i + 1 }),
          };
        });
  const first = named[0]?.ref ?? null;
  const split = draft.amount_column === null;
  const set = (patch: Partial<CsvMapping>) => setDraft((d) => ({ ...d, ...patch }));
  /** "The first row is data": header names become positions (positions stay valid with a header). */
  const setFirstRowIsData = (isData: boolean) => {
    const position = (ref: CsvColumn | null): CsvColumn | null => {
      if (ref === null || typeof ref === 'number' || !columns) return ref;
      const at = columns.indexOf(ref);
      return at === -1 ? ref : at;
    };
    setDraft((d) => ({
      ...d,
      has_header: !isData,
      date_column: position(d.date_column) ?? d.date_column,
      description_columns: d.description_columns.map((c) => position(c) ?? c),
      amount_column: position(d.amount_column),
      debit_column: position(d.debit_column),
      credit_column: position(d.credit_column),
      external_id_column: position(d.external_id_column),
      status_column: position(d.status_column),
      direction_column: position(d.direction_column),
      fee_column: position(d.fee_column),
      account_column: position(d.account_column),
      currency_column: position(d.currency_column),
      balance_column: position(d.balance_column ?? null),
    }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };

  return (
    <form className="panel mapping-form" aria-labelledby={headingId} onSubmit={submit}>
      <h3 id={headingId}>{t('mapping.title')}</h3>
      <p className="hint">{t('mapping.hint')}</p>
      <div className="form-grid">
        <ColumnSelect
          label={t('mapping.date')}
          columns={named}
          value={draft.date_column}
          onChange={(v) => set({ date_column: v ?? draft.date_column })}
        />
        <label>
          {t('mapping.dateFormat')}
          <select
            value={draft.date_format}
            onChange={(e) => set({ date_format: e.target.value as CsvMapping['date_format'] })}
          >
            {Object.keys(DATE_FORMATS).map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <fieldset className="span-2 checkbox-group">
          <legend>{t('mapping.description')}</legend>
          {named.map((c) => (
            <label key={keyOf(c.ref)} className="checkbox">
              <input
                type="checkbox"
                checked={draft.description_columns.some((x) => sameColumn(x, c.ref))}
                onChange={(e) =>
                  set({
                    description_columns: e.target.checked
                      ? [...draft.description_columns, c.ref]
                      : draft.description_columns.filter((x) => !sameColumn(x, c.ref)),
                  })
                }
              />
              {c.label}
            </label>
          ))}
        </fieldset>
        <fieldset className="span-2 radio-group">
          <legend>{t('mapping.amounts')}</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="amount-mode"
              checked={!split}
              onChange={() =>
                set({
                  amount_column: draft.debit_column ?? draft.credit_column ?? first,
                  debit_column: null,
                  credit_column: null,
                })
              }
            />
            {t('mapping.oneColumn')}
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="amount-mode"
              checked={split}
              onChange={() =>
                set({
                  debit_column: draft.amount_column ?? first,
                  credit_column: draft.amount_column ?? first,
                  amount_column: null,
                  direction_column: null,
                })
              }
            />
            {t('mapping.twoColumns')}
          </label>
        </fieldset>
        {split ? (
          <>
            <ColumnSelect
              label={t('mapping.debit')}
              columns={named}
              value={draft.debit_column}
              onChange={(v) => set({ debit_column: v })}
            />
            <ColumnSelect
              label={t('mapping.credit')}
              columns={named}
              value={draft.credit_column}
              onChange={(v) => set({ credit_column: v })}
            />
          </>
        ) : (
          <ColumnSelect
            label={t('mapping.amount')}
            columns={named}
            value={draft.amount_column}
            onChange={(v) => set({ amount_column: v })}
          />
        )}
        <label>
          {t('mapping.decimalMark')}
          <select
            value={draft.decimal_mark}
            onChange={(e) => set({ decimal_mark: e.target.value as CsvMapping['decimal_mark'] })}
          >
            <option value=".">. (1234.56)</option>
            <option value=",">, (1234,56)</option>
          </select>
        </label>
        <label>
          {t('mapping.delimiter')}
          <select
            value={draft.delimiter}
            onChange={(e) => set({ delimiter: e.target.value as CsvMapping['delimiter'] })}
          >
            {Object.entries(DELIMITERS).map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox span-2">
          <input type="checkbox" checked={!draft.has_header} onChange={(e) => setFirstRowIsData(e.target.checked)} />
          {t('mapping.firstRowIsData')}
        </label>
        <label>
          {draft.has_header ? t('mapping.headerRow') : t('mapping.dataRow')}
          <input
            type="number"
            min={0}
            max={1000}
            value={draft.header_row}
            onChange={(e) => set({ header_row: Math.max(0, Number.parseInt(e.target.value || '0', 10)) })}
          />
        </label>
        <ColumnSelect
          optional
          label={t('mapping.externalId')}
          columns={named}
          value={draft.external_id_column}
          onChange={(v) => set({ external_id_column: v })}
        />
        <ColumnSelect
          optional
          label={t('mapping.balance')}
          columns={named}
          value={draft.balance_column ?? null}
          onChange={(v) => set({ balance_column: v })}
        />
      </div>
      <div className="form-actions">
        <button type="submit" disabled={busy || draft.description_columns.length === 0}>
          {t('mapping.apply')}
        </button>
        <button type="button" className="link" onClick={() => setDraft(mapping)}>
          {t('mapping.reset')}
        </button>
      </div>
    </form>
  );
}

/** A choice of one of the file's columns; an optional one may be "(none)". */
function ColumnSelect({
  label,
  columns,
  value,
  onChange,
  optional = false,
}: {
  label: string;
  columns: ColumnOption[];
  value: CsvColumn | null;
  onChange: (column: CsvColumn | null) => void;
  optional?: boolean;
}) {
  const { t } = useI18n();
  const known = value === null || columns.some((c) => sameColumn(c.ref, value));
  return (
    <label>
      {label}
      <select
        value={known ? keyOf(value) : ''}
        onChange={(e) => onChange(columns.find((c) => keyOf(c.ref) === e.target.value)?.ref ?? null)}
        required={!optional}
      >
        {(optional || !known || value === null) && (
          <option value="">{optional ? t('mapping.none') : t('mapping.choose')}</option>
        )}
        {columns.map((c) => (
          <option key={keyOf(c.ref)} value={keyOf(c.ref)}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

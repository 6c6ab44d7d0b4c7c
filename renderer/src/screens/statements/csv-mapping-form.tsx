import { useId, useState, type FormEvent } from 'react';
import type { CsvMapping } from '../../api/index.ts';
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

/**
 * The column mapping of a CSV file: the server's guess, changeable. "Preview again" asks the server
 * to read the file with the changed mapping.
 */
export function CsvMappingForm({
  mapping,
  columns,
  busy,
  onApply,
}: {
  mapping: CsvMapping;
  columns: string[];
  busy: boolean;
  onApply: (mapping: CsvMapping) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [draft, setDraft] = useState<CsvMapping>(mapping);
  const named = columns.filter((c) => c.trim() !== '');
  const split = draft.amount_column === null;
  const set = (patch: Partial<CsvMapping>) => setDraft((d) => ({ ...d, ...patch }));

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
            <label key={c} className="checkbox">
              <input
                type="checkbox"
                checked={draft.description_columns.includes(c)}
                onChange={(e) =>
                  set({
                    description_columns: e.target.checked
                      ? [...draft.description_columns, c]
                      : draft.description_columns.filter((x) => x !== c),
                  })
                }
              />
              {c}
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
                  amount_column: draft.debit_column ?? draft.credit_column ?? named[0] ?? null,
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
                  debit_column: draft.amount_column ?? named[0] ?? null,
                  credit_column: draft.amount_column ?? named[0] ?? null,
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
        <label>
          {t('mapping.headerRow')}
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
  columns: string[];
  value: string | null;
  onChange: (column: string | null) => void;
  optional?: boolean;
}) {
  const { t } = useI18n();
  return (
    <label>
      {label}
      <select
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
        required={!optional}
      >
        {(optional || value === null) && <option value="">{optional ? t('mapping.none') : t('mapping.choose')}</option>}
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

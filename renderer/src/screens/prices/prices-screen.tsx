import { useId, useState, type FormEvent } from 'react';
import {
  deletePrice,
  importPrices,
  latestRates,
  listPrices,
  savePrice,
  type PriceImportResult,
} from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { FieldError, fieldProblem, invalidField } from '../../components/field-error.tsx';
import { CsvImportPanel } from '../../components/csv-import-panel.tsx';
import { Pager } from '../../components/pager.tsx';
import { today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';

/** Codes offered while typing a currency (any ISO 4217 code is accepted). */
const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CHF', 'CAD', 'AUD', 'HKD', 'SGD', 'SEK', 'NOK'];
const PER_PAGE = 20;

function CurrencyInput({
  label,
  value,
  onChange,
  listId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  listId: string;
}) {
  return (
    <label>
      {label}
      <input
        type="text"
        required
        list={listId}
        maxLength={3}
        pattern="[A-Za-z]{3}"
        autoComplete="off"
        className="currency-input"
        value={value}
        onChange={(e) => onChange(e.target.value.toUpperCase())}
      />
    </label>
  );
}

function PriceForm({ listId, onSaved }: { listId: string; onSaved: () => void }) {
  const { t } = useI18n();
  const headingId = useId();
  const [date, setDate] = useState(today());
  const [from, setFrom] = useState('EUR');
  const [to, setTo] = useState('USD');
  const [rate, setRate] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction(async () => {
    setSaved(null);
    const price = await savePrice({ date, from, to, rate: rate.trim() });
    setSaved(t('prices.saved', { from: price.from, to: price.to, rate: price.rate, date: price.date }));
    setRate('');
    onSaved();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('prices.add')}</h2>
      <form className="form-grid" aria-labelledby={headingId} onSubmit={submit}>
        <DateInput label={t('prices.date')} required value={date} onChange={setDate} />
        <CurrencyInput label={t('prices.from')} value={from} onChange={setFrom} listId={listId} />
        <CurrencyInput label={t('prices.to')} value={to} onChange={setTo} listId={listId} />
        <label>
          {t('prices.rate')}
          <input
            type="text"
            required
            inputMode="decimal"
            className="amount-input"
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            {...invalidField(fieldProblem(save.error, 'rate', t), `${headingId}-rate`)}
          />
          <FieldError id={`${headingId}-rate`} problem={fieldProblem(save.error, 'rate', t)} />
        </label>
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={save.busy || !rate.trim()}>
            {t('prices.save')}
          </button>
        </div>
      </form>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {saved && (
        <p role="status" className="notice notice-ok">
          {saved}
        </p>
      )}
    </article>
  );
}

function PriceImportPanel({ onImported }: { onImported: () => void }) {
  const { t } = useI18n();
  const upload = async (file: File) => {
    const result: PriceImportResult = await importPrices(file);
    const counts = { created: result.created, replaced: result.replaced };
    return result.security_prices > 0
      ? t('prices.importedSecurities', { ...counts, securities: result.security_prices })
      : t('prices.imported', counts);
  };
  return (
    <CsvImportPanel
      title={t('prices.import')}
      hint={t('prices.importHint')}
      fileLabel={t('prices.file')}
      buttonLabel={t('prices.importButton')}
      busyLabel={t('prices.importing')}
      primary
      upload={upload}
      onImported={onImported}
    />
  );
}

/** Exchange rates: the latest rate of every pair, entering and importing rates, all of them. */
export function PricesScreen() {
  const { t } = useI18n();
  const listId = useId();
  const [version, setVersion] = useState(0);
  const [page, setPage] = useState(1);
  const changed = () => setVersion((v) => v + 1);
  const latest = useLoader(() => latestRates(), [version]);
  const all = useLoader(() => listPrices(page, PER_PAGE), [version, page]);
  const remove = useAction(async (id: string) => {
    await deletePrice(id);
    changed();
  });

  return (
    <section className="screen" aria-labelledby="prices-title">
      <div className="screen-head">
        <h1 id="prices-title">{t('prices.title')}</h1>
      </div>
      <p className="hint">{t('prices.intro')}</p>
      <datalist id={listId}>
        {COMMON_CURRENCIES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <article className="panel" aria-labelledby="latest-rates-title">
        <h2 id="latest-rates-title">{t('prices.latest')}</h2>
        <ErrorNotice error={latest.error} />
        {latest.data && (
          <DataTable
            className="compact"
            label={t('prices.latest')}
            rows={latest.data.items}
            rowKey={(p) => p.id}
            empty={<EmptyState title={t('prices.none')} />}
            columns={[
              { header: t('prices.pair'), cell: (p) => `${p.from} → ${p.to}` },
              {
                header: t('prices.rate'),
                numeric: true,
                cell: (p) => (
                  <span data-testid={`latest-${p.from}-${p.to}`}>
                    {t('prices.oneUnit', { from: p.from, to: p.to, rate: p.rate })}
                  </span>
                ),
              },
              { header: t('prices.date'), cell: (p) => p.date },
            ]}
          />
        )}
      </article>
      <div className="two-columns">
        <PriceForm listId={listId} onSaved={changed} />
        <PriceImportPanel onImported={changed} />
      </div>
      <article className="panel" aria-labelledby="all-rates-title">
        <h2 id="all-rates-title">{t('prices.all')}</h2>
        <ErrorNotice error={all.error ?? remove.error} />
        {all.loading && !all.data && <Busy label={t('loading')} />}
        {all.data && all.data.items.length > 0 && (
          <DataTable
            className="compact"
            label={t('prices.all')}
            rows={all.data.items}
            rowKey={(p) => p.id}
            columns={[
              { header: t('prices.date'), cell: (p) => p.date },
              { header: t('prices.pair'), cell: (p) => `${p.from} → ${p.to}` },
              { header: t('prices.rate'), numeric: true, cell: (p) => <Amount value={p.rate} /> },
              {
                header: t('accounts.actions'),
                hiddenHeader: true,
                cell: (p) => (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('prices.delete', { pair: `${p.from}/${p.to}`, date: p.date })}
                    disabled={remove.busy}
                    onClick={() => void remove.run(p.id)}
                  >
                    ×
                  </button>
                ),
              },
            ]}
          />
        )}
        {all.data && (
          <Pager page={page} perPage={PER_PAGE} total={all.data.total} onPage={setPage} label={t('prices.all')} />
        )}
      </article>
    </section>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { createSecurity, setSecurityPrice, type SecurityDto } from '../../api/index.ts';
import { DateInput } from '../../components/date-input.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { DecimalField } from './investment-fields.tsx';

export function SecurityPanel({
  onChanged,
  securities,
}: {
  onChanged: () => void;
  securities: readonly SecurityDto[];
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [symbol, setSymbol] = useState('');
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [priceOf, setPriceOf] = useState('');
  const [priceDate, setPriceDate] = useState(today());
  const [price, setPrice] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const declare = useAction(async () => {
    const s = await createSecurity({ symbol: symbol.trim().toUpperCase(), name: name.trim(), currency });
    setSaid(t('investments.declared', { symbol: s.symbol }));
    setSymbol('');
    setName('');
    onChanged();
  });
  const savePrice = useAction(async () => {
    await setSecurityPrice(priceOf, { date: priceDate, price: price.trim() });
    setSaid(t('investments.priceSaved', { price: price.trim(), date: priceDate }));
    setPrice('');
    onChanged();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void declare.run();
  };
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('investments.securities')}</h2>
      <form className="form-grid" aria-label={t('investments.declare')} onSubmit={submit}>
        <label>
          {t('investments.symbol')}
          <input type="text" required maxLength={24} value={symbol} onChange={(e) => setSymbol(e.target.value)} />
        </label>
        <label>
          {t('investments.name')}
          <input type="text" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('investments.currency')}
          <input
            type="text"
            required
            maxLength={3}
            className="currency-input"
            value={currency}
            onChange={(e) => setCurrency(e.target.value.toUpperCase())}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={declare.busy || !symbol.trim() || !name.trim()}>
            {t('investments.declare')}
          </button>
        </div>
      </form>
      {securities.length > 0 && (
        <form
          className="form-grid"
          aria-label={t('investments.enterPrice')}
          onSubmit={(e) => {
            e.preventDefault();
            void savePrice.run();
          }}
        >
          <label>
            {t('investments.security')}
            <select required value={priceOf} onChange={(e) => setPriceOf(e.target.value)}>
              <option value="">—</option>
              {securities.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.symbol}
                </option>
              ))}
            </select>
          </label>
          <DateInput label={t('investments.date')} required value={priceDate} onChange={setPriceDate} />
          <DecimalField label={t('investments.price')} required value={price} onChange={setPrice} />
          <div className="form-actions">
            <button type="submit" disabled={savePrice.busy || !priceOf || !price.trim()}>
              {t('investments.enterPrice')}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice
        error={declare.error ?? savePrice.error}
        onDismiss={declare.error ? declare.clearError : savePrice.clearError}
      />
      {said && (
        <p role="status" className="notice notice-ok">
          {said}
        </p>
      )}
    </article>
  );
}

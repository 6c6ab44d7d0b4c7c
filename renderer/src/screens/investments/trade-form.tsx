import { useId, useState } from 'react';
import {
  bookTrade,
  openLots,
  previewTrade,
  type AccountDto,
  type SecurityDto,
  type TradeBody,
  type TradePreview,
} from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { AccountSelect, DecimalField } from './investment-fields.tsx';

type Kind = TradeBody['kind'];
const KINDS: readonly Kind[] = ['buy', 'sell', 'dividend', 'split'];

export function TradeForm({
  accounts,
  securities,
  onBooked,
}: {
  accounts: readonly AccountDto[];
  securities: readonly SecurityDto[];
  onBooked: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [kind, setKind] = useState<Kind>('buy');
  const [date, setDate] = useState(today());
  const [account, setAccount] = useState('');
  const [security, setSecurity] = useState('');
  const [units, setUnits] = useState('');
  const [price, setPrice] = useState('');
  const [fees, setFees] = useState('');
  const [amount, setAmount] = useState('');
  const [income, setIncome] = useState('');
  const [reinvestUnits, setReinvestUnits] = useState('');
  const [ratio, setRatio] = useState('2:1');
  const [chooseLots, setChooseLots] = useState(false);
  const [lotUnits, setLotUnits] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<TradePreview | null>(null);
  const [booked, setBooked] = useState<string | null>(null);
  const lots = useLoader(
    () =>
      kind === 'sell' && chooseLots && account && security
        ? openLots(account, security)
        : Promise.resolve({ items: [] }),
    [kind, chooseLots, account, security],
  );

  const body = (): TradeBody => {
    const base = { date, account_id: account, security_id: security };
    const fee = fees.trim() ? { fees: fees.trim() } : {};
    if (kind === 'buy') return { kind, ...base, units: units.trim(), price: price.trim(), ...fee };
    if (kind === 'sell') {
      const named = Object.entries(lotUnits)
        .filter(([, u]) => u.trim() !== '')
        .map(([lot_id, u]) => ({ lot_id, units: u.trim() }));
      return {
        kind,
        ...base,
        units: units.trim(),
        price: price.trim(),
        ...fee,
        ...(chooseLots && named.length > 0 ? { lots: named } : {}),
      };
    }
    if (kind === 'dividend')
      return {
        kind,
        ...base,
        amount: amount.trim(),
        income_account_id: income,
        ...(reinvestUnits.trim() ? { reinvest: { units: reinvestUnits.trim(), price: price.trim() } } : {}),
      };
    return { kind, ...base, ratio: ratio.trim() };
  };
  const changed =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setShown(null);
      setBooked(null);
    };
  const preview = useAction(async () => setShown(await previewTrade(body())));
  const book = useAction(async () => {
    const done = await bookTrade(body());
    setBooked(t('investments.booked', { gain: done.realized_gain, currency: done.currency }));
    setShown(null);
    setUnits('');
    setLotUnits({});
    onBooked();
  });
  const assets = accounts.filter((a) => a.type === 'ASSET');
  const incomes = accounts.filter((a) => a.type === 'INCOME');
  const trades = kind === 'buy' || kind === 'sell';

  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('investments.trade')}</h2>
      <form
        className="form-grid"
        aria-labelledby={headingId}
        onSubmit={(e) => {
          e.preventDefault();
          void preview.run();
        }}
      >
        <label>
          {t('investments.kind')}
          <select value={kind} onChange={(e) => changed(setKind)(e.target.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`investments.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <DateInput label={t('investments.date')} required value={date} onChange={changed(setDate)} />
        <AccountSelect
          label={t('investments.account')}
          accounts={assets}
          value={account}
          onChange={changed(setAccount)}
        />
        <label>
          {t('investments.security')}
          <select required value={security} onChange={(e) => changed(setSecurity)(e.target.value)}>
            <option value="">—</option>
            {securities.map((s) => (
              <option key={s.id} value={s.id}>
                {s.symbol} · {s.name}
              </option>
            ))}
          </select>
        </label>
        {trades && (
          <>
            <DecimalField label={t('investments.units')} required value={units} onChange={changed(setUnits)} />
            <DecimalField label={t('investments.pricePerUnit')} required value={price} onChange={changed(setPrice)} />
            <DecimalField label={t('investments.fees')} value={fees} onChange={changed(setFees)} />
          </>
        )}
        {kind === 'sell' && (
          <label className="checkbox span-2">
            <input type="checkbox" checked={chooseLots} onChange={(e) => changed(setChooseLots)(e.target.checked)} />
            {t('investments.chooseLots')}
          </label>
        )}
        {kind === 'sell' && chooseLots && (
          <fieldset className="span-2">
            <legend>{t('investments.lots')}</legend>
            {lots.loading && <Busy label={t('loading')} />}
            {lots.data?.items.map((lot) => (
              <label key={lot.id}>
                {t('investments.lotLabel', { date: lot.bought_on, units: lot.units, cost: lot.unit_cost })}
                <input
                  type="text"
                  inputMode="decimal"
                  value={lotUnits[lot.id] ?? ''}
                  onChange={(e) => changed(setLotUnits)({ ...lotUnits, [lot.id]: e.target.value })}
                />
              </label>
            ))}
          </fieldset>
        )}
        {kind === 'dividend' && (
          <>
            <DecimalField label={t('investments.amount')} required value={amount} onChange={changed(setAmount)} />
            <AccountSelect
              label={t('investments.incomeAccount')}
              accounts={incomes}
              value={income}
              onChange={changed(setIncome)}
            />
            <DecimalField
              label={t('investments.reinvestUnits')}
              value={reinvestUnits}
              onChange={changed(setReinvestUnits)}
            />
            <DecimalField label={t('investments.pricePerUnit')} value={price} onChange={changed(setPrice)} />
          </>
        )}
        {kind === 'split' && (
          <label>
            {t('investments.ratio')}
            <input type="text" required value={ratio} onChange={(e) => changed(setRatio)(e.target.value)} />
          </label>
        )}
        <div className="form-actions span-2">
          <button type="submit" disabled={preview.busy || !account || !security}>
            {t('investments.preview')}
          </button>
          <button type="button" className="primary" disabled={!shown || book.busy} onClick={() => void book.run()}>
            {t('investments.book')}
          </button>
        </div>
      </form>
      <ErrorNotice
        error={preview.error ?? book.error}
        onDismiss={preview.error ? preview.clearError : book.clearError}
      />
      {shown && (
        <section aria-label={t('investments.previewTitle')} className="trade-preview">
          <dl className="facts">
            <dt>{t('investments.costBasis')}</dt>
            <dd data-testid="preview-cost">
              <Amount value={shown.cost_basis} currency={shown.currency} />
            </dd>
            {shown.kind === 'sell' && (
              <>
                <dt>{t('investments.proceeds')}</dt>
                <dd>
                  <Amount value={shown.proceeds} currency={shown.currency} />
                </dd>
                <dt>{t('investments.gain')}</dt>
                <dd data-testid="preview-gain">
                  <Amount value={shown.realized_gain} currency={shown.currency} />
                </dd>
              </>
            )}
          </dl>
          {shown.reductions.length > 0 && (
            <table className="compact" aria-label={t('investments.lotsReduced')}>
              <thead>
                <tr>
                  <th>{t('investments.boughtOn')}</th>
                  <th className="numeric">{t('investments.units')}</th>
                  <th className="numeric">{t('investments.costBasis')}</th>
                  <th className="numeric">{t('investments.gain')}</th>
                  <th>{t('investments.term')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.reductions.map((r) => (
                  <tr key={r.lot_id}>
                    <td>{r.bought_on}</td>
                    <td className="numeric">{r.units}</td>
                    <td className="numeric">
                      <Amount value={r.cost_basis} />
                    </td>
                    <td className="numeric">
                      <Amount value={r.gain} />
                    </td>
                    <td>{r.long_term ? t('investments.longTermShort') : t('investments.shortTermShort')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {booked && (
        <p role="status" className="notice notice-ok">
          {booked}
        </p>
      )}
    </article>
  );
}

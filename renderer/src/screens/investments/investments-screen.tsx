import { Fragment, useId, useState, type FormEvent } from 'react';
import {
  allAccounts,
  bookTrade,
  createSecurity,
  importSecurityPrices,
  holdings,
  openLots,
  previewTrade,
  saveInvestmentSettings,
  setSecurityPrice,
  listSecurities,
  type AccountDto,
  type HoldingDto,
  type SecurityDto,
  type TradeBody,
  type TradePreview,
} from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { CsvImportPanel } from '../../components/csv-import-panel.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { today } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';

type Kind = TradeBody['kind'];
const KINDS: readonly Kind[] = ['buy', 'sell', 'dividend', 'split'];

function AccountSelect({
  label,
  accounts,
  value,
  onChange,
  optional,
}: {
  label: string;
  accounts: readonly AccountDto[];
  value: string;
  onChange: (id: string) => void;
  optional?: string;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} required={!optional}>
        <option value="">{optional ?? '—'}</option>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.currency})
          </option>
        ))}
      </select>
    </label>
  );
}

/** A decimal typed as text (units, prices, amounts): the server reads it exactly. */
function DecimalField({
  label,
  value,
  onChange,
  required = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  return (
    <label>
      {label}
      <input
        type="text"
        inputMode="decimal"
        required={required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

function SecurityPanel({ onChanged, securities }: { onChanged: () => void; securities: readonly SecurityDto[] }) {
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

function PriceImportPanel({ onImported }: { onImported: () => void }) {
  const { t } = useI18n();
  const upload = async (file: File) =>
    t('investments.pricesImported', { count: (await importSecurityPrices(file)).imported });
  return (
    <CsvImportPanel
      title={t('investments.importPrices')}
      hint={t('investments.importHint')}
      fileLabel={t('investments.file')}
      buttonLabel={t('investments.importButton')}
      busyLabel={t('loading')}
      upload={upload}
      onImported={onImported}
    />
  );
}

function SettingsPanel({ accounts }: { accounts: readonly AccountDto[] }) {
  const { t } = useI18n();
  const headingId = useId();
  const [account, setAccount] = useState('');
  const [method, setMethod] = useState<'FIFO' | 'LIFO' | 'AVERAGE'>('FIFO');
  const [shortTerm, setShortTerm] = useState('');
  const [longTerm, setLongTerm] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await saveInvestmentSettings(account, {
      booking_method: method,
      short_term_account_id: shortTerm,
      ...(longTerm ? { long_term_account_id: longTerm } : {}),
    });
    setSaved(true);
  });
  const assets = accounts.filter((a) => a.type === 'ASSET');
  const incomes = accounts.filter((a) => a.type === 'INCOME');
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('investments.settings')}</h2>
      <p className="hint">{t('investments.settingsHint')}</p>
      <form
        className="form-grid"
        aria-labelledby={headingId}
        onSubmit={(e) => {
          e.preventDefault();
          void save.run();
        }}
      >
        <AccountSelect label={t('investments.account')} accounts={assets} value={account} onChange={setAccount} />
        <label>
          {t('investments.method')}
          <select value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
            <option value="FIFO">{t('investments.methods.FIFO')}</option>
            <option value="LIFO">{t('investments.methods.LIFO')}</option>
            <option value="AVERAGE">{t('investments.methods.AVERAGE')}</option>
          </select>
        </label>
        <AccountSelect
          label={t('investments.shortTerm')}
          accounts={incomes}
          value={shortTerm}
          onChange={setShortTerm}
        />
        <AccountSelect
          label={t('investments.longTerm')}
          accounts={incomes}
          value={longTerm}
          onChange={setLongTerm}
          optional={t('investments.sameAsShort')}
        />
        <div className="form-actions span-2">
          <button type="submit" disabled={save.busy || !account || !shortTerm}>
            {t('investments.saveSettings')}
          </button>
        </div>
      </form>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {saved && (
        <p role="status" className="notice notice-ok">
          {t('investments.settingsSaved')}
        </p>
      )}
    </article>
  );
}

function TradeForm({
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

function HoldingRow({ h }: { h: HoldingDto }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const lots = useLoader(
    () => (open ? openLots(h.account_id, h.security_id) : Promise.resolve({ items: [] })),
    [open, h.account_id, h.security_id, h.units],
  );
  const name = `${h.symbol} · ${h.account_name}`;
  return (
    <Fragment>
      <tr data-testid={`holding-${h.symbol}`}>
        <td>
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            aria-label={t(open ? 'investments.hideLots' : 'investments.showLots', { name })}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>{' '}
          {h.account_name}
        </td>
        <td>{h.symbol}</td>
        <td className="numeric">{h.units}</td>
        <td className="numeric">
          <Amount value={h.cost_basis} currency={h.currency} />
        </td>
        <td className="numeric">{h.price ?? '—'}</td>
        <td className="numeric" data-testid={`market-${h.symbol}`}>
          {h.market_value ? <Amount value={h.market_value} currency={h.currency} /> : t('investments.noPrice')}
        </td>
        <td className="numeric" data-testid={`unrealized-${h.symbol}`}>
          {h.unrealized_gain ? <Amount value={h.unrealized_gain} /> : '—'}
        </td>
        <td className="numeric">{h.return_percent ? `${h.return_percent} %` : '—'}</td>
        <td className="numeric" data-testid={`realized-${h.symbol}`}>
          <Amount value={h.realized_gain} />
        </td>
      </tr>
      {open &&
        lots.data?.items.map((lot) => (
          <tr key={lot.id} className="sub-row">
            <td colSpan={2}>{t('investments.lotOf', { date: lot.bought_on })}</td>
            <td className="numeric">{lot.units}</td>
            <td className="numeric">
              <Amount value={lot.cost_basis} currency={h.currency} />
            </td>
            <td className="numeric">{lot.unit_cost}</td>
            <td colSpan={4} />
          </tr>
        ))}
    </Fragment>
  );
}

/** Investments: securities, trades with their gain shown before booking, and the holdings at market with their lots. */
export function InvestmentsScreen() {
  const { t } = useI18n();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const accounts = useLoader(() => allAccounts(), []);
  const securities = useLoader(() => listSecurities(), [version]);
  const held = useLoader(() => holdings(), [version]);
  const active = (accounts.data ?? []).filter((a) => a.is_active);
  return (
    <section className="screen" aria-labelledby="investments-title">
      <div className="screen-head">
        <h1 id="investments-title">{t('investments.title')}</h1>
      </div>
      <p className="hint">{t('investments.intro')}</p>
      <article className="panel" aria-labelledby="holdings-title">
        <h2 id="holdings-title">{t('investments.holdings')}</h2>
        <ErrorNotice error={held.error ?? accounts.error ?? securities.error} />
        {held.data && held.data.items.length === 0 && <EmptyState title={t('investments.none')} />}
        {held.data && held.data.items.length > 0 && (
          <div className="table-wrap">
            <table className="data-table compact" aria-label={t('investments.holdings')}>
              <thead>
                <tr>
                  <th>{t('investments.account')}</th>
                  <th>{t('investments.security')}</th>
                  <th className="numeric">{t('investments.units')}</th>
                  <th className="numeric">{t('investments.costBasis')}</th>
                  <th className="numeric">{t('investments.price')}</th>
                  <th className="numeric">{t('investments.marketValue')}</th>
                  <th className="numeric">{t('investments.unrealized')}</th>
                  <th className="numeric">{t('investments.return')}</th>
                  <th className="numeric">{t('investments.realized')}</th>
                </tr>
              </thead>
              <tbody>
                {held.data.items.map((h) => (
                  <HoldingRow key={`${h.account_id}-${h.security_id}`} h={h} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </article>
      <TradeForm accounts={active} securities={securities.data?.items ?? []} onBooked={changed} />
      <div className="two-columns">
        <SecurityPanel securities={securities.data?.items ?? []} onChanged={changed} />
        <SettingsPanel accounts={active} />
      </div>
      <PriceImportPanel onImported={changed} />
    </section>
  );
}

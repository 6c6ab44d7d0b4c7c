import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { savePrice } from '../../api/index.ts';
import { AmountInput } from '../../components/amount-input.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { rateBetween } from '../../entry-lines.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useConversion } from '../../hooks/use-conversion.ts';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal } from '../../money.ts';
import type { Converted } from './booking-choice.ts';

/**
 * A bank line's amount (or a part of it) as it is booked into an account of another currency,
 * shown before it is booked: the rate table's conversion at the line's date, with the rate and its
 * date; the person may type the amount the bank really charged instead (the rate it implies is
 * shown). Without a rate for that date it says so and asks for one (saved to the rate table).
 */
export function ExchangeAmount({
  amount,
  from,
  to,
  date,
  value,
  onChange,
  label,
}: {
  /** in `from`, as typed */
  amount: string;
  from: string;
  to: string;
  date: string;
  value: Converted;
  onChange: (value: Converted) => void;
  /** the amount field's accessible name */
  label: string;
}) {
  const { t } = useI18n();
  const conversion = useConversion(amount, from, to, date);
  const [rate, setRate] = useState('');
  const answer = conversion.data;
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  // the rate table's amount fills the field until the person types their own
  useEffect(() => {
    const { value: now, onChange: change } = latest.current;
    if (now.edited || answer === undefined || answer === null) return;
    const text = answer === 'missing' ? '' : groupDecimal(answer.converted_amount);
    if (text !== now.text) change({ text, edited: false });
  }, [answer, value.edited]);

  const saveRate = useAction(async () => {
    await savePrice({ date, from, to, rate: rate.trim() });
    setRate('');
    conversion.reload();
  });
  const rateKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (rate.trim()) void saveRate.run();
    }
  };
  const implied = value.edited ? rateBetween(amount, from, value.text, to) : null;

  return (
    <div className="exchange-amount">
      <label>
        {t('exchange.amountIn', { currency: to })}
        <AmountInput
          className="amount-input"
          currency={to}
          aria-label={label}
          value={value.text}
          onChange={(text) => onChange({ text, edited: true })}
        />
      </label>
      {answer && answer !== 'missing' && !value.edited && (
        <span className="hint" data-testid="exchange-rate">
          {t('exchange.atRate', { from, to, rate: answer.rate, date: answer.price.date })}
        </span>
      )}
      {implied && (
        <span className="hint" data-testid="exchange-rate">
          {t('currency.rate', { from, to, rate: implied })}{' '}
          <button type="button" className="link" onClick={() => onChange({ text: '', edited: false })}>
            {t('exchange.useTable')}
          </button>
        </span>
      )}
      {answer === 'missing' && (
        <div className="inline-form missing-rate" role="group" aria-label={t('exchange.enterRate')}>
          <span className="notice notice-warn" role="note">
            {t('exchange.missing', { from, to, date })}
          </span>
          <label>
            {t('exchange.rateLabel', { from, to })}
            <input inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} onKeyDown={rateKey} />
          </label>
          <button type="button" disabled={!rate.trim() || saveRate.busy} onClick={() => void saveRate.run()}>
            {t('exchange.saveRate')}
          </button>
        </div>
      )}
      <ErrorNotice error={saveRate.error ?? conversion.error} onDismiss={saveRate.clearError} />
    </div>
  );
}

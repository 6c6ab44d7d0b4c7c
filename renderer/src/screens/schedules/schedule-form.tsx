import { useId, useState, type FormEvent } from 'react';
import type { AccountDto, ScheduleBody, ScheduleDto } from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { AmountInput } from '../../components/amount-input.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { plainAmount } from '../../money.ts';
import { today } from '../../dates.ts';
import { useI18n } from '../../i18n/index.ts';
import { fieldProblem } from '../../components/field-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';

const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
type Frequency = (typeof FREQUENCIES)[number];

/** A schedule of two lines (an amount paid from one account to another, no exchange) can be edited here. */
function simpleLines(schedule: ScheduleDto | undefined) {
  if (!schedule) return { from: '', to: '', amount: '' };
  const [a, b] = schedule.lines;
  if (schedule.lines.length !== 2 || !a || !b || a.direction === b.direction || a.cost || b.cost) return undefined;
  const [debit, credit] = a.direction === 'DEBIT' ? [a, b] : [b, a];
  return { from: credit.account_id, to: debit.account_id, amount: debit.amount };
}

/** Creates or changes a schedule: name, amount, the two accounts, how often, from when to when. */
export function ScheduleForm({
  accounts,
  schedule,
  busy,
  error,
  onSave,
  onCancel,
}: {
  accounts: readonly AccountDto[];
  schedule?: ScheduleDto;
  busy: boolean;
  /** the last save's refusal, whose field errors are shown on the fields */
  error?: unknown;
  onSave: (body: ScheduleBody) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const simple = simpleLines(schedule);
  const [name, setName] = useState(schedule?.name ?? '');
  const [amount, setAmount] = useState(simple?.amount ?? '');
  const [from, setFrom] = useState(simple?.from ?? '');
  const [to, setTo] = useState(simple?.to ?? '');
  const [frequency, setFrequency] = useState<Frequency>(schedule?.frequency ?? 'monthly');
  const [every, setEvery] = useState(String(schedule?.interval ?? 1));
  const [start, setStart] = useState(schedule?.start_date ?? today());
  const [end, setEnd] = useState(schedule?.end_date ?? '');
  const [autoPost, setAutoPost] = useState(schedule?.auto_post ?? false);
  const active = accounts.filter((a) => a.is_active);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines = simple
      ? [
          { account_id: to, direction: 'DEBIT' as const, amount: plainAmount(amount) },
          { account_id: from, direction: 'CREDIT' as const, amount: plainAmount(amount) },
        ]
      : schedule!.lines.map((l) => ({
          account_id: l.account_id,
          direction: l.direction,
          amount: l.amount,
          currency: l.currency,
          cost: l.cost,
        }));
    onSave({
      name: name.trim(),
      memo: schedule?.memo ?? null,
      lines,
      frequency,
      interval: Number(every) || 1,
      start_date: start,
      end_date: end || null,
      auto_post: autoPost,
    });
  };

  return (
    <form className="panel schedule-form" aria-labelledby={headingId} onSubmit={submit}>
      <h2 id={headingId}>{schedule ? t('schedules.editTitle', { name: schedule.name }) : t('schedules.new')}</h2>
      <div className="form-grid">
        <TextField
          label={t('schedules.name')}
          autoFocus
          required
          limit={TEXT_LIMITS.scheduleName}
          value={name}
          onChange={setName}
          problem={fieldProblem(error, 'name', t)}
        />
        {simple ? (
          <>
            <label>
              {t('schedules.amount')}
              <AmountInput
                required
                className="amount-input"
                currency={active.find((a) => a.id === (from || to))?.currency}
                value={amount}
                onChange={setAmount}
              />
            </label>
            <div className="field">
              <AccountPicker accounts={active} value={from} onChange={setFrom} label={t('schedules.payFrom')} />
            </div>
            <div className="field">
              <AccountPicker accounts={active} value={to} onChange={setTo} label={t('schedules.payTo')} />
            </div>
          </>
        ) : (
          <p className="muted">{t('schedules.keptLines', { count: schedule!.lines.length })}</p>
        )}
        <label>
          {t('schedules.frequency')}
          <select value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
            {FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {t(`schedules.freq.${f}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('schedules.interval')}
          <input type="number" min={1} max={1000} value={every} onChange={(e) => setEvery(e.target.value)} />
        </label>
        <DateInput label={t('schedules.start')} required value={start} onChange={setStart} />
        <DateInput label={t('schedules.end')} value={end} onChange={setEnd} />
        <label className="checkbox">
          <input type="checkbox" checked={autoPost} onChange={(e) => setAutoPost(e.target.checked)} />
          {t('schedules.autoPost')}
        </label>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || (simple !== undefined && (!from || !to))}>
          {t('action.save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('action.cancel')}
        </button>
      </div>
    </form>
  );
}

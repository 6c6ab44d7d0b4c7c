import { useState } from 'react';
import { bookReconcileAdjustment, setOpeningBalance, type AccountDto, type JournalEntryDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';
import { isNegative } from '../../money.ts';

type Kind = 'opening' | 'adjustment';

interface DifferenceBookingProps {
  account: AccountDto;
  /** every account the difference may be booked against */
  accounts: readonly AccountDto[];
  /** the reconciliation's difference, signed as the account's balance */
  difference: string;
  /** the date an opening balance starts at: the day before the account's earliest line shown */
  openingDate: string;
  statementDate: string;
  onBooked: (entry: JournalEntryDto) => void;
}

const DEBIT_NORMAL = new Set(['ASSET', 'EXPENSE']);

/**
 * The two ways a first reconciliation's difference closes: the account's opening balance (against
 * an equity account, before its first line) or an adjustment against an account the user picks.
 * Each shows its entry, lines and all, with its date and account editable, before it is booked.
 */
export function DifferenceBooking({
  account,
  accounts,
  difference,
  openingDate,
  statementDate,
  onBooked,
}: DifferenceBookingProps) {
  const { t } = useI18n();
  const [kind, setKind] = useState<Kind | null>(null);
  const [date, setDate] = useState('');
  const [offset, setOffset] = useState('');
  const choices = accounts.filter(
    (a) => a.id !== account.id && a.is_active && (kind !== 'opening' || a.type === 'EQUITY'),
  );
  const open = (next: Kind) => {
    setKind(next);
    const equity = accounts.filter((a) => a.type === 'EQUITY' && a.is_active);
    const named = equity.find((a) => /opening|期初/i.test(a.name)) ?? equity[0];
    setDate(next === 'opening' ? openingDate : statementDate);
    setOffset(next === 'opening' ? (named?.id ?? '') : '');
  };
  const book = useAction(async () => {
    const memo = t(kind === 'opening' ? 'reconcile.openingMemo' : 'reconcile.adjustmentMemo');
    const body = { entry_date: date, amount: difference, offset_account_id: offset, memo };
    const entry =
      kind === 'opening' ? await setOpeningBalance(account.id, body) : await bookReconcileAdjustment(account.id, body);
    setKind(null);
    onBooked(entry);
  });

  const amount = isNegative(difference) ? difference.slice(1) : difference;
  const raises = !isNegative(difference);
  const accountDebit = raises === DEBIT_NORMAL.has(account.type);
  const other = accounts.find((a) => a.id === offset);
  const rows = [
    { name: account.name, debit: accountDebit },
    { name: other ? accountLabel(other.name, t) : t('mapping.choose'), debit: !accountDebit },
  ];

  return (
    <div className="stack difference-booking">
      <div className="form-actions">
        <button type="button" onClick={() => open('opening')} aria-pressed={kind === 'opening'}>
          {t('reconcile.setOpening')}
        </button>
        <button type="button" onClick={() => open('adjustment')} aria-pressed={kind === 'adjustment'}>
          {t('reconcile.bookAdjustment')}
        </button>
      </div>
      {kind && (
        <section
          className="panel"
          aria-label={t(kind === 'opening' ? 'reconcile.openingPreview' : 'reconcile.adjustmentPreview')}
        >
          <p className="hint">{t(kind === 'opening' ? 'reconcile.openingHint' : 'reconcile.adjustmentHint')}</p>
          <div className="inline-form">
            <DateInput label={t('reconcile.entryDate')} required value={date} onChange={setDate} />
            <label>
              {t(kind === 'opening' ? 'reconcile.equityAccount' : 'reconcile.adjustmentAccount')}
              <select value={offset} onChange={(e) => setOffset(e.target.value)}>
                <option value="">{t('mapping.choose')}</option>
                {choices.map((a) => (
                  <option key={a.id} value={a.id}>
                    {accountLabel(a.name, t)} ({a.currency})
                  </option>
                ))}
              </select>
            </label>
          </div>
          <table className="compact" aria-label={t('reconcile.previewLines')}>
            <thead>
              <tr>
                <th scope="col">{t('entry.account')}</th>
                <th scope="col" className="numeric">
                  {t('entry.debit')}
                </th>
                <th scope="col" className="numeric">
                  {t('entry.credit')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <td>{r.name}</td>
                  <td className="numeric">{r.debit && <Amount value={amount} currency={account.currency} />}</td>
                  <td className="numeric">{!r.debit && <Amount value={amount} currency={account.currency} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={!offset || !/^\d{4}-\d{2}-\d{2}$/.test(date) || book.busy}
              onClick={() => void book.run()}
            >
              {t('reconcile.bookIt')}
            </button>
            <button type="button" onClick={() => setKind(null)}>
              {t('action.cancel')}
            </button>
          </div>
          <ErrorNotice error={book.error} onDismiss={book.clearError} />
        </section>
      )}
    </div>
  );
}

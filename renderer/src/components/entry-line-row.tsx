import type { KeyboardEvent, Ref } from 'react';
import type { AccountDto } from '../api/index.ts';
import { AccountPicker } from './account-picker.tsx';
import { AmountInput } from './amount-input.tsx';
import { useI18n, type MessageKey } from '../i18n/index.ts';
import { statedRate, type EditableLine, type LineProblem } from '../entry-lines.ts';
import type { LineField } from '../hooks/use-line-focus.ts';

/** Where a line's cost came from: the rate table's price of `date`, or no rate from `from` to `to` on or before it. */
export type CostSource =
  { date: string; missing?: undefined } | { missing: true; from: string; to: string; date: string };

const PROBLEM_TEXT: Record<LineProblem, MessageKey> = {
  'no-account': 'editor.problem.noAccount',
  'no-amount': 'editor.problem.noAmount',
  both: 'editor.problem.both',
  format: 'editor.problem.format',
  digits: 'editor.problem.digits',
  zero: 'editor.problem.zero',
  'too-large': 'editor.problem.tooLarge',
  inactive: 'editor.problem.inactive',
  cost: 'currency.problem.cost',
  'cost-same': 'currency.problem.same',
};

/**
 * One line of the entry editor: the account search, debit and credit (Enter goes to the next line),
 * what is wrong with the line, and its remove button (out of the Tab order). Tab from a filled
 * amount goes to the next line's account. A line in another currency can state what it cost (an
 * exchange): the ⇄ button (or @ in an amount, as ledger writes a price) opens the cost on a row of
 * its own under the line, which shows the rate the cost implies; the button is out of the Tab order.
 */
export function EntryLineRow({
  line,
  n,
  account,
  accounts,
  problem,
  hintId,
  fieldRef,
  onChange,
  onChosen,
  onNext,
  onTabNext,
  onRemove,
  onOpenCost,
  onCostChange,
  costSource,
}: {
  line: EditableLine;
  /** the line's number, from 1 */
  n: number;
  /** the chosen account */
  account: AccountDto | undefined;
  /** the accounts the search offers */
  accounts: AccountDto[];
  problem: LineProblem | undefined;
  /** the balance hint the amounts are described by */
  hintId: string;
  fieldRef: (key: number, field: LineField) => Ref<HTMLInputElement>;
  onChange: (patch: Partial<EditableLine>) => void;
  onChosen: (accountId: string) => void;
  onNext: () => void;
  /** Tab from a filled amount: moves to the next line's account when there is one (true), else leaves Tab be */
  onTabNext: () => boolean;
  onRemove: () => void;
  /** opens the line's cost (an exchange) and moves the focus to it */
  onOpenCost: () => void;
  onCostChange: (patch: Partial<NonNullable<EditableLine['cost']>>) => void;
  /** where the cost was prefilled from, if it was looked up */
  costSource?: CostSource | undefined;
}) {
  const { t } = useI18n();
  const amountKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      onNext();
    } else if (event.key === 'Tab' && !event.shiftKey && event.currentTarget.value.trim() && onTabNext()) {
      event.preventDefault();
    } else if (event.key === '@' && account && !line.cost) {
      event.preventDefault();
      onOpenCost();
    }
  };
  const amountInput = (side: 'debit' | 'credit') => (
    <AmountInput
      inputRef={fieldRef(line.key, side)}
      className="amount-input"
      currency={account?.currency}
      aria-label={t(side === 'debit' ? 'editor.debitOfLine' : 'editor.creditOfLine', { n })}
      aria-describedby={hintId}
      value={line[side]}
      onChange={(value) => onChange({ [side]: value })}
      onKeyDown={amountKeyDown}
    />
  );
  const rate = account ? statedRate(line, account) : null;
  return (
    <>
      <tr className={problem ? 'line-problem' : undefined}>
        <td>
          <AccountPicker
            accounts={accounts}
            value={line.accountId}
            onChange={(id) => onChange({ accountId: id })}
            onChosen={onChosen}
            label={t('editor.accountOfLine', { n })}
            inputRef={fieldRef(line.key, 'account')}
          />
          {problem && (
            <span className="line-error" role="note">
              {t(PROBLEM_TEXT[problem])}
            </span>
          )}
        </td>
        <td className="num">{amountInput('debit')}</td>
        <td className="num">
          {amountInput('credit')}
          {account && <span className="line-currency">{account.currency}</span>}
          {account && !line.cost && (
            <button
              type="button"
              className="icon-button exchange-button"
              tabIndex={-1}
              aria-keyshortcuts="@"
              aria-label={t('currency.addCost', { n })}
              title={t('currency.addCost', { n })}
              onClick={onOpenCost}
            >
              ⇄
            </button>
          )}
        </td>
        <td>
          <button
            type="button"
            className="icon-button"
            tabIndex={-1}
            aria-label={t('editor.removeLine', { n })}
            onClick={onRemove}
          >
            ×
          </button>
        </td>
      </tr>
      {line.cost && (
        <tr className="cost-row">
          <td colSpan={4}>
            <div className="cost-fields">
              <span className="cost-label">{t('currency.cost')}</span>
              <input
                ref={fieldRef(line.key, 'cost')}
                className="amount-input"
                inputMode="decimal"
                aria-label={t('currency.costAmount', { n })}
                aria-describedby={hintId}
                value={line.cost.amount}
                onChange={(e) => onCostChange({ amount: e.target.value })}
                onKeyDown={amountKeyDown}
              />
              <input
                className="currency-input"
                maxLength={3}
                aria-label={t('currency.costCurrency', { n })}
                value={line.cost.currency}
                onChange={(e) => onCostChange({ currency: e.target.value.toUpperCase() })}
              />
              {account && rate && (
                <span className="stated-rate" data-testid={`rate-of-line-${n}`}>
                  {t('currency.rate', { from: account.currency, to: line.cost.currency, rate })}
                </span>
              )}
              {costSource && (
                <span className="hint" role="note" data-testid={`cost-source-of-line-${n}`}>
                  {costSource.missing
                    ? t('editor.costNoRate', { from: costSource.from, to: costSource.to, date: costSource.date })
                    : t('editor.costFromTable', { date: costSource.date })}
                </span>
              )}
              <button
                type="button"
                className="icon-button"
                aria-label={t('currency.removeCost', { n })}
                onClick={() => onChange({ cost: null })}
              >
                ×
              </button>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

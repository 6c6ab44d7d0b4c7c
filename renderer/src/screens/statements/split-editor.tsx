import type { AccountDto, UnmatchedItemDto } from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { AmountInput } from '../../components/amount-input.tsx';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal } from '../../money.ts';
import { restText, splitPart, splitRest, type SplitPart } from './booking-choice.ts';
import { ExchangeAmount } from './exchange-amount.tsx';

/**
 * A bank line split across accounts: a part per row (account, amount in the line's currency, and
 * for an account in another currency its amount there), what is left to book or too much, exactly.
 * A new part starts with what is left, so the last one is one Enter away.
 */
export function SplitEditor({
  tx,
  accounts,
  parts,
  onChange,
}: {
  tx: UnmatchedItemDto['transaction'];
  accounts: AccountDto[];
  parts: SplitPart[];
  onChange: (parts: SplitPart[]) => void;
}) {
  const { t } = useI18n();
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const rest = splitRest(tx.amount, tx.currency, parts);
  const change = (index: number, patch: Partial<SplitPart>) =>
    onChange(parts.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const add = () =>
    onChange([...parts, splitPart('', rest !== null && rest > 0n ? groupDecimal(restText(rest, tx.currency)) : '')]);
  const remove = (index: number) => onChange(parts.filter((_, i) => i !== index));

  return (
    <div className="split-editor" role="group" aria-label={t('split.group', { name: tx.description })}>
      {parts.map((part, index) => {
        const n = index + 1;
        const account = byId.get(part.accountId);
        return (
          <div className="split-part inline-form" key={part.key}>
            <AccountPicker
              accounts={accounts}
              value={part.accountId}
              onChange={(accountId) => change(index, { accountId })}
              label={t('split.accountOf', { n })}
            />
            <label>
              <span className="visually-hidden">{t('split.amountOf', { n })}</span>
              <AmountInput
                className="amount-input"
                currency={tx.currency}
                aria-label={t('split.amountOf', { n })}
                value={part.amount}
                onChange={(amount) => change(index, { amount })}
              />
            </label>
            <span className="line-currency">{tx.currency}</span>
            {account && account.currency !== tx.currency && (
              <ExchangeAmount
                amount={part.amount}
                from={tx.currency}
                to={account.currency}
                date={tx.date}
                value={part.converted}
                onChange={(converted) => change(index, { converted })}
                label={t('split.convertedOf', { n, currency: account.currency })}
              />
            )}
            <button
              type="button"
              className="icon-button"
              aria-label={t('split.remove', { n })}
              disabled={parts.length <= 2}
              onClick={() => remove(index)}
            >
              ×
            </button>
          </div>
        );
      })}
      <div className="inline-form">
        <button type="button" onClick={add}>
          {t('split.add')}
        </button>
        <span role="status" className={rest === 0n ? 'hint' : 'notice notice-warn'} data-testid="split-rest">
          {rest === null
            ? t('split.incomplete')
            : rest === 0n
              ? t('split.exact', { amount: groupDecimal(tx.amount), currency: tx.currency })
              : t(rest > 0n ? 'split.left' : 'split.over', {
                  amount: groupDecimal(restText(rest, tx.currency)),
                  currency: tx.currency,
                })}
        </span>
      </div>
    </div>
  );
}

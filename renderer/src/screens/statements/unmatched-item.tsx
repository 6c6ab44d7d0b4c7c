import { useId, useState, type FormEvent } from 'react';
import { createEntryForBankTransaction, type AccountDto, type UnmatchedItemDto } from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { Amount } from '../../components/amount.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';

/**
 * A bank transaction nothing matched: pick the counter account (a suggested one is a click) and
 * create the posted entry for it in one step. An entry with no bank line is only shown.
 */
export function UnmatchedItem({
  item,
  accounts,
  onCreated,
}: {
  item: UnmatchedItemDto;
  accounts: AccountDto[];
  /** the entry was booked: what the bank line said, and the account it was booked to */
  onCreated: (booked: { description: string; account: string; amount: string }) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const tx = item.transaction;
  const [accountId, setAccountId] = useState(item.suggested_accounts[0]?.id ?? '');
  const [memo, setMemo] = useState(tx.description);
  const create = useAction(async () => {
    await createEntryForBankTransaction(tx.id, accountId, memo);
    onCreated({
      description: tx.description,
      account: accounts.find((a) => a.id === accountId)?.name ?? '',
      amount: tx.amount,
    });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (accountId) void create.run();
  };

  return (
    <article className="unmatched-item" aria-labelledby={headingId} data-unmatched={tx.description}>
      <header className="match-head">
        <h3 id={headingId}>{tx.description}</h3>
        <span className="nowrap muted">{tx.date}</span>
        <span>
          <Amount value={tx.amount} />{' '}
          <span className="muted">{tx.type === 'debit' ? t('bank.out') : t('bank.in')}</span>
        </span>
      </header>
      {item.type === 'journal_entry' ? (
        <p className="hint">{t('unmatched.entryHint')}</p>
      ) : (
        <form className="unmatched-form" onSubmit={submit}>
          {item.suggested_accounts.length > 0 && (
            <div className="chips" role="group" aria-label={t('unmatched.suggested')}>
              <span className="muted">{t('unmatched.suggested')}:</span>
              {item.suggested_accounts.map((s) => (
                <button
                  key={s.id}
                  type="button"
                  className={s.id === accountId ? 'chip chip-on' : 'chip'}
                  aria-pressed={s.id === accountId}
                  onClick={() => setAccountId(s.id)}
                >
                  {s.name} <span className="muted">{Math.round(s.confidence * 100)}%</span>
                </button>
              ))}
            </div>
          )}
          <div className="inline-form">
            <AccountPicker
              accounts={accounts}
              value={accountId}
              onChange={setAccountId}
              label={t('unmatched.counterAccount', { name: tx.description })}
            />
            <label className="grow">
              <span className="visually-hidden">{t('entry.memo')}</span>
              <input
                aria-label={t('unmatched.memoFor', { name: tx.description })}
                maxLength={500}
                value={memo}
                onChange={(e) => setMemo(e.target.value)}
              />
            </label>
            <button
              type="submit"
              className="primary"
              disabled={!accountId || create.busy}
              aria-label={t('unmatched.createLabel', { name: tx.description })}
            >
              {t('unmatched.create')}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={create.error} onDismiss={create.clearError} />
    </article>
  );
}

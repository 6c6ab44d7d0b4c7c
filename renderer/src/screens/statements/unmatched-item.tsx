import { useId, useState, type FormEvent } from 'react';
import {
  createEntryForBankTransaction,
  ruleDraftFrom,
  type AccountDto,
  type UnmatchedItemDto,
} from '../../api/index.ts';
import { AccountPicker } from '../../components/account-picker.tsx';
import { Amount } from '../../components/amount.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { RuleForm, type RuleStart } from './rule-form.tsx';

/** What the review list keeps for a bank line while a person works on it. */
export interface LineChoice {
  accountId: string;
  memo: string;
  selected: boolean;
}

/** A bank line booked on its own: what it said, its amount, and the account it was booked to. */
export interface BookedLine {
  description: string;
  account: string;
  amount: string;
}

/** The rule "make a rule from this" starts from: the line's payee words, its direction, the account chosen. */
export function ruleStartFrom(description: string, type: 'debit' | 'credit', accountId: string): RuleStart {
  const draft = ruleDraftFrom(description);
  return { name: draft?.name ?? description.slice(0, 100), op: 'contains', value: draft?.value ?? '', type, accountId };
}

/**
 * A bank transaction nothing matched: the account chosen for it (a rule's or a sure suggestion's,
 * else none), the suggestions as chips, the memo; ticked to be booked with others, or booked on
 * its own; and a rule made from it in one click. An entry with no bank line is only shown.
 */
export function UnmatchedItem({
  item,
  accounts,
  choice,
  onChoice,
  onCreated,
  onRuleSaved,
}: {
  item: UnmatchedItemDto;
  accounts: AccountDto[];
  choice: LineChoice;
  onChoice: (choice: LineChoice) => void;
  /** the entry was booked: what the bank line said, and the account it was booked to */
  onCreated: (booked: BookedLine) => void;
  onRuleSaved: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const tx = item.transaction;
  const [ruling, setRuling] = useState(false);
  const create = useAction(async () => {
    await createEntryForBankTransaction(tx.id, choice.accountId, choice.memo);
    onCreated({
      description: tx.description,
      account: accounts.find((a) => a.id === choice.accountId)?.name ?? '',
      amount: tx.amount,
    });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice.accountId) void create.run();
  };

  return (
    <article className="unmatched-item" aria-labelledby={headingId} data-unmatched={tx.description}>
      <header className="match-head">
        {item.type === 'bank_transaction' && (
          <input
            type="checkbox"
            aria-label={t('unmatched.select', { name: tx.description })}
            checked={choice.selected}
            disabled={!choice.accountId}
            onChange={(e) => onChoice({ ...choice, selected: e.target.checked })}
          />
        )}
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
                  className={s.id === choice.accountId ? 'chip chip-on' : 'chip'}
                  aria-pressed={s.id === choice.accountId}
                  onClick={() => onChoice({ ...choice, accountId: s.id })}
                >
                  {s.name}{' '}
                  <span className="muted">
                    {s.rule_id ? t('unmatched.ruleSuggestion') : `${Math.round(s.confidence * 100)}%`}
                  </span>
                </button>
              ))}
            </div>
          )}
          {!choice.accountId && <p className="hint">{t('unmatched.chooseAccount')}</p>}
          <div className="inline-form">
            <AccountPicker
              accounts={accounts}
              value={choice.accountId}
              onChange={(accountId) => onChoice({ ...choice, accountId })}
              label={t('unmatched.counterAccount', { name: tx.description })}
            />
            <label className="grow">
              <span className="visually-hidden">{t('entry.memo')}</span>
              <input
                aria-label={t('unmatched.memoFor', { name: tx.description })}
                maxLength={500}
                value={choice.memo}
                onChange={(e) => onChoice({ ...choice, memo: e.target.value })}
              />
            </label>
            <button
              type="submit"
              className="primary"
              disabled={!choice.accountId || create.busy}
              aria-label={t('unmatched.createLabel', { name: tx.description })}
            >
              {t('unmatched.create')}
            </button>
            <button
              type="button"
              aria-label={t('unmatched.makeRuleLabel', { name: tx.description })}
              aria-expanded={ruling}
              onClick={() => setRuling((r) => !r)}
            >
              {t('unmatched.makeRule')}
            </button>
          </div>
        </form>
      )}
      {ruling && (
        <RuleForm
          accounts={accounts}
          start={ruleStartFrom(tx.description, tx.type, choice.accountId)}
          onSaved={() => {
            setRuling(false);
            onRuleSaved();
          }}
          onCancel={() => setRuling(false)}
        />
      )}
      <ErrorNotice error={create.error} onDismiss={create.clearError} />
    </article>
  );
}

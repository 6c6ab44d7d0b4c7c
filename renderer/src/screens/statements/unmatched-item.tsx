import { useId, useMemo, useState, type FormEvent } from 'react';
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
import { AttachmentsPanel } from '../../components/attachments-panel.tsx';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal } from '../../money.ts';
import { bookingOf, NOT_CONVERTED, splitPart, type LineChoice } from './booking-choice.ts';
import { ExchangeAmount } from './exchange-amount.tsx';
import { RuleForm, type RuleStart } from './rule-form.tsx';
import { SplitEditor } from './split-editor.tsx';
import { TransferOffer } from './transfer-offer.tsx';

/** A bank line booked on its own: what it said, its amount, and the account it was booked to. */
export interface BookedLine {
  description: string;
  account: string;
  amount: string;
  /** booked as a transfer with `account` (one entry matched to both lines) */
  transfer?: boolean;
}

/** The rule "make a rule from this" starts from: the line's payee words, its direction, the account chosen. */
export function ruleStartFrom(description: string, type: 'debit' | 'credit', accountId: string): RuleStart {
  const draft = ruleDraftFrom(description);
  return { name: draft?.name ?? description.slice(0, 100), op: 'contains', value: draft?.value ?? '', type, accountId };
}

/**
 * A bank transaction nothing matched: the other side of a transfer where one is found, the account
 * chosen for it (a rule's or a sure suggestion's, else none) or its split into parts, the
 * suggestions as chips, the memo; for an account in another currency, the amount there before it
 * is booked; ticked to be booked with others, or booked on its own; and a rule made from it in one
 * click. An entry with no bank line is only shown.
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
  const [filesOpen, setFilesOpen] = useState(false);
  const byId = useMemo(() => new Map(accounts.map((a) => [a.id, a])), [accounts]);
  const booking = bookingOf(choice, tx, byId);
  const chosen = byId.get(choice.accountId);
  const create = useAction(async () => {
    if (!booking) return;
    await createEntryForBankTransaction(tx.id, booking);
    const names = choice.splits ? choice.splits.map((p) => byId.get(p.accountId)?.name ?? '') : [chosen?.name ?? ''];
    onCreated({ description: tx.description, account: names.join(', '), amount: tx.amount });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (booking) void create.run();
  };
  const split = (on: boolean) =>
    onChoice({
      ...choice,
      selected: false,
      splits: on ? [splitPart(choice.accountId, groupDecimal(tx.amount)), splitPart()] : null,
    });

  return (
    <article className="unmatched-item" aria-labelledby={headingId} data-unmatched={tx.description}>
      <header className="match-head">
        {item.type === 'bank_transaction' && (
          <input
            type="checkbox"
            aria-label={t('unmatched.select', { name: tx.description })}
            checked={choice.selected && booking !== null}
            disabled={booking === null}
            onChange={(e) => onChoice({ ...choice, selected: e.target.checked })}
          />
        )}
        <h3 id={headingId}>{tx.description}</h3>
        <span className="nowrap muted" data-testid="unmatched-account">
          {item.account_name}
        </span>
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
          {item.transfer && (
            <TransferOffer
              item={item}
              onBooked={({ account, amount }) =>
                onCreated({ description: tx.description, account, amount, transfer: true })
              }
            />
          )}
          {item.suggested_accounts.length > 0 && (
            <div className="chips" role="group" aria-label={t('unmatched.suggested')}>
              <span className="muted">{t('unmatched.suggested')}:</span>
              {item.suggested_accounts.map((s) => (
                <button
                  key={s.id}
                  type="button"
                  className={s.id === choice.accountId ? 'chip chip-on' : 'chip'}
                  aria-pressed={s.id === choice.accountId}
                  onClick={() => onChoice({ ...choice, accountId: s.id, converted: NOT_CONVERTED, splits: null })}
                >
                  {s.name}{' '}
                  <span className="muted">
                    {s.rule_id ? t('unmatched.ruleSuggestion') : `${Math.round(s.confidence * 100)}%`}
                  </span>
                </button>
              ))}
            </div>
          )}
          {!choice.accountId && !choice.splits && !item.transfer && (
            <p className="hint">{t('unmatched.chooseAccount')}</p>
          )}
          {choice.splits && (
            <SplitEditor
              tx={tx}
              accounts={accounts}
              parts={choice.splits}
              onChange={(splits) => onChoice({ ...choice, splits })}
            />
          )}
          <div className="inline-form">
            {!choice.splits && (
              <AccountPicker
                accounts={accounts}
                value={choice.accountId}
                onChange={(accountId) => onChoice({ ...choice, accountId, converted: NOT_CONVERTED })}
                label={t('unmatched.counterAccount', { name: tx.description })}
              />
            )}
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
              disabled={!booking || create.busy}
              aria-label={t('unmatched.createLabel', { name: tx.description })}
            >
              {t('unmatched.create')}
            </button>
            <button
              type="button"
              aria-label={t(choice.splits ? 'split.closeLabel' : 'split.openLabel', { name: tx.description })}
              aria-expanded={choice.splits !== null}
              onClick={() => split(choice.splits === null)}
            >
              {t(choice.splits ? 'split.close' : 'split.open')}
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
          {!choice.splits && chosen && chosen.currency !== tx.currency && (
            <ExchangeAmount
              amount={tx.amount}
              from={tx.currency}
              to={chosen.currency}
              date={tx.date}
              value={choice.converted}
              onChange={(converted) => onChoice({ ...choice, converted })}
              label={t('exchange.amountFor', { name: tx.description, currency: chosen.currency })}
            />
          )}
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
      {item.type === 'bank_transaction' && (
        <details className="unmatched-files" onToggle={(e) => setFilesOpen(e.currentTarget.open)}>
          <summary>{t('attachments.title')}</summary>
          {/* asked for only when opened: a list of a hundred lines makes no hundred requests */}
          {filesOpen && <AttachmentsPanel target={{ kind: 'bank_transaction', id: tx.id }} label={tx.description} />}
        </details>
      )}
    </article>
  );
}

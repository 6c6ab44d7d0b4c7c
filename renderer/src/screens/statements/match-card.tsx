import { useId, useState, type FormEvent } from 'react';
import { acceptMatch, getEntry, rejectMatch, type AccountDto, type MatchDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { ScoreBars, scoreTone } from '../../components/score-bars.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { RuleForm, type RuleStart } from './rule-form.tsx';
import { ruleStartFrom } from './unmatched-item.tsx';

/**
 * A match: the bank line and the entry side by side, the score; under review, accept or reject it;
 * made automatically, undo it. Either way a rule can be made from it in one click (the entry's
 * counter account, the line's payee words and direction).
 */
export function MatchCard({
  match,
  currency,
  accounts,
  automatic = false,
  onDecided,
}: {
  match: MatchDto;
  currency?: string | undefined;
  accounts: AccountDto[];
  automatic?: boolean;
  onDecided: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [ruleStart, setRuleStart] = useState<RuleStart | null>(null);
  const makeRule = useAction(async () => {
    const entry = match.journal_entries[0] ? await getEntry(match.journal_entries[0].id) : undefined;
    const counter = entry?.lines.find((l) => l.account_id !== match.bank_transaction.account_id)?.account_id ?? '';
    setRuleStart(ruleStartFrom(match.bank_transaction.description, match.bank_transaction.type, counter));
  });
  const undo = useAction(async () => {
    await rejectMatch(match.id, match.version, '');
    onDecided();
  });
  const accept = useAction(async () => {
    await acceptMatch(match.id, match.version);
    onDecided();
  });
  const reject = useAction(async () => {
    await rejectMatch(match.id, match.version, reason);
    onDecided();
  });
  const bank = match.bank_transaction;
  const submitReject = (event: FormEvent) => {
    event.preventDefault();
    void reject.run();
  };
  const busy = accept.busy || reject.busy || undo.busy;
  const ruleButton = (
    <button
      type="button"
      disabled={makeRule.busy}
      aria-label={t('unmatched.makeRuleLabel', { name: bank.description })}
      onClick={() => (ruleStart ? setRuleStart(null) : void makeRule.run())}
    >
      {t('unmatched.makeRule')}
    </button>
  );

  return (
    <article className="match-card" aria-labelledby={headingId} data-match={bank.description}>
      <header className="match-head">
        <h3 id={headingId}>{bank.description}</h3>
        <span
          className={`score score-${scoreTone(match.score)}`}
          aria-label={t('review.scoreLabel', { score: match.score })}
        >
          {match.score}
        </span>
      </header>
      <div className="side-by-side">
        <section aria-label={t('review.bankSide')}>
          <h4>{t('review.bankSide')}</h4>
          <p className="nowrap">{bank.date}</p>
          <p>{bank.description}</p>
          <p>
            <Amount value={bank.amount} currency={currency} />{' '}
            <span className="muted">{bank.type === 'debit' ? t('bank.out') : t('bank.in')}</span>
          </p>
        </section>
        <section aria-label={t('review.entrySide')}>
          <h4>{t('review.entrySide')}</h4>
          {match.journal_entries.map((entry) => (
            <div key={entry.id}>
              <p className="nowrap">{entry.entry_date}</p>
              <p>{entry.memo || <span className="muted">{t('entry.noMemo')}</span>}</p>
              <p>
                <Amount value={entry.total_amount} currency={currency} />
              </p>
            </div>
          ))}
        </section>
      </div>
      <ScoreBars breakdown={match.score_breakdown} />
      {automatic ? (
        <div className="form-actions">
          <button
            type="button"
            disabled={busy}
            aria-label={t('review.undoLabel', { name: bank.description })}
            onClick={() => void undo.run()}
          >
            {t('review.undo')}
          </button>
          {ruleButton}
        </div>
      ) : rejecting ? (
        <form className="inline-form" onSubmit={submitReject}>
          <label>
            {t('review.rejectReason')}
            <input autoFocus maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="danger" disabled={busy}>
            {t('review.confirmReject')}
          </button>
          <button type="button" onClick={() => setRejecting(false)}>
            {t('action.cancel')}
          </button>
        </form>
      ) : (
        <div className="form-actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            aria-label={t('review.acceptLabel', { name: bank.description })}
            onClick={() => void accept.run()}
          >
            {t('review.accept')}
          </button>
          <button
            type="button"
            disabled={busy}
            aria-label={t('review.rejectLabel', { name: bank.description })}
            onClick={() => setRejecting(true)}
          >
            {t('review.reject')}
          </button>
          {ruleButton}
        </div>
      )}
      {ruleStart && (
        <RuleForm
          accounts={accounts.filter((a) => a.is_active)}
          start={ruleStart}
          onSaved={() => setRuleStart(null)}
          onCancel={() => setRuleStart(null)}
        />
      )}
      <ErrorNotice
        error={accept.error ?? reject.error ?? undo.error ?? makeRule.error}
        onDismiss={() => (accept.clearError(), reject.clearError(), undo.clearError(), makeRule.clearError())}
      />
    </article>
  );
}

import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.ts';
import { formatMinor } from '../../../server/contract/money.ts';
import { groupDecimal } from '../money.ts';
import type { EditorCheck } from '../entry-lines.ts';

/** The live "unbalanced by …" line of the entry editor, per currency, from exact minor units. */
export function BalanceHint({ id, check }: { id: string; check: EditorCheck }) {
  const { t } = useI18n();
  const unbalanced = check.balances.filter((b) => b.difference !== 0n);
  let content: ReactNode;
  if (unbalanced.length > 0) {
    content = unbalanced.map((b) => (
      <span key={b.currency}>
        {t(b.difference > 0n ? 'editor.unbalancedDebit' : 'editor.unbalancedCredit', {
          amount: groupDecimal(formatMinor(b.difference > 0n ? b.difference : -b.difference, b.currency)),
          currency: b.currency,
        })}
      </span>
    ));
  } else if (check.filled.length >= 2 && check.problems.size === 0) {
    content = check.balances.map((b) => (
      <span key={b.currency}>
        {t('editor.balanced', { amount: groupDecimal(formatMinor(b.debits, b.currency)), currency: b.currency })}
      </span>
    ));
  } else {
    content = t('editor.needLines');
  }
  return (
    <div
      id={id}
      className={unbalanced.length > 0 ? 'balance-hint unbalanced' : 'balance-hint'}
      role="status"
      aria-live="polite"
    >
      {content}
    </div>
  );
}

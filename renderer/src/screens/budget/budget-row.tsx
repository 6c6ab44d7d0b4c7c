import { useEffect, useId, useState, type KeyboardEvent, type Ref } from 'react';
import type { BudgetLineDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { FieldError, invalidField } from '../../components/field-error.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useI18n } from '../../i18n/index.ts';
import { chartValue, groupDecimal, isNegative, isZero, plainAmount } from '../../money.ts';

interface BudgetRowProps {
  line: BudgetLineDto;
  /** depth under a budgeted parent, for the indent */
  depth: number;
  busy: boolean;
  /** why the server refused this line's amount, in words */
  problem: string | undefined;
  inputRef: Ref<HTMLInputElement>;
  onSave: (amount: string) => Promise<boolean>;
  onCarryOver: (carry: boolean) => void;
  onRemove: () => void;
  /** the arrow keys and Enter move to the row above (-1) or below (+1) */
  onMove: (step: -1 | 1) => void;
}

function tone(line: BudgetLineDto): 'good' | 'warn' | 'bad' {
  if (line.type === 'INCOME') return isNegative(line.available) || isZero(line.available) ? 'good' : 'warn';
  if (isNegative(line.available)) return 'bad';
  const total = chartValue(line.budgeted) + chartValue(line.carried_in);
  return total > 0 && chartValue(line.actual) / total > 0.9 ? 'warn' : 'good';
}

/** One account's line of the month: the budget edited in place, what was spent, what is left. */
export function BudgetRow({
  line,
  depth,
  busy,
  problem,
  inputRef,
  onSave,
  onCarryOver,
  onRemove,
  onMove,
}: BudgetRowProps) {
  const { t } = useI18n();
  const problemId = useId();
  const shown = groupDecimal(line.budgeted);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const changed = plainAmount(text) !== line.budgeted;

  const commit = async () => (changed && text.trim() !== '' ? onSave(plainAmount(text)) : true);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void commit().then((ok) => ok && onMove(1));
    } else if (event.key === 'Escape') {
      setText(shown);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      void commit().then((ok) => ok && onMove(event.key === 'ArrowDown' ? 1 : -1));
    }
  };

  const available = chartValue(line.budgeted) + chartValue(line.carried_in);
  return (
    <tr data-testid="budget-row">
      <th scope="row" style={{ paddingLeft: `${0.6 + depth * 1.2}rem` }}>
        <Clipped text={line.name} />
        {line.type === 'EXPENSE' && isNegative(line.available) && (
          <span className="badge badge-bad">{t('budget.overspent', { amount: line.available.replace('-', '') })}</span>
        )}
      </th>
      <td className="num">
        <input
          ref={inputRef}
          className="amount-input"
          inputMode="decimal"
          aria-label={t('budget.amountLabel', { name: line.name })}
          value={text}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => void commit()}
          {...invalidField(problem, problemId)}
        />
        <FieldError id={problemId} problem={problem} />
        {!isZero(line.carried_in) && <div className="muted">{t('budget.carriedIn', { amount: line.carried_in })}</div>}
      </td>
      <td className="num">
        <Amount value={line.actual} currency={line.currency} />
      </td>
      <td className="num">
        <Amount value={line.available} />
      </td>
      <td className="budget-progress">
        <ProgressBar
          value={Math.max(0, chartValue(line.actual))}
          max={available > 0 ? available : Math.max(1, chartValue(line.actual))}
          label={t('budget.progressLabel', { name: line.name, actual: line.actual, budgeted: line.budgeted })}
          text={t('budget.leftOf', { left: line.available, budgeted: line.budgeted })}
          tone={tone(line)}
        />
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={t('budget.carryOverLabel', { name: line.name })}
          checked={line.carry_over}
          disabled={busy}
          onChange={(e) => onCarryOver(e.target.checked)}
        />
      </td>
      <td>
        <button
          type="button"
          className="icon-button"
          aria-label={t('budget.remove', { name: line.name })}
          disabled={busy}
          onClick={onRemove}
        >
          ×
        </button>
      </td>
    </tr>
  );
}

import { Amount } from '../../components/amount.tsx';
import { useI18n } from '../../i18n/index.ts';

export interface BudgetTotal {
  currency: string;
  type: 'EXPENSE' | 'INCOME';
  budgeted: string;
  actual: string;
  left: string;
}

/** The columns every budget table starts with: the account, then its budgeted, actual and left. */
export function BudgetColumnHeadings() {
  const { t } = useI18n();
  return (
    <>
      <th scope="col">{t('budget.account')}</th>
      <th scope="col" className="num">
        {t('budget.budgeted')}
      </th>
      <th scope="col" className="num">
        {t('budget.actual')}
      </th>
      <th scope="col" className="num">
        {t('budget.left')}
      </th>
    </>
  );
}

/** A budget table's footer: per currency and type the budgeted, actual and left, then `trailing` empty columns. */
export function BudgetTotals({ totals, trailing }: { totals: readonly BudgetTotal[]; trailing: number }) {
  const { t } = useI18n();
  if (totals.length === 0) return null;
  return (
    <tfoot>
      {totals.map((total) => (
        <tr key={`${total.currency} ${total.type}`}>
          <th scope="row">{t('budget.total', { type: t(`types.${total.type}`), currency: total.currency })}</th>
          <td className="num">
            <Amount value={total.budgeted} />
          </td>
          <td className="num">
            <Amount value={total.actual} />
          </td>
          <td className="num">
            <Amount value={total.left} />
          </td>
          <td colSpan={trailing} />
        </tr>
      ))}
    </tfoot>
  );
}

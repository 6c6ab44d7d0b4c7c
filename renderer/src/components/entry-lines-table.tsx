import type { JournalEntryDto } from '../api/index.ts';
import { Amount } from './amount.tsx';
import { DataTable } from './data-table.tsx';
import { useI18n } from '../i18n/index.ts';
import { accountLabel } from '../names.ts';

type Line = JournalEntryDto['lines'][number];

/** An entry's lines in debit and credit columns; an exchange's cost beside its amount, automatic lines marked. */
export function EntryLinesTable({ entry, label }: { entry: JournalEntryDto; label: string }) {
  const { t } = useI18n();
  const amountIf = (direction: Line['direction']) => (line: Line) =>
    line.direction === direction && (
      <>
        <Amount value={line.amount} currency={line.currency} />
        {line.cost && !line.automatic && (
          <span className="line-cost">
            {' '}
            ({t('currency.cost')} <Amount value={line.cost.amount} currency={line.cost.currency} />)
          </span>
        )}
      </>
    );
  return (
    <DataTable
      className="compact"
      label={label}
      rows={entry.lines}
      rowKey={(line) => line.id}
      rowProps={(line) => ({ className: line.automatic ? 'automatic-line' : undefined })}
      columns={[
        {
          header: t('entry.account'),
          cell: (line) => (
            <>
              {accountLabel(line.account_name, t)}
              {line.automatic && (
                <span className="tag" title={t('currency.automaticHint')}>
                  {t('currency.automatic')}
                </span>
              )}
            </>
          ),
        },
        { header: t('entry.debit'), numeric: true, cell: amountIf('DEBIT') },
        { header: t('entry.credit'), numeric: true, cell: amountIf('CREDIT') },
        {
          header: t('cleared.column'),
          cell: (line) =>
            line.cleared === 'uncleared' ? (
              <span className="muted">{t('cleared.uncleared')}</span>
            ) : (
              <span className={`badge cleared-${line.cleared}`}>{t(`cleared.${line.cleared}`)}</span>
            ),
        },
      ]}
    />
  );
}

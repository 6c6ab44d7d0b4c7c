import { useId } from 'react';
import type { AccountDto, ImportPreview } from '../../api/index.ts';
import { DataTable } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/index.ts';

type FileAccount = ImportPreview['accounts'][number];

/**
 * The accounts a file holds (a QBO with checking, savings and a card; camt with several Stmt), each
 * with its number, currency, count and closing balance (and its day) as the bank states it, and the
 * account it goes into, or "skip". Each account chosen becomes its own statement.
 */
export function FileAccountsTable({
  preview,
  accounts,
  busy,
  onAccounts,
}: {
  preview: ImportPreview;
  accounts: AccountDto[];
  busy: boolean;
  onAccounts: (accountIds: (string | null)[]) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const chosen = preview.accounts.map((a) => a.account_id);
  const choose = (index: number, id: string | null) => onAccounts(chosen.map((c, i) => (i === index ? id : c)));
  const fitting = (a: FileAccount) =>
    accounts.filter((own) => a.currency === null || a.currency === 'XXX' || own.currency === a.currency);
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('import.accounts')}</h3>
      <p className="hint">{t('import.accountsHint')}</p>
      <DataTable
        className="compact file-accounts"
        scroll
        label={t('import.accounts')}
        rows={preview.accounts.map((a, index) => ({ ...a, index }))}
        rowKey={(a) => `${a.index}`}
        columns={[
          {
            header: t('import.accountRef'),
            cell: (a) => (
              <>
                {a.account_ref ?? t('import.noAccountRef')}
                <span className="cell-note">{a.currency ?? '—'}</span>
              </>
            ),
          },
          { header: t('import.transactions'), numeric: true, cell: (a) => a.transaction_count },
          {
            header: t('import.closingBalance'),
            numeric: true,
            cell: (a) =>
              a.closing_balance === null ? (
                '—'
              ) : (
                <>
                  {a.closing_balance}
                  {a.closing_date && <span className="cell-note">{a.closing_date}</span>}
                </>
              ),
          },
          {
            header: t('import.importInto'),
            cell: (a) => (
              <select
                aria-label={t('import.importIntoLabel', { ref: a.account_ref ?? t('import.noAccountRef') })}
                value={a.account_id ?? ''}
                disabled={busy}
                onChange={(e) => choose(a.index, e.target.value === '' ? null : e.target.value)}
              >
                <option value="">{t('import.skipAccount')}</option>
                {fitting(a).map((own) => (
                  <option key={own.id} value={own.id}>
                    {own.name} ({own.currency})
                  </option>
                ))}
              </select>
            ),
          },
        ]}
      />
    </section>
  );
}

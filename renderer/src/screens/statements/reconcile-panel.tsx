import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  listStatements,
  reconcileAccount,
  reconcileStatusOf,
  reconciliations,
  setLinesCleared,
  unreconciledLines,
  type AccountDto,
  type JournalEntryDto,
  type Reconciliation,
} from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Facts } from '../../components/facts.tsx';
import { Pager } from '../../components/pager.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { dayBefore } from '../../dates.ts';
import { statementLabel } from '../../names.ts';
import { DifferenceBooking } from './difference-booking.tsx';
import { isBalance, isZero } from '../../money.ts';
import type { StatementsTabProps } from './tab-props.ts';

const PER_PAGE = 25;

/**
 * Reconciling an account to a bank statement, as GnuCash and Actual do it: the statement's date and
 * ending balance (prefilled from the account's latest statement that states one), the lines left
 * to reconcile up to that date to tick as the statement shows them, the difference between the
 * statement and the cleared balance as it changes, and Finish once it is zero.
 */
export function ReconcilePanel({
  accounts,
  bookTo,
  refresh,
  onChanged,
}: StatementsTabProps & { bookTo: readonly AccountDto[] }) {
  const { t } = useI18n();
  const headingId = useId();
  const [accountId, setAccountId] = useState('');
  const [date, setDate] = useState('');
  const [balance, setBalance] = useState('');
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const [done, setDone] = useState<Reconciliation | null>(null);
  const [booked, setBooked] = useState<JournalEntryDto | null>(null);
  const account = accounts.find((a) => a.id === accountId);

  // the latest statement of the account that states a closing balance fills in the date and balance
  useEffect(() => {
    if (!accountId) return;
    let live = true;
    void listStatements(1, 20, accountId).then((statements) => {
      const latest = statements.items.find((s) => s.closing_balance !== null);
      if (!live || !latest) return;
      setDate(latest.closing_date ?? latest.end_date ?? '');
      setBalance(latest.closing_balance ?? '');
      setPrefilledFrom(statementLabel(latest, t));
    });
    return () => {
      live = false;
    };
  }, [accountId, t]);

  const ready = !!account && /^\d{4}-\d{2}-\d{2}$/.test(date) && isBalance(balance.trim());
  const loadStatus = useCallback(
    () => (ready ? reconcileStatusOf(accountId, date, balance.trim()) : Promise.resolve(undefined)),
    [ready, accountId, date, balance],
  );
  const status = useLoader(loadStatus, [loadStatus, round, refresh]);
  const loadLines = useCallback(
    () => (ready ? unreconciledLines(accountId, date, page, PER_PAGE) : Promise.resolve(undefined)),
    [ready, accountId, date, page],
  );
  const lines = useLoader(loadLines, [loadLines, round, refresh]);
  const loadLast = useCallback(
    () => (accountId ? reconciliations(accountId, 1, 1) : Promise.resolve(undefined)),
    [accountId],
  );
  const last = useLoader(loadLast, [loadLast, round, refresh]);

  // a tick shows at once; the server's answer replaces it when the lines load again
  const [ticked, setTicked] = useState<ReadonlyMap<string, boolean>>(new Map());
  useEffect(() => setTicked(new Map()), [lines.data]);
  const tick = useAction(async (lineId: string, cleared: boolean) => {
    setTicked((m) => new Map(m).set(lineId, cleared));
    await setLinesCleared(accountId, [lineId], cleared);
    setRound((n) => n + 1);
  });
  const finish = useAction(async () => {
    setDone(await reconcileAccount(accountId, date, balance.trim()));
    setRound((n) => n + 1);
    onChanged();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (status.data && isZero(status.data.difference)) void finish.run();
  };
  const zero = !!status.data && isZero(status.data.difference);
  const previous = last.data?.items[0];

  return (
    <article className="panel reconcile-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('reconcile.title')}</h2>
      <p className="hint">{t('reconcile.hint')}</p>
      <form className="stack" onSubmit={submit}>
        <div className="inline-form">
          <label>
            {t('reconcile.account')}
            <select
              value={accountId}
              onChange={(e) => {
                setAccountId(e.target.value);
                setPrefilledFrom(null);
                setDone(null);
                setBooked(null);
                setPage(1);
              }}
            >
              <option value="">{t('mapping.choose')}</option>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </label>
          <DateInput
            label={t('reconcile.date')}
            required
            value={date}
            onChange={(next) => {
              setDate(next);
              setPage(1);
            }}
          />
          <label>
            {t('reconcile.balance')}
            <input
              inputMode="decimal"
              required
              value={balance}
              aria-invalid={balance.trim() !== '' && !isBalance(balance.trim())}
              onChange={(e) => setBalance(e.target.value)}
            />
          </label>
        </div>
        {prefilledFrom && <p className="hint">{t('reconcile.prefilled', { name: prefilledFrom })}</p>}
        {balance.trim() !== '' && !isBalance(balance.trim()) && <p className="hint">{t('reconcile.badBalance')}</p>}
        {previous && (
          <p className="muted">
            {t('reconcile.last', { date: previous.statement_date, balance: previous.statement_balance })}
          </p>
        )}
        {status.data && account && (
          <Facts
            className="inline-facts"
            facts={[
              {
                label: t('reconcile.cleared'),
                value: <Amount value={status.data.cleared_balance} currency={account.currency} />,
                testId: 'cleared-balance',
              },
              {
                label: t('reconcile.difference'),
                value: <Amount value={status.data.difference} currency={account.currency} />,
                testId: 'reconcile-difference',
              },
              { label: t('reconcile.uncleared'), value: status.data.uncleared_count },
            ]}
          />
        )}
        {lines.data && account && (
          <DataTable
            scroll="preview-scroll"
            className="compact"
            label={t('reconcile.lines')}
            rows={lines.data.items}
            rowKey={(l) => l.line_id}
            empty={<p className="muted">{t('reconcile.noLines')}</p>}
            columns={[
              {
                header: t('cleared.cleared'),
                cell: (l) => (
                  <input
                    type="checkbox"
                    aria-label={t('reconcile.tick', {
                      memo: l.memo ?? t('entry.noMemo'),
                      date: l.entry_date,
                      amount: l.amount,
                    })}
                    checked={ticked.get(l.line_id) ?? l.cleared === 'cleared'}
                    disabled={tick.busy}
                    onChange={(e) => void tick.run(l.line_id, e.target.checked)}
                  />
                ),
              },
              { header: t('entry.date'), cellClassName: 'nowrap', cell: (l) => l.entry_date },
              { header: t('entry.memo'), cell: (l) => l.memo ?? <span className="muted">{t('entry.noMemo')}</span> },
              {
                header: t('entry.amount'),
                numeric: true,
                cell: (l) => <Amount value={l.amount} currency={l.currency} />,
              },
            ]}
          />
        )}
        {lines.data && lines.data.total > PER_PAGE && (
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={lines.data.total}
            onPage={setPage}
            label={t('reconcile.pages')}
          />
        )}
        {(status.loading || lines.loading) && ready && !status.data && <Busy label={t('loading')} />}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={!zero || finish.busy}>
            {t('reconcile.finish')}
          </button>
          {status.data && !zero && <span className="muted">{t('reconcile.finishHint')}</span>}
        </div>
        {status.data && !zero && account && lines.data && (
          <DifferenceBooking
            key={account.id}
            account={account}
            accounts={bookTo}
            difference={status.data.difference}
            openingDate={(() => {
              const oldest = lines.data.items.at(-1);
              return oldest && lines.data.total <= PER_PAGE ? dayBefore(oldest.entry_date) : '';
            })()}
            statementDate={date}
            onBooked={(entry) => {
              setBooked(entry);
              setRound((n) => n + 1);
              onChanged();
            }}
          />
        )}
        {booked && (
          <p role="status" className="notice notice-ok" data-testid="difference-booked">
            {t('reconcile.booked', { memo: booked.memo ?? '', date: booked.entry_date })}
          </p>
        )}
        {done && (
          <p role="status" className="notice notice-ok" data-testid="reconciled">
            {t('reconcile.done', {
              count: done.line_count,
              balance: done.statement_balance,
              date: done.statement_date,
            })}
          </p>
        )}
      </form>
      <ErrorNotice
        error={tick.error ?? finish.error ?? status.error ?? lines.error}
        onDismiss={() => (tick.clearError(), finish.clearError())}
      />
    </article>
  );
}

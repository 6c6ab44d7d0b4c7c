import { useCallback, useState } from 'react';
import { accountBalance, accountRegister, allAccounts, getAccount } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { EntrySide, useEntryPane } from '../../components/entry-pane.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { blankLine } from '../../entry-lines.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Navigate } from '../../router.ts';
import { RegisterTable } from './register-table.tsx';

const PER_PAGE = 50;

/**
 * An account's register, the first screen a bookkeeper opens: the lines that count in its balance,
 * newest first, each with the balance just after it, its other accounts and whether the bank has
 * cleared it; a date range; an entry opened beside the list (void it, open its reversal), or a new
 * one started on this account. The keyboard moves through the lines (see RegisterTable).
 */
export function RegisterScreen({
  accountId,
  start,
  end,
  onNavigate,
}: {
  accountId: string;
  start: string | null;
  end: string | null;
  onNavigate: Navigate;
}) {
  const { t } = useI18n();
  const [range, setRange] = useState({ start: start ?? '', end: end ?? '' });
  const [page, setPage] = useState(1);
  const [attachmentsVersion, setAttachmentsVersion] = useState(0);
  const { pane, setPane, open, openError, dismissOpenError } = useEntryPane();
  const [version, setVersion] = useState(0);

  const loadAccount = useCallback(async () => {
    const [account, balance, accounts] = await Promise.all([
      getAccount(accountId),
      accountBalance(accountId),
      allAccounts(),
    ]);
    return { account, balance, accounts };
  }, [accountId]);
  const head = useLoader(loadAccount, [loadAccount, version]);
  const loadPage = useCallback(
    () =>
      accountRegister(accountId, {
        start_date: range.start || undefined,
        end_date: range.end || undefined,
        page,
        per_page: PER_PAGE,
      }),
    [accountId, range, page],
  );
  const list = useLoader(loadPage, [loadPage, version]);
  const changed = () => setVersion((v) => v + 1);

  const account = head.data?.account;
  const lines = list.data?.items ?? [];
  const ranged = range.start !== '' || range.end !== '';
  const title = account?.name ?? t('register.title');
  return (
    <section className="screen register-screen" aria-labelledby="register-title">
      <div className="screen-head">
        <a
          className="back-link"
          href="/accounts"
          onClick={(e) => {
            e.preventDefault();
            onNavigate('/accounts');
          }}
        >
          {t('register.allAccounts')}
        </a>
        <h1 id="register-title">{title}</h1>
        {account && head.data && (
          <span className="register-facts">
            <span className="muted">
              {t(`type.${account.type}`)} · {account.currency}
              {!account.is_active && ` · ${t('accounts.inactive')}`}
            </span>
            <span>
              {t('register.balanceToday')}{' '}
              <Amount value={head.data.balance.balance} currency={account.currency} className="register-balance" />
            </span>
          </span>
        )}
        <button
          type="button"
          className="primary"
          disabled={!account?.is_active}
          onClick={() => setPane({ kind: 'new' })}
        >
          {t('journal.new')}
        </button>
      </div>
      <ErrorNotice error={head.error ?? list.error} />
      <ErrorNotice error={openError} onDismiss={dismissOpenError} />
      <fieldset className="filters">
        <legend className="visually-hidden">{t('register.dates')}</legend>
        <DateInput
          label={t('filter.from')}
          value={range.start}
          onChange={(date) => {
            setRange((r) => ({ ...r, start: date }));
            setPage(1);
          }}
        />
        <DateInput
          label={t('filter.to')}
          value={range.end}
          onChange={(date) => {
            setRange((r) => ({ ...r, end: date }));
            setPage(1);
          }}
        />
        {ranged && (
          <button
            type="button"
            className="link"
            onClick={() => {
              setRange({ start: '', end: '' });
              setPage(1);
            }}
          >
            {t('register.allDates')}
          </button>
        )}
      </fieldset>
      <div className={pane.kind === 'none' ? 'split' : 'split split-open'}>
        <div className="split-main">
          <p className="hint">{t('register.keys')}</p>
          {list.loading && !list.data && <Busy label={t('loading')} />}
          {list.data && account && (
            <RegisterTable
              label={t('register.tableLabel', { name: account.name })}
              lines={lines}
              currency={account.currency}
              attachmentsVersion={attachmentsVersion}
              selectedEntry={pane.kind === 'view' ? pane.entry.id : null}
              onOpen={(line) => void open(line.entry_id)}
              onAccount={(id) => onNavigate(`/accounts/${encodeURIComponent(id)}`)}
              onPage={(step) => {
                const pages = Math.max(1, Math.ceil(list.data!.total / PER_PAGE));
                setPage((p) => Math.min(pages, Math.max(1, p + step)));
              }}
              onClose={() => setPane({ kind: 'none' })}
              empty={
                <EmptyState title={ranged ? t('register.noLinesInRange') : t('register.empty')}>
                  {ranged ? t('register.noLinesInRangeHint') : t('register.emptyHint')}
                </EmptyState>
              }
            />
          )}
          {list.data && (
            <Pager
              page={page}
              perPage={PER_PAGE}
              total={list.data.total}
              onPage={setPage}
              label={t('register.pages')}
            />
          )}
        </div>
        {head.data && (
          <EntrySide
            pane={pane}
            setPane={setPane}
            open={open}
            accounts={head.data.accounts}
            initialLines={[{ ...blankLine(), accountId }, blankLine()]}
            onChanged={changed}
            onAttachments={() => setAttachmentsVersion((v) => v + 1)}
          />
        )}
      </div>
    </section>
  );
}

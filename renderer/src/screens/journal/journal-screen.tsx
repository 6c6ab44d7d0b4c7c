import { useCallback, useEffect, useState } from 'react';
import { allAccounts, listEntries } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { CreateAccountsFirst } from '../../components/create-accounts-first.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';
import { NEW_ENTRY_KEY } from '../../shortcuts.ts';
import { EntrySide, useEntryPane } from '../../components/entry-pane.tsx';
import { EntryFilters, type Filters } from './entry-filters.tsx';
import { EntryRegister } from './entry-register.tsx';

const PER_PAGE = 25;

/** The journal: a paginated, filterable register beside the open entry or the entry editor. */
export function JournalScreen({
  onNavigate,
  search = '',
  newEntryAsked = false,
  onNewEntryOpened,
}: {
  onNavigate: (route: Route) => void;
  search?: string;
  /** the New entry shortcut was pressed (on this screen or another): open the editor */
  newEntryAsked?: boolean;
  onNewEntryOpened?: () => void;
}) {
  const { t } = useI18n();
  const [filters, setFilters] = useState<Filters>(() => (search ? { q: search } : {}));
  const [page, setPage] = useState(1);
  const { pane, setPane, open, openError, dismissOpenError } = useEntryPane();
  const [attachmentsVersion, setAttachmentsVersion] = useState(0);
  const accounts = useLoader(allAccounts, []);
  const loadPage = useCallback(() => listEntries({ ...filters, page, per_page: PER_PAGE }), [filters, page]);
  const list = useLoader(loadPage, [loadPage]);

  useEffect(() => {
    if (!newEntryAsked || !accounts.data) return;
    if (accounts.data.length > 0) setPane({ kind: 'new' });
    onNewEntryOpened?.();
  }, [newEntryAsked, accounts.data, onNewEntryOpened, setPane]);

  const accountList = accounts.data ?? [];
  const entries = list.data?.items ?? [];
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');
  return (
    <section className="screen" aria-labelledby="journal-title">
      <div className="screen-head">
        <h1 id="journal-title">{t('nav.journal')}</h1>
        <button
          type="button"
          className="primary"
          disabled={accountList.length === 0}
          aria-keyshortcuts={NEW_ENTRY_KEY}
          title={t('journal.newShortcut', { key: NEW_ENTRY_KEY })}
          onClick={() => setPane({ kind: 'new' })}
        >
          {t('journal.new')} <kbd aria-hidden="true">{NEW_ENTRY_KEY}</kbd>
        </button>
      </div>
      <ErrorNotice error={accounts.error ?? list.error} />
      <ErrorNotice error={openError} onDismiss={dismissOpenError} />
      {accounts.data && accountList.length === 0 ? (
        <CreateAccountsFirst
          title={t('journal.noAccountsTitle')}
          hint={t('journal.noAccountsHint')}
          onNavigate={onNavigate}
        />
      ) : (
        <div className={pane.kind === 'none' ? 'split' : 'split split-open'}>
          <div className="split-main">
            <EntryFilters
              filters={filters}
              accounts={accountList}
              onChange={(next) => {
                setFilters(next);
                setPage(1);
              }}
            />
            {list.loading && <Busy label={t('loading')} />}
            {list.data && (
              <EntryRegister
                entries={entries}
                accounts={accountList}
                viewedAccountId={filters.account_id}
                selectedId={pane.kind === 'view' ? pane.entry.id : null}
                onOpen={(entry) => setPane({ kind: 'view', entry })}
                attachmentsVersion={attachmentsVersion}
                empty={
                  <EmptyState
                    title={
                      filters.q
                        ? t('journal.noSearchMatches', { q: filters.q })
                        : filtered
                          ? t('journal.noMatches')
                          : t('journal.emptyTitle')
                    }
                  >
                    {filtered ? t('journal.noMatchesHint') : t('journal.emptyHint')}
                  </EmptyState>
                }
              />
            )}
            {list.data && (
              <Pager
                page={page}
                perPage={PER_PAGE}
                total={list.data.total}
                exact={list.data.total_exact}
                onPage={setPage}
                label={t('journal.pages')}
              />
            )}
          </div>
          <EntrySide
            pane={pane}
            setPane={setPane}
            open={open}
            accounts={accountList}
            onChanged={list.reload}
            onRepeated={() => onNavigate('/schedules')}
            onAttachments={() => setAttachmentsVersion((v) => v + 1)}
          />
        </div>
      )}
    </section>
  );
}

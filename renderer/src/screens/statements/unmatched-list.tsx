import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createEntries, listStatements, unmatchedItems, type UnmatchedItemDto } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { groupDecimal } from '../../money.ts';
import { bookingOf, firstChoice, type LineChoice } from './booking-choice.ts';
import { UnmatchedItem, type BookedLine } from './unmatched-item.tsx';
import type { StatementsTabProps } from './tab-props.ts';

const PAGE_SIZES = [10, 25, 50, 100] as const;
const PAGE_SIZE_KEY = 'ledger.unmatched.perPage';

/** The page size chosen last time on this computer (25 the first time). */
function keptPageSize(): number {
  const kept = Number(window.localStorage.getItem(PAGE_SIZE_KEY));
  return (PAGE_SIZES as readonly number[]).includes(kept) ? kept : 25;
}

/**
 * The review list of what is left to book: bank lines with no match, each with the account chosen
 * for it (a rule's or a sure suggestion's) to change inline, ticked to be booked together in one
 * action; then posted entries with no bank line. Filtered by account and statement; the lines
 * ticked stay ticked across pages and filters until they are booked or the selection is cleared.
 */
export function UnmatchedList({ accounts, refresh, onChanged }: StatementsTabProps) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(keptPageSize);
  const [accountId, setAccountId] = useState('');
  const [statementId, setStatementId] = useState('');
  const load = useCallback(
    () => unmatchedItems(page, perPage, { accountId: accountId || undefined, statementId: statementId || undefined }),
    [page, perPage, accountId, statementId],
  );
  const { data, error, loading } = useLoader(load, [load, refresh]);
  const loadStatements = useCallback(() => listStatements(1, 100, accountId || undefined), [accountId]);
  const { data: statements } = useLoader(loadStatements, [loadStatements, refresh]);
  // every line seen, so that one ticked on another page can still be booked
  const seen = useRef(new Map<string, UnmatchedItemDto>());
  const [choices, setChoices] = useState<Map<string, LineChoice>>(new Map());
  const [booked, setBooked] = useState<number | null>(null);
  const [bookedOne, setBookedOne] = useState<BookedLine | null>(null);
  const firstChoices = useRef(new Map<string, LineChoice>());
  useEffect(() => {
    // a line still listed keeps what the person chose for it (booking another reloads the list);
    // one they left as it was takes its new first choice (a rule just saved chooses it)
    const items = data?.items ?? [];
    const previous = new Map(firstChoices.current);
    for (const item of items) {
      seen.current.set(item.transaction.id, item);
      firstChoices.current.set(item.transaction.id, firstChoice(item));
    }
    const firsts = firstChoices.current;
    setChoices((before) => {
      const next = new Map(before);
      for (const item of items) {
        const id = item.transaction.id;
        const kept = before.get(id);
        next.set(id, kept === undefined || kept === previous.get(id) ? firsts.get(id)! : kept);
      }
      return next;
    });
  }, [data]);
  const active = useMemo(() => accounts.filter((a) => a.is_active), [accounts]);
  const byId = useMemo(() => new Map(active.map((a) => [a.id, a])), [active]);
  const lines = (data?.items ?? []).filter((item) => item.type === 'bank_transaction');
  const bookingFor = (item: UnmatchedItemDto) => {
    const c = choices.get(item.transaction.id);
    return c ? bookingOf(c, item.transaction, byId) : null;
  };
  const selected = [...seen.current.values()].filter(
    (item) => item.type === 'bank_transaction' && choices.get(item.transaction.id)?.selected && bookingFor(item),
  );
  const onThisPage = new Set(lines.map((item) => item.transaction.id));
  const selectedElsewhere = selected.filter((item) => !onThisPage.has(item.transaction.id)).length;
  const forget = (ids: readonly string[]) => {
    for (const id of ids) {
      seen.current.delete(id);
      firstChoices.current.delete(id);
    }
    setChoices((m) => {
      const next = new Map(m);
      for (const id of ids) next.delete(id);
      return next;
    });
  };
  const clearSelection = () =>
    setChoices((m) => new Map([...m].map(([id, c]) => [id, c.selected ? { ...c, selected: false } : c])));
  const book = useAction(async () => {
    const items = selected.map((item) => ({ bank_transaction_id: item.transaction.id, ...bookingFor(item)! }));
    const result = await createEntries({ items });
    forget(items.map((i) => i.bank_transaction_id));
    setBookedOne(null);
    setBooked(result.created.length);
    onChanged();
  });
  const filterBy = (change: () => void) => {
    change();
    setPage(1);
  };
  const choose = (id: string, choice: LineChoice) => setChoices((m) => new Map(m).set(id, choice));
  const selectAll = (on: boolean) =>
    setChoices((m) => {
      const next = new Map(m);
      for (const item of lines) {
        const c = next.get(item.transaction.id);
        if (c && bookingOf(c, item.transaction, byId)) next.set(item.transaction.id, { ...c, selected: on });
      }
      return next;
    });
  const choosable = lines.filter((item) => bookingFor(item));

  return (
    <div className="stack">
      <div className="inline-form unmatched-filters">
        <label>
          {t('unmatched.filterAccount')}
          <select
            value={accountId}
            onChange={(e) =>
              filterBy(() => {
                setAccountId(e.target.value);
                setStatementId('');
              })
            }
          >
            <option value="">{t('unmatched.allAccounts')}</option>
            {active
              .filter((a) => a.type === 'ASSET' || a.type === 'LIABILITY')
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
          </select>
        </label>
        <label>
          {t('unmatched.filterStatement')}
          <select value={statementId} onChange={(e) => filterBy(() => setStatementId(e.target.value))}>
            <option value="">{t('unmatched.allStatements')}</option>
            {(statements?.items ?? []).map((st) => (
              <option key={st.id} value={st.id}>
                {st.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('unmatched.pageSize')}
          <select
            value={perPage}
            onChange={(e) =>
              filterBy(() => {
                const size = Number(e.target.value);
                window.localStorage.setItem(PAGE_SIZE_KEY, String(size));
                setPerPage(size);
              })
            }
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {selectedElsewhere > 0 && (
        <p className="notice" data-testid="selected-elsewhere">
          {t('unmatched.selectedElsewhere', { count: selectedElsewhere })}{' '}
          <button type="button" className="link" onClick={clearSelection}>
            {t('unmatched.clearSelection')}
          </button>
        </p>
      )}
      {lines.length > 0 && (
        <div className="inline-form bulk-bar">
          <label>
            <input
              type="checkbox"
              checked={choosable.length > 0 && choosable.every((item) => choices.get(item.transaction.id)?.selected)}
              disabled={choosable.length === 0}
              onChange={(e) => selectAll(e.target.checked)}
            />
            {t('unmatched.selectAll')}
          </label>
          <button
            type="button"
            className="primary"
            disabled={selected.length === 0 || book.busy}
            onClick={() => void book.run()}
          >
            {t('unmatched.bookSelected', { count: selected.length })}
          </button>
          {book.busy && <Busy inline label={t('unmatched.booking')} />}
        </div>
      )}
      {booked !== null && !book.busy && (
        <p role="status" className="notice notice-ok" data-testid="booked-count">
          {t('unmatched.bookedCount', { count: booked })}
        </p>
      )}
      {bookedOne && (
        <p role="status" className="notice notice-ok" data-testid="booked">
          {bookedOne.transfer
            ? t('transfer.booked', { account: bookedOne.account })
            : t('unmatched.booked', {
                description: bookedOne.description,
                amount: groupDecimal(bookedOne.amount),
                account: bookedOne.account,
              })}
        </p>
      )}
      <ErrorNotice error={book.error ?? error} onDismiss={book.clearError} />
      {loading && !data && <Busy label={t('loading')} />}
      {data && data.items.length === 0 && (
        <EmptyState title={t('unmatched.empty')}>{t('unmatched.emptyHint')}</EmptyState>
      )}
      {data?.items.map((item) => (
        <UnmatchedItem
          key={`${item.type}:${item.transaction.id}`}
          item={item}
          accounts={active}
          choice={choices.get(item.transaction.id) ?? firstChoice(item)}
          onChoice={(c) => choose(item.transaction.id, c)}
          onCreated={(what) => {
            setBooked(null);
            setBookedOne(what);
            onChanged();
          }}
          onRuleSaved={onChanged}
        />
      ))}
      {data && <Pager page={page} perPage={perPage} total={data.total} onPage={setPage} label={t('unmatched.pages')} />}
    </div>
  );
}

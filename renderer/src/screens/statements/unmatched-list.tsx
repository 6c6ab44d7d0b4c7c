import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createEntries, unmatchedItems, type UnmatchedItemDto } from '../../api/index.ts';
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

const PER_PAGE = 10;

/**
 * The review list of what is left to book: bank lines with no match, each with the account chosen
 * for it (a rule's or a sure suggestion's) to change inline, ticked to be booked together in one
 * action; then posted entries with no bank line.
 */
export function UnmatchedList({ accounts, refresh, onChanged }: StatementsTabProps) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const load = useCallback(() => unmatchedItems(page, PER_PAGE), [page]);
  const { data, error, loading } = useLoader(load, [load, refresh]);
  const [choices, setChoices] = useState<Map<string, LineChoice>>(new Map());
  const [booked, setBooked] = useState<number | null>(null);
  const [bookedOne, setBookedOne] = useState<BookedLine | null>(null);
  const firstChoices = useRef(new Map<string, LineChoice>());
  useEffect(() => {
    // a line still listed keeps what the person chose for it (booking another reloads the list);
    // one they left as it was takes its new first choice (a rule just saved chooses it)
    const items = data?.items ?? [];
    const previous = firstChoices.current;
    firstChoices.current = new Map(items.map((item) => [item.transaction.id, firstChoice(item)]));
    const firsts = firstChoices.current;
    setChoices(
      (before) =>
        new Map(
          items.map((item) => {
            const id = item.transaction.id;
            const kept = before.get(id);
            return [id, kept === undefined || kept === previous.get(id) ? firsts.get(id)! : kept];
          }),
        ),
    );
  }, [data]);
  const active = useMemo(() => accounts.filter((a) => a.is_active), [accounts]);
  const byId = useMemo(() => new Map(active.map((a) => [a.id, a])), [active]);
  const lines = (data?.items ?? []).filter((item) => item.type === 'bank_transaction');
  const bookingFor = (item: UnmatchedItemDto) => {
    const c = choices.get(item.transaction.id);
    return c ? bookingOf(c, item.transaction, byId) : null;
  };
  const selected = lines.filter((item) => choices.get(item.transaction.id)?.selected && bookingFor(item));
  const book = useAction(async () => {
    const items = selected.map((item) => ({ bank_transaction_id: item.transaction.id, ...bookingFor(item)! }));
    const result = await createEntries({ items });
    setBookedOne(null);
    setBooked(result.created.length);
    onChanged();
  });
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
      {lines.length > 0 && (
        <div className="inline-form bulk-bar">
          <label>
            <input
              type="checkbox"
              checked={choosable.length > 0 && selected.length === choosable.length}
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
      {data && (
        <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('unmatched.pages')} />
      )}
    </div>
  );
}

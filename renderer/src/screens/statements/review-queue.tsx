import { useCallback, useState, type FormEvent } from 'react';
import { batchAccept, listMatches, pendingMatches } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { MatchCard } from './match-card.tsx';
import type { StatementsTabProps } from './tab-props.ts';

const PER_PAGE = 10;

/**
 * Matches held for review (scores 60..84), highest first; accept one, reject one, or many at once.
 * Below them, the matches runs accepted on their own, to look over and undo.
 */
export function ReviewQueue({ accounts, refresh, onChanged }: StatementsTabProps) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const [minScore, setMinScore] = useState('75');
  const [accepted, setAccepted] = useState<number | null>(null);
  const load = useCallback(() => pendingMatches(page, PER_PAGE), [page]);
  const { data, error, loading } = useLoader(load, [load, refresh]);
  const batch = useAction(async () => {
    const result = await batchAccept(Number.parseInt(minScore, 10));
    setAccepted(result.accepted_count);
    onChanged();
  });

  const submitBatch = (event: FormEvent) => {
    event.preventDefault();
    void batch.run();
  };

  return (
    <div className="stack">
      <form className="inline-form batch-form" onSubmit={submitBatch}>
        <label>
          {t('review.minScore')}
          <input
            type="number"
            min={0}
            max={100}
            required
            value={minScore}
            onChange={(e) => setMinScore(e.target.value)}
          />
        </label>
        <button type="submit" disabled={batch.busy || !data || data.total === 0}>
          {t('review.batchAccept')}
        </button>
        {batch.busy && <Busy inline label={t('review.accepting')} />}
        {accepted !== null && !batch.busy && (
          <span role="status" className="muted">
            {t('review.batchDone', { count: accepted })}
          </span>
        )}
      </form>
      <ErrorNotice error={batch.error ?? error} onDismiss={batch.clearError} />
      {loading && !data && <Busy label={t('loading')} />}
      {data && data.items.length === 0 && <EmptyState title={t('review.empty')}>{t('review.emptyHint')}</EmptyState>}
      <div className="match-list">
        {data?.items.map((match) => (
          <MatchCard key={match.id} match={match} accounts={accounts} onDecided={onChanged} />
        ))}
      </div>
      {data && <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('review.pages')} />}
      <AutomaticMatches accounts={accounts} refresh={refresh} onChanged={onChanged} />
    </div>
  );
}

/** The matches runs accepted on their own, highest score first, each with its undo. */
function AutomaticMatches({ accounts, refresh, onChanged }: StatementsTabProps) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const load = useCallback(() => listMatches(page, PER_PAGE), [page]);
  const { data, error } = useLoader(load, [load, refresh]);
  return (
    <section className="stack" aria-labelledby="automatic-heading">
      <h3 id="automatic-heading">
        {t('review.automatic')} {data ? <span className="muted">({data.total})</span> : null}
      </h3>
      <p className="hint">{t('review.automaticHint')}</p>
      <ErrorNotice error={error} />
      {data && data.items.length === 0 && <p className="muted">{t('review.noAutomatic')}</p>}
      <div className="match-list">
        {data?.items.map((match) => (
          <MatchCard key={match.id} match={match} accounts={accounts} automatic onDecided={onChanged} />
        ))}
      </div>
      {data && (
        <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('review.automaticPages')} />
      )}
    </section>
  );
}

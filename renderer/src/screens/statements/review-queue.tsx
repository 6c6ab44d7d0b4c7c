import { useCallback, useState, type FormEvent } from 'react';
import { batchAccept, pendingMatches } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Pager } from '../../components/pager.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { MatchCard } from './match-card.tsx';

const PER_PAGE = 10;

/** Matches held for review (scores 60..84), highest first; accept one, reject one, or many at once. */
export function ReviewQueue({ refresh, onChanged }: { refresh: number; onChanged: () => void }) {
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
          <MatchCard key={match.id} match={match} onDecided={onChanged} />
        ))}
      </div>
      {data && <Pager page={page} perPage={PER_PAGE} total={data.total} onPage={setPage} label={t('review.pages')} />}
    </div>
  );
}

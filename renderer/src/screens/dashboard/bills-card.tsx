import { upcomingOccurrences } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { isoDate } from '../../dates.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';

const SHOWN = 6;

function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return isoDate(date);
}

/** The scheduled entries due in the next 14 days. */
export function BillsCard({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  const { data, error } = useLoader(() => upcomingOccurrences(inDays(14)), []);
  return (
    <article className="card" aria-labelledby="upcoming-bills">
      <h2 id="upcoming-bills">{t('schedules.upcomingBills')}</h2>
      <ErrorNotice error={error} />
      {data && data.items.length === 0 && <EmptyState title={t('schedules.noBills')} />}
      {data && data.items.length > 0 && (
        <ul className="bills" aria-labelledby="upcoming-bills">
          {data.items.slice(0, SHOWN).map((o) => (
            <li key={`${o.schedule_id} ${o.date}`}>
              <span className="nowrap">{o.date}</span> <strong>{o.name}</strong>{' '}
              <Amount value={o.amount} currency={o.currency} />
            </li>
          ))}
          {data.total > SHOWN && <li className="muted">+{data.total - SHOWN}</li>}
        </ul>
      )}
      <button type="button" className="link" onClick={() => onNavigate('/schedules')}>
        {t('schedules.open')}
      </button>
    </article>
  );
}

import { useState } from 'react';
import {
  allAccounts,
  allSchedules,
  createSchedule,
  deleteSchedule,
  runSchedules,
  skipOccurrence,
  updateSchedule,
  upcomingOccurrences,
  type RunResultDto,
  type ScheduleBody,
  type ScheduleDto,
} from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Busy } from '../../components/busy.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { isoDate } from '../../dates.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { ScheduleForm } from './schedule-form.tsx';

type Pane = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; schedule: ScheduleDto };

function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return isoDate(date);
}

/** Scheduled entries: what repeats, what comes up in the next 30 days (skip one), book what is due. */
export function SchedulesScreen() {
  const { t } = useI18n();
  const accounts = useLoader(allAccounts, []);
  const schedules = useLoader(allSchedules, []);
  const upcoming = useLoader(() => upcomingOccurrences(inDays(30)), []);
  const [pane, setPane] = useState<Pane>({ kind: 'none' });
  const [deleting, setDeleting] = useState<string | null>(null);
  const [booked, setBooked] = useState<RunResultDto | null>(null);
  const reload = () => {
    schedules.reload();
    upcoming.reload();
  };

  const save = useAction(async (body: ScheduleBody) => {
    if (pane.kind === 'edit') await updateSchedule(pane.schedule.id, body);
    else await createSchedule(body);
    setPane({ kind: 'none' });
    reload();
  });
  const remove = useAction(async (id: string) => {
    await deleteSchedule(id);
    setDeleting(null);
    reload();
  });
  const skip = useAction(async (id: string, date: string) => {
    await skipOccurrence(id, date);
    reload();
  });
  const run = useAction(async () => {
    setBooked(await runSchedules());
    reload();
  });

  const list = schedules.data ?? [];
  return (
    <section className="screen" aria-labelledby="schedules-title">
      <div className="screen-head">
        <h1 id="schedules-title">{t('schedules.title')}</h1>
        <div className="form-actions">
          <button type="button" className="primary" onClick={() => setPane({ kind: 'new' })}>
            {t('schedules.new')}
          </button>
          <button type="button" disabled={run.busy} onClick={() => void run.run()}>
            {t('schedules.runNow')}
          </button>
        </div>
      </div>
      <ErrorNotice error={schedules.error ?? accounts.error ?? upcoming.error} />
      <ErrorNotice
        error={run.error ?? skip.error ?? remove.error}
        onDismiss={() => (run.clearError(), skip.clearError(), remove.clearError())}
      />
      {booked && (
        <div role="status" className="notice">
          {t('schedules.booked', { count: booked.created.length })}
          {booked.failed.map((f) => (
            <div key={`${f.schedule_id} ${f.date}`}>
              {t('schedules.notBooked', { detail: `${f.date}: ${f.detail}` })}
            </div>
          ))}
        </div>
      )}
      {pane.kind !== 'none' && accounts.data && (
        <>
          <ScheduleForm
            key={pane.kind === 'edit' ? pane.schedule.id : 'new'}
            accounts={accounts.data}
            schedule={pane.kind === 'edit' ? pane.schedule : undefined}
            busy={save.busy}
            error={save.error}
            onSave={(body) => void save.run(body)}
            onCancel={() => {
              save.clearError();
              setPane({ kind: 'none' });
            }}
          />
          <ErrorNotice error={save.error} onDismiss={save.clearError} />
        </>
      )}
      {schedules.loading && !schedules.data && <Busy label={t('loading')} />}
      {schedules.data && list.length === 0 && pane.kind === 'none' && (
        <EmptyState title={t('schedules.emptyTitle')}>{t('schedules.emptyHint')}</EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-scroll">
          <table className="data-table compact" aria-label={t('schedules.title')}>
            <thead>
              <tr>
                <th scope="col">{t('schedules.name')}</th>
                <th scope="col">{t('schedules.frequency')}</th>
                <th scope="col">{t('schedules.next')}</th>
                <th scope="col" className="num">
                  {t('schedules.amount')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('accounts.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} data-testid="schedule-row">
                  <th scope="row">{s.name}</th>
                  <td>
                    {s.interval === 1
                      ? t(`schedules.freq.${s.frequency}`)
                      : t('schedules.every', { n: s.interval, unit: t(`schedules.unit.${s.frequency}`) })}{' '}
                    <span className="muted">({s.auto_post ? t('schedules.posted') : t('schedules.draft')})</span>
                  </td>
                  <td className="nowrap">{s.next_date ?? t('schedules.ended')}</td>
                  <td className="num">
                    <Amount value={s.amount} currency={s.currency} />
                  </td>
                  <td className="row-actions">
                    {deleting === s.id ? (
                      <>
                        <span>{t('schedules.confirmDelete', { name: s.name })}</span>{' '}
                        <button
                          type="button"
                          className="danger"
                          disabled={remove.busy}
                          onClick={() => void remove.run(s.id)}
                        >
                          {t('action.delete')}
                        </button>
                        <button type="button" onClick={() => setDeleting(null)}>
                          {t('action.cancel')}
                        </button>
                      </>
                    ) : (
                      <>
                        <button
                          type="button"
                          aria-label={t('schedules.edit', { name: s.name })}
                          onClick={() => setPane({ kind: 'edit', schedule: s })}
                        >
                          {t('action.edit')}
                        </button>
                        <button
                          type="button"
                          aria-label={t('schedules.delete', { name: s.name })}
                          onClick={() => setDeleting(s.id)}
                        >
                          {t('action.delete')}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <article className="panel" aria-labelledby="schedules-upcoming">
        <h2 id="schedules-upcoming">{t('schedules.upcoming')}</h2>
        {upcoming.data && upcoming.data.items.length === 0 && <p className="muted">{t('schedules.upcomingEmpty')}</p>}
        {upcoming.data && upcoming.data.items.length > 0 && (
          <ul className="bills">
            {upcoming.data.items.map((o) => (
              <li key={`${o.schedule_id} ${o.date}`} data-testid="upcoming-item">
                <span className="nowrap">{o.date}</span> <strong>{o.name}</strong>{' '}
                <Amount value={o.amount} currency={o.currency} />{' '}
                <button
                  type="button"
                  aria-label={t('schedules.skipLabel', { name: o.name, date: o.date })}
                  disabled={skip.busy}
                  onClick={() => void skip.run(o.schedule_id, o.date)}
                >
                  {t('schedules.skip')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </article>
    </section>
  );
}

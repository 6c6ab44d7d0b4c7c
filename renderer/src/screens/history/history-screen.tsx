import { useState } from 'react';
import { getHistory, undoLastChange, type HistoryItem } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { formatMoment } from '../../dates.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { changeInWords } from './history-words.ts';

const PER_PAGE = 20;

const UNDO_WORDS: Readonly<Record<string, MessageKey>> = {
  NOTHING_TO_UNDO: 'history.error.NOTHING_TO_UNDO',
  UNDO_NOT_POSSIBLE: 'history.error.UNDO_NOT_POSSIBLE',
};

/**
 * History: every change to the books, newest first, a page at a time (by the change log's
 * timestamps), with the computer that made it; Undo takes back this computer's last change. The
 * history is the books' own: it is here whether or not the books sync with a group.
 */
export function HistoryScreen() {
  const { t, language } = useI18n();
  // the `before` of each page shown so far: the last is this page's, undefined the newest page's
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const page = useLoader(() => getHistory({ before, limit: PER_PAGE }), [before]);
  const [undone, setUndone] = useState<string | null>(null);
  const undo = useAction(async () => {
    const result = await undoLastChange();
    setUndone(result.undone.map((item) => changeInWords(item, t)).join('; '));
    setCursors([undefined]);
    page.reload();
  });

  const device = (item: HistoryItem) =>
    item.this_device ? t('history.thisComputer') : t('history.otherComputer', { id: item.device.slice(-6) });
  const what = (item: HistoryItem) =>
    [changeInWords(item, t), item.undone ? t('history.undone') : '', item.by_undo ? t('history.byUndo') : '']
      .filter(Boolean)
      .join(' ');
  const next = page.data?.next_before ?? null;
  return (
    <section className="screen" aria-labelledby="history-title">
      <div className="screen-head">
        <h1 id="history-title">{t('history.title')}</h1>
        <button
          type="button"
          disabled={undo.busy}
          onClick={() => {
            setUndone(null);
            void undo.run();
          }}
        >
          {t('history.undo')}
        </button>
      </div>
      <p className="hint">{t('history.hint')}</p>
      {undo.busy && <Busy label={t('history.undoing')} />}
      <ErrorNotice error={undo.error} onDismiss={undo.clearError} words={UNDO_WORDS} />
      {undone && (
        <p role="status" className="notice notice-ok">
          {t('history.undoneNotice', { what: undone })}
        </p>
      )}
      <ErrorNotice error={page.error} />
      {page.loading && !page.data && <Busy label={t('loading')} />}
      {page.data && (
        <DataTable
          scroll
          className="compact"
          label={t('history.list')}
          rows={page.data.items}
          rowKey={(item) => item.timestamp}
          empty={<EmptyState title={t('history.emptyTitle')}>{t('history.emptyHint')}</EmptyState>}
          columns={[
            { header: t('history.when'), cellClassName: 'nowrap', cell: (item) => formatMoment(item.at, language) },
            { header: t('history.device'), cell: device },
            { header: t('history.what'), cell: what },
          ]}
        />
      )}
      {(cursors.length > 1 || next) && (
        <nav className="pager" aria-label={t('history.pages')}>
          <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            {t('history.newer')}
          </button>
          <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
            {t('history.older')}
          </button>
        </nav>
      )}
    </section>
  );
}

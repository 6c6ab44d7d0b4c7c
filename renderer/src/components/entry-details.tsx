import { useId, useState, type FormEvent } from 'react';
import { postEntry, voidEntry, type JournalEntryDto } from '../api/index.ts';
import { Busy } from './busy.tsx';
import { ErrorNotice } from './error-notice.tsx';
import { Facts } from './facts.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useI18n } from '../i18n/index.ts';
import { TextField } from './text-field.tsx';
import { TEXT_LIMITS } from '../../../server/contract/limits.ts';
import { EntryLinesTable } from './entry-lines-table.tsx';
import { RepeatEntryButton } from './repeat-entry-button.tsx';

interface EntryDetailsProps {
  entry: JournalEntryDto;
  onEdit: (entry: JournalEntryDto) => void;
  /** The entry changed (posted, voided): the screen reloads its list. */
  onChanged: (entry: JournalEntryDto) => void;
  onOpen: (entryId: string) => void;
  onClose: () => void;
  /** A monthly schedule was made of the entry. */
  onRepeated?: () => void;
}

/** One entry: its lines and state; post a draft, void a posted entry (showing the reversal). */
export function EntryDetails({ entry, onEdit, onChanged, onOpen, onClose, onRepeated }: EntryDetailsProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [voiding, setVoiding] = useState(false);
  const [reason, setReason] = useState('');
  const [reversal, setReversal] = useState<JournalEntryDto | null>(null);
  const post = useAction(async () => onChanged(await postEntry(entry.id)));
  const doVoid = useAction(async () => {
    const result = await voidEntry(entry.id, reason);
    setVoiding(false);
    setReversal(result.reversal_entry);
    onChanged(result.voided_entry);
  });

  const submitVoid = (event: FormEvent) => {
    event.preventDefault();
    void doVoid.run();
  };

  return (
    <article className="panel entry-details" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{entry.memo || t('entry.noMemo')}</h2>
        <button type="button" className="icon-button" aria-label={t('journal.closeEntry')} onClick={onClose}>
          ×
        </button>
      </div>
      <Facts
        className="inline-facts"
        facts={[
          { label: t('entry.date'), value: entry.entry_date },
          {
            label: t('entry.status'),
            value: (
              <span className={`badge status-${entry.status}`} data-testid="entry-status">
                {t(`status.${entry.status}`)}
              </span>
            ),
          },
          { label: t('entry.source'), value: t(`source.${entry.source_type}`) },
          !!entry.void_reason && { label: t('entry.voidReason'), value: entry.void_reason },
        ]}
      />
      <EntryLinesTable entry={entry} label={t('entry.lines')} />
      {entry.reverses_entry_id && (
        <p>
          {t('entry.reverses')}{' '}
          <button type="button" className="link" onClick={() => onOpen(entry.reverses_entry_id!)}>
            {t('entry.openOriginal')}
          </button>
        </p>
      )}
      {entry.status === 'draft' && (
        <div className="form-actions">
          <button type="button" className="primary" disabled={post.busy} onClick={() => void post.run()}>
            {t('editor.post')}
          </button>
          <button type="button" onClick={() => onEdit(entry)}>
            {t('action.edit')}
          </button>
          {post.busy && <Busy inline label={t('editor.posting')} />}
        </div>
      )}
      <ErrorNotice error={post.error} onDismiss={post.clearError} />
      {entry.status === 'posted' && !voiding && (
        <div className="form-actions">
          <button type="button" className="danger" onClick={() => setVoiding(true)}>
            {t('journal.void')}
          </button>
          <span className="hint">{t('journal.voidHint')}</span>
        </div>
      )}
      {onRepeated && entry.status !== 'void' && !entry.reverses_entry_id && (
        <div className="form-actions">
          <RepeatEntryButton entry={entry} onDone={onRepeated} />
        </div>
      )}
      {voiding && (
        <form className="void-form" onSubmit={submitVoid}>
          <TextField
            label={t('journal.voidReason')}
            autoFocus
            limit={TEXT_LIMITS.reason}
            value={reason}
            onChange={setReason}
          />
          <div className="form-actions">
            <button type="submit" className="danger" disabled={doVoid.busy}>
              {t('journal.confirmVoid')}
            </button>
            <button type="button" onClick={() => setVoiding(false)}>
              {t('action.cancel')}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={doVoid.error} onDismiss={doVoid.clearError} />
      {reversal && (
        <section className="reversal" aria-label={t('journal.reversal')}>
          <h3>{t('journal.reversalCreated')}</h3>
          <p>
            <strong>{reversal.memo}</strong> · {reversal.entry_date} · {t(`status.${reversal.status}`)}
          </p>
          <EntryLinesTable entry={reversal} label={t('journal.reversal')} />
        </section>
      )}
      {!reversal && entry.reversal_entry_id && (
        <p>
          {t('entry.voidedBy')}{' '}
          <button type="button" className="link" onClick={() => onOpen(entry.reversal_entry_id!)}>
            {t('entry.openReversal')}
          </button>
        </p>
      )}
    </article>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { postEntry, voidEntry, type JournalEntryDto } from '../api/index.ts';
import { Busy } from './busy.tsx';
import { ErrorNotice } from './error-notice.tsx';
import { Facts } from './facts.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useI18n, type MessageKey } from '../i18n/index.ts';
import { TextField } from './text-field.tsx';
import { TEXT_LIMITS } from '../../../server/contract/limits.ts';
import { EntryLinesTable } from './entry-lines-table.tsx';
import { RepeatEntryButton } from './repeat-entry-button.tsx';
import { AttachmentsPanel } from './attachments-panel.tsx';

interface EntryDetailsProps {
  entry: JournalEntryDto;
  onEdit: (entry: JournalEntryDto) => void;
  /** The entry changed (posted, voided): the screen reloads its list. */
  onChanged: (entry: JournalEntryDto) => void;
  onOpen: (entryId: string) => void;
  onClose: () => void;
  /** A monthly schedule was made of the entry. */
  onRepeated?: () => void;
  /** A file was attached or deleted. */
  onAttachments?: (count: number) => void;
}

/**
 * One entry: its lines and state; post or edit a draft; correct a posted entry (the editor voids it
 * and posts the correction) or void it (showing the reversal); the entries it corrects or that
 * corrected it, one click away.
 */
export function EntryDetails({
  entry,
  onEdit,
  onChanged,
  onOpen,
  onClose,
  onRepeated,
  onAttachments,
}: EntryDetailsProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [voiding, setVoiding] = useState(false);
  const [reason, setReason] = useState('');
  const [reversal, setReversal] = useState<JournalEntryDto | null>(null);
  const locked = entry.lines.some((l) => l.cleared === 'reconciled');
  /** A sentence about another entry, and the button that opens it. */
  const linkTo = (id: string, text: MessageKey, label: MessageKey) => (
    <p>
      {t(text)}{' '}
      <button type="button" className="link" onClick={() => onOpen(id)}>
        {t(label)}
      </button>
    </p>
  );
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
      {entry.reverses_entry_id && linkTo(entry.reverses_entry_id, 'entry.reverses', 'entry.openOriginal')}
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
      {entry.corrects && linkTo(entry.corrects, 'entry.corrects', 'entry.openCorrected')}
      {entry.corrected_by && linkTo(entry.corrected_by, 'entry.correctedBy', 'entry.openCorrection')}
      {entry.status === 'posted' && locked && <p className="hint">{t('journal.locked')}</p>}
      {entry.status === 'posted' && !locked && !entry.reverses_entry_id && !voiding && (
        <div className="form-actions">
          <button type="button" onClick={() => onEdit(entry)}>
            {t('journal.edit')}
          </button>
          <span className="hint">{t('journal.editHint')}</span>
        </div>
      )}
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
      {!reversal && entry.reversal_entry_id && linkTo(entry.reversal_entry_id, 'entry.voidedBy', 'entry.openReversal')}
      <AttachmentsPanel
        key={entry.id}
        target={{ kind: 'entry', id: entry.id }}
        label={entry.memo || t('entry.noMemo')}
        onCount={onAttachments}
      />
    </article>
  );
}

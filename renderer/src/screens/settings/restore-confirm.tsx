import { useEffect, useId, useRef } from 'react';
import { useI18n } from '../../i18n/index.ts';

/** A confirm step (a restore, leaving the sync group): says what happens, focuses Cancel, Escape cancels. */
export function RestoreConfirm({
  question,
  label,
  confirmText,
  busy,
  onConfirm,
  onCancel,
}: {
  question: string;
  /** the step's accessible name and its confirm button; a restore's by default */
  label?: string;
  confirmText?: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const questionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), [question]);
  return (
    <div
      role="group"
      aria-label={label ?? t('backup.confirmLabel')}
      aria-describedby={questionId}
      className="notice notice-warn restore-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onCancel();
      }}
    >
      <div className="notice-body stack">
        <p id={questionId}>{question}</p>
        <div className="form-actions">
          <button type="button" className="primary danger" disabled={busy} onClick={onConfirm}>
            {confirmText ?? t('backup.confirmRestore')}
          </button>
          <button type="button" ref={cancelRef} disabled={busy} onClick={onCancel}>
            {t('action.cancel')}
          </button>
        </div>
      </div>
    </div>
  );
}

import { useId, useState } from 'react';
import { useI18n } from '../../i18n/index.ts';

/** A code shown this once (a recovery or invite code): readable, selectable, with a copy button. */
export function ShownOnce({
  title,
  code,
  copyLabel,
  warning,
  onDismiss,
}: {
  title: string;
  code: string;
  copyLabel: string;
  warning: string;
  onDismiss?: () => void;
}) {
  const { t } = useI18n();
  const codeId = useId();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    // the clipboard may be refused (no permission); the code stays on screen to copy by hand
    navigator.clipboard.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div role="group" aria-label={title} className="notice notice-warn shown-once">
      <div className="notice-body stack">
        <label htmlFor={codeId}>{title}</label>
        <input id={codeId} className="shown-once-code" readOnly value={code} onFocus={(e) => e.target.select()} />
        <p>{warning}</p>
        <div className="form-actions">
          <button type="button" onClick={copy}>
            {copyLabel}
          </button>
          {copied && <span role="status">{t('sync.recovery.copied')}</span>}
          {onDismiss && (
            <button type="button" className="primary" onClick={onDismiss}>
              {t('sync.recovery.dismiss')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

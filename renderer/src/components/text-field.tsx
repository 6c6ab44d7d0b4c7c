import { useId, useState, type ClipboardEvent, type InputHTMLAttributes, type Ref } from 'react';
import { useI18n } from '../i18n/index.ts';

/** From how many characters before its limit a field counts what is left. */
function nearFrom(limit: number): number {
  return limit - Math.max(10, Math.ceil(limit / 10));
}

/**
 * A text field with a limit from the contract (`TEXT_LIMITS`): it takes no more than the limit,
 * counts the characters as the limit nears, and says so when a paste was cut to fit, so that
 * nothing is cut without a word. A problem the server found is drawn on the field and said beside
 * it. With `label` the field is labelled by it; without, it needs its own `aria-label`.
 */
export function TextField({
  label,
  limit,
  value,
  onChange,
  problem,
  className,
  inputRef,
  ...props
}: {
  label?: string;
  limit: number;
  value: string;
  onChange: (value: string) => void;
  /** why the server refused the field, in words */
  problem?: string | undefined;
  className?: string;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'maxLength' | 'className'>) {
  const { t } = useI18n();
  const noteId = useId();
  /** how many pasted characters did not fit, until the text is short enough again */
  const [cut, setCut] = useState(0);
  const count = value.length;

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text/plain').replace(/[\r\n]+/g, ' ');
    const input = event.currentTarget;
    const start = input.selectionStart ?? value.length;
    const end = input.selectionEnd ?? value.length;
    const room = limit - (value.length - (end - start));
    if (pasted.length <= room) return;
    event.preventDefault();
    onChange(value.slice(0, start) + pasted.slice(0, Math.max(0, room)) + value.slice(end));
    setCut(pasted.length - Math.max(0, room));
  };

  const showCut = cut > 0 && value.length >= limit;
  const input = (
    <input
      {...props}
      ref={inputRef}
      value={value}
      maxLength={limit}
      aria-invalid={problem || showCut ? true : undefined}
      aria-describedby={noteId}
      onPaste={onPaste}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className={className ? `text-field ${className}` : 'text-field'}>
      {label === undefined ? (
        input
      ) : (
        <label>
          {label}
          {input}
        </label>
      )}
      <span id={noteId} className="field-note" aria-live="polite">
        {problem && <span className="field-error">{problem}</span>}
        {showCut && <span className="field-error">{t('limit.cut', { max: limit, cut })}</span>}
        {count >= nearFrom(limit) && (
          <span className={count >= limit ? 'limit-count full' : 'limit-count'}>
            {t('limit.count', { count, max: limit })}
          </span>
        )}
      </span>
    </div>
  );
}

import { useEffect, useId, useRef, useState, type InputHTMLAttributes } from 'react';
import { useI18n } from '../i18n/index.ts';
import { readDate } from '../dates.ts';

/**
 * A date field that reads and shows dates the way every table of the app does (YYYY-MM-DD, in
 * English and Chinese alike), unlike the browser's own date field, whose format follows the
 * operating system (03/10/2026 beside 2026-03-10 in the tables). Typing works (2026-3-5 and
 * 2026/03/05 are read on leaving the field); the calendar button opens the browser's picker.
 */
export function DateInput({
  value,
  onChange,
  label,
  required = false,
  inline = false,
  className,
  inputProps,
}: {
  /** YYYY-MM-DD, or '' for none */
  value: string;
  /** called with YYYY-MM-DD, or '' when emptied */
  onChange: (value: string) => void;
  label: string;
  required?: boolean;
  /** the label beside the field rather than above it */
  inline?: boolean;
  className?: string;
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'>;
}) {
  const { t } = useI18n();
  const id = useId();
  const [text, setText] = useState(value);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => setText(value), [value]);
  const read = readDate(text);
  const invalid = text.trim() !== '' && read === null;

  const commit = (next: string) => {
    const date = readDate(next);
    if (next.trim() === '') onChange('');
    else if (date !== null) {
      setText(date);
      onChange(date);
    }
  };

  return (
    <div className={['field', 'date-field', inline ? 'inline-field' : '', className ?? ''].join(' ').trim()}>
      <label htmlFor={id}>{label}</label>
      <span className="date-input">
        <input
          {...inputProps}
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('date.placeholder')}
          required={required}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-problem` : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (readDate(e.target.value) !== null && /^\d{4}-\d{2}-\d{2}$/.test(e.target.value.trim()))
              onChange(e.target.value.trim());
          }}
          onBlur={() => commit(text)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(text);
          }}
        />
        <button
          type="button"
          className="icon-button date-picker-button"
          tabIndex={-1}
          aria-label={t('date.pick', { label })}
          onClick={() => {
            const input = picker.current;
            if (!input) return;
            input.value = read ?? '';
            try {
              input.showPicker();
            } catch {
              input.focus();
            }
          }}
        >
          <span aria-hidden="true">▦</span>
        </button>
        <input
          ref={picker}
          className="date-picker-native"
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            if (!e.target.value) return;
            setText(e.target.value);
            onChange(e.target.value);
          }}
        />
      </span>
      {invalid && (
        <span id={`${id}-problem`} className="field-problem" role="note">
          {t('date.invalid')}
        </span>
      )}
    </div>
  );
}

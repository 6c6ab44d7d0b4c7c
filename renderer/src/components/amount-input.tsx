import type { InputHTMLAttributes, Ref } from 'react';
import { tidyAmount } from '../money.ts';

/**
 * A field for an amount: typed freely ("3000", "3,000.5"), shown on leaving the field as figures
 * are shown everywhere ("3,000.00" in USD). What it holds is read with plainAmount before it is sent.
 */
export function AmountInput({
  value,
  onChange,
  currency,
  inputRef,
  ...props
}: {
  value: string;
  onChange: (value: string) => void;
  /** the currency whose digits the amount is shown with; none: left as typed */
  currency: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  return (
    <input
      {...props}
      ref={inputRef}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        if (currency && value.trim()) {
          const tidy = tidyAmount(value, currency);
          if (tidy !== value) onChange(tidy);
        }
        props.onBlur?.(e);
      }}
    />
  );
}

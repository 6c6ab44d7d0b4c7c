import type { AccountDto } from '../../api/index.ts';

/** An account picker; the empty choice is `optional`'s label, else none may stay chosen. */
export function AccountSelect({
  label,
  accounts,
  value,
  onChange,
  optional,
}: {
  label: string;
  accounts: readonly AccountDto[];
  value: string;
  onChange: (id: string) => void;
  optional?: string;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} required={!optional}>
        <option value="">{optional ?? '—'}</option>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.currency})
          </option>
        ))}
      </select>
    </label>
  );
}

/** A decimal typed as text (units, prices, amounts): the server reads it exactly. */
export function DecimalField({
  label,
  value,
  onChange,
  required = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  return (
    <label>
      {label}
      <input
        type="text"
        inputMode="decimal"
        required={required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

import type { ExportFormat } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';

/** A labelled choice of file format (ledger, hledger, beancount, CSV), named in the interface language. */
export function FormatSelect<F extends ExportFormat>({
  label,
  formats,
  value,
  onChange,
  className,
}: {
  label: string;
  formats: readonly F[];
  value: F;
  onChange: (format: F) => void;
  className?: string;
}) {
  const { t } = useI18n();
  return (
    <label className={className}>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as F)}>
        {formats.map((f) => (
          <option key={f} value={f}>
            {t(`format.${f}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

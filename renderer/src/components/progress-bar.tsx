/** A labelled horizontal bar for a value between 0 and max (reconciliation progress, score parts). */
export function ProgressBar({
  value,
  max = 100,
  label,
  text,
  tone,
}: {
  value: number;
  max?: number;
  label: string;
  text?: string;
  tone?: 'good' | 'warn' | 'bad';
}) {
  const share = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      className={`bar ${tone ? `bar-${tone}` : ''}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={text ?? String(value)}
    >
      <span className="bar-fill" style={{ width: `${share}%` }} />
    </div>
  );
}

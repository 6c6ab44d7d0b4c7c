/** A busy indicator for work in progress (loading, importing, a reconciliation run). */
export function Busy({ label, inline = false }: { label: string; inline?: boolean }) {
  return (
    <span role="status" aria-live="polite" className={inline ? 'busy busy-inline' : 'busy'}>
      <span className="spinner" aria-hidden="true" />
      {label}
    </span>
  );
}

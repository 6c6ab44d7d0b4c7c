import { groupDecimal, isNegative } from '../money.ts';

/** An exact decimal string from the server, grouped for reading, with its currency. */
export function Amount({
  value,
  currency,
  className,
}: {
  value: string;
  currency?: string | undefined;
  className?: string;
}) {
  return (
    <span className={['amount', isNegative(value) ? 'negative' : '', className ?? ''].join(' ').trim()}>
      {groupDecimal(value)}
      {currency && <span className="currency"> {currency}</span>}
    </span>
  );
}

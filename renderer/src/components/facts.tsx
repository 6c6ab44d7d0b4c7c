import type { ReactNode } from 'react';

export interface Fact {
  label: string;
  value: ReactNode;
  /** the value's `data-testid`, for the figures the e2e suite reads */
  testId?: string;
}

/** A short list of labelled figures ("Transactions 12", "Status Posted"); a `false` fact is left out. */
export function Facts({
  facts,
  className,
  label,
}: {
  facts: readonly (Fact | false)[];
  /** classes beside `facts` ('inline-facts') */
  className?: string;
  /** the list's accessible name */
  label?: string;
}) {
  return (
    <dl className={className ? `facts ${className}` : 'facts'} aria-label={label}>
      {facts
        .filter((fact): fact is Fact => fact !== false)
        .map((fact, index) => (
          <div key={index}>
            <dt>{fact.label}</dt>
            <dd data-testid={fact.testId}>{fact.value}</dd>
          </div>
        ))}
    </dl>
  );
}

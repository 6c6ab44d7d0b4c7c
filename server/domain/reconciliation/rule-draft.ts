import { normaliseDescription, payeeTokens } from './description.ts';

/** How a rule compares a bank description (rules.ts); apart, so that the interface takes it without the pattern engine. */
export const RULE_DESCRIPTION_OPS = ['contains', 'equals', 'starts_with', 'regex'] as const;
export type RuleDescriptionOp = (typeof RULE_DESCRIPTION_OPS)[number];

/**
 * What "make a rule from this" starts from for a bank description: `contains` the run of payee
 * words the payee starts with (at most three, as far as they stand together in the description's
 * normal form, so that the rule holds for the line it came from), named after them.
 */
export function ruleDraftFrom(description: string): { name: string; value: string } | null {
  const normal = ` ${normaliseDescription(description)} `;
  const payee = payeeTokens(description);
  const start = payee.findIndex((w) => normal.includes(w));
  if (start < 0) return null;
  const run = [payee[start]!];
  for (const w of payee.slice(start + 1, start + 3)) {
    if (!normal.includes(` ${[...run, w].join(' ')} `)) break;
    run.push(w);
  }
  const value = run.join(' ');
  return { name: value.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()), value };
}

import { payeeTokens, tokens } from './description.ts';

/** How a rule compares a bank description (rules.ts); apart, so that the interface takes it without the pattern engine. */
export const RULE_DESCRIPTION_OPS = ['contains', 'equals', 'starts_with', 'regex'] as const;
export type RuleDescriptionOp = (typeof RULE_DESCRIPTION_OPS)[number];

/**
 * What "make a rule from this" starts from for a bank description: `contains` the run of payee
 * words the description starts its payee with (at most three, as they stand in its normal form, so
 * that the rule holds for the line it came from), named after them.
 */
export function ruleDraftFrom(description: string): { name: string; value: string } | null {
  const payee = new Set(payeeTokens(description));
  const words = tokens(description);
  const run: string[] = [];
  for (const w of words) {
    if (payee.has(w) && !run.includes(w)) {
      run.push(w);
      if (run.length === 3) break;
    } else if (run.length > 0) break;
  }
  if (run.length === 0) return null;
  const value = run.join(' ');
  return { name: value.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()), value };
}

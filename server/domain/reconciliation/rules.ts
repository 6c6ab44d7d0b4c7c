import { RE2JS } from 're2js';
import { normaliseDescription } from './description.ts';
import type { RuleDescriptionOp } from './rule-draft.ts';

export { RULE_DESCRIPTION_OPS, ruleDraftFrom, type RuleDescriptionOp } from './rule-draft.ts';

/**
 * Categorisation rules (CONTRACT §13): a rule books a bank line against its account when all of its
 * conditions hold. `contains`, `equals` and `starts_with` compare the normalised texts (as the
 * description score does: case, accents, punctuation and spaces folded); `regex` searches the
 * description as written, ignoring case, with RE2's linear-time engine (re2js), so that no pattern a
 * user writes can make a bank line take more than linear time. Amount bounds are inclusive and exact.
 */

export interface RuleConditions {
  readonly description: { readonly op: RuleDescriptionOp; readonly value: string } | null;
  readonly type: 'debit' | 'credit' | null;
  /** Exact decimal text ("12.50"), or null for no bound. */
  readonly amountMin: string | null;
  readonly amountMax: string | null;
}

/** A part a rule books to another account before its own account takes the rest: exactly one of a fixed amount or a percentage (exact decimal text). */
export interface RuleSplit {
  readonly accountId: string;
  readonly amount: string | null;
  readonly percent: string | null;
}

export interface Rule extends RuleConditions {
  readonly id: string;
  readonly name: string;
  /** the account that takes the line, or the rest of it after the splits */
  readonly accountId: string;
  readonly memo: string | null;
  readonly splits?: readonly RuleSplit[];
}

/** A bank line as rules see it: its amount in minor units of a currency with `digits` decimals. */
export interface RuleTarget {
  readonly description: string;
  readonly type: 'debit' | 'credit';
  readonly amountMinor: bigint;
  readonly digits: number;
}

/** Why a rule's conditions cannot be used, by field; empty when they can. */
export function ruleProblems(conditions: RuleConditions): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const d = conditions.description;
  if (d === null && conditions.type === null && conditions.amountMin === null && conditions.amountMax === null)
    problems.push({ field: 'description', message: 'give at least one of description, type, amount_min, amount_max' });
  if (d !== null && d.op === 'regex') {
    const why = regexProblem(d.value);
    if (why !== null)
      problems.push({ field: 'description.value', message: `is not a regular expression RE2 reads: ${why}` });
  } else if (d !== null && normaliseDescription(d.value) === '') {
    problems.push({ field: 'description.value', message: 'has no letter or digit to compare' });
  }
  if (conditions.amountMin !== null && conditions.amountMax !== null) {
    if (compareDecimals(conditions.amountMin, conditions.amountMax) > 0)
      problems.push({ field: 'amount_min', message: 'must not be above amount_max' });
  }
  return problems;
}

function regexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A decimal text as an integer and its scale: "12.50" → 1250n, 2. */
function scaled(decimal: string): { units: bigint; scale: number } {
  const dot = decimal.indexOf('.');
  if (dot < 0) return { units: BigInt(decimal), scale: 0 };
  return { units: BigInt(decimal.slice(0, dot) + decimal.slice(dot + 1)), scale: decimal.length - dot - 1 };
}

function compareScaled(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): number {
  const x = a.units * 10n ** BigInt(Math.max(0, b.scale - a.scale));
  const y = b.units * 10n ** BigInt(Math.max(0, a.scale - b.scale));
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareDecimals(a: string, b: string): number {
  return compareScaled(scaled(a), scaled(b));
}

interface CompiledRule {
  readonly rule: Rule;
  readonly text: ((normalised: string, raw: string) => boolean) | null;
  readonly min: { units: bigint; scale: number } | null;
  readonly max: { units: bigint; scale: number } | null;
}

function compile(rule: Rule): CompiledRule {
  const d = rule.description;
  let text: CompiledRule['text'] = null;
  if (d !== null) {
    if (d.op === 'regex') {
      const pattern = RE2JS.compile(d.value, RE2JS.CASE_INSENSITIVE);
      text = (_normalised, raw) => pattern.matcher(raw).find();
    } else {
      const value = normaliseDescription(d.value);
      if (d.op === 'equals') text = (normalised) => normalised === value;
      else if (d.op === 'starts_with') text = (normalised) => normalised.startsWith(value);
      else text = (normalised) => normalised.includes(value);
    }
  }
  return {
    rule,
    text,
    min: rule.amountMin === null ? null : scaled(rule.amountMin),
    max: rule.amountMax === null ? null : scaled(rule.amountMax),
  };
}

/** Descriptions whose text tests are remembered, per rule set (a statement repeats its payees). */
const MEMO_LIMIT = 4096;

/**
 * Rules in their order (priority high first, then oldest), compiled once; `firstMatch` gives the
 * rule that books a line. The text tests of a description are remembered for the next line with
 * the same description, so a statement of 100,000 lines runs each pattern once per distinct text.
 */
export class RuleSet {
  readonly #rules: CompiledRule[];
  #memo = new Map<string, Uint8Array>();

  constructor(rules: readonly Rule[]) {
    this.#rules = rules.map(compile);
  }

  get size(): number {
    return this.#rules.length;
  }

  firstMatch(target: RuleTarget): Rule | undefined {
    if (this.#rules.length === 0) return undefined;
    const amount = { units: target.amountMinor, scale: target.digits };
    let tested = this.#memo.get(target.description);
    if (tested === undefined) {
      if (this.#memo.size >= MEMO_LIMIT) this.#memo = new Map();
      // 0: not yet tested, 1: holds, 2: does not
      tested = new Uint8Array(this.#rules.length);
      this.#memo.set(target.description, tested);
    }
    let normalised: string | undefined;
    for (let i = 0; i < this.#rules.length; i++) {
      const c = this.#rules[i]!;
      if (c.rule.type !== null && c.rule.type !== target.type) continue;
      if (c.min !== null && compareScaled(amount, c.min) < 0) continue;
      if (c.max !== null && compareScaled(amount, c.max) > 0) continue;
      if (c.text !== null) {
        if (tested[i] === 0) {
          normalised ??= normaliseDescription(target.description);
          tested[i] = c.text(normalised, target.description) ? 1 : 2;
        }
        if (tested[i] === 2) continue;
      }
      return c.rule;
    }
    return undefined;
  }
}

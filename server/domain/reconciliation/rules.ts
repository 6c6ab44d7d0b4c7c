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
 *
 * Linear is not cheap: RE2 reads each character once per instruction of the pattern's program, so a
 * pattern's cost is its program's size times the text's length. A regex rule is refused when it is
 * written if its repeats add up past MAX_REPEATS (checked before it is compiled), its program is
 * larger than MAX_RULE_PROGRAM, or a calibration match of a description of the longest length takes
 * more than RULE_CALIBRATION_MS. A RuleSet may also be given a budget of work (`maxWork`, in
 * program instructions times characters, compiling included) past which it answers no rule. A
 * pattern past MAX_REPEATS (a rule stored before the limits) is never compiled: it matches nothing.
 */

/** Repeat counts (`{n}`, `{n,m}`, `{n,}`) a pattern may add up to; re2js refuses nested ones past 1000. */
export const MAX_REPEATS = 500;
/** Instructions of a pattern's RE2 program. */
export const MAX_RULE_PROGRAM = 1000;
/** What a calibration match over CALIBRATION_TEXT may take at most (best of three), in ms. */
export const RULE_CALIBRATION_MS = 5;
/** A bank description of the longest length a statement takes (1,000 characters), of words, digits and marks. */
const CALIBRATION_TEXT = 'CARD 4821 POS TESCO STORES 2041 LONDON GB 23.10 REF:7730-AB/9 * '.repeat(16).slice(0, 1000);
/** What compiling costs, per instruction of the program, in the units of matching (instructions × characters). */
const COMPILE_UNITS_PER_INSTRUCTION = 300;

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

/** Why a rule's conditions cannot be used, by field; empty when they can. `clock` (ms) times the calibration match. */
export function ruleProblems(
  conditions: RuleConditions,
  clock: () => number = () => performance.now(),
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const d = conditions.description;
  if (d === null && conditions.type === null && conditions.amountMin === null && conditions.amountMax === null)
    problems.push({ field: 'description', message: 'give at least one of description, type, amount_min, amount_max' });
  if (d !== null && d.op === 'regex') {
    const message = regexProblem(d.value, clock);
    if (message !== null) problems.push({ field: 'description.value', message });
  } else if (d !== null && normaliseDescription(d.value) === '') {
    problems.push({ field: 'description.value', message: 'has no letter or digit to compare' });
  }
  if (conditions.amountMin !== null && conditions.amountMax !== null) {
    if (compareDecimals(conditions.amountMin, conditions.amountMax) > 0)
      problems.push({ field: 'amount_min', message: 'must not be above amount_max' });
  }
  return problems;
}

/** What a pattern's repeat counts add up to, read from its text (an escaped brace counts too). */
function repeatsOf(pattern: string): number {
  return [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].reduce(
    (sum, m) => sum + Math.max(Number(m[1]), Number(m[2] || 0)),
    0,
  );
}

function regexProblem(pattern: string, clock: () => number): string | null {
  const repeats = repeatsOf(pattern);
  if (repeats > MAX_REPEATS)
    return `is too costly to match: its repeats add up to ${repeats}, more than ${MAX_REPEATS}`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    return `is not a regular expression RE2 reads: ${error instanceof Error ? error.message : String(error)}`;
  }
  const size = compiled.programSize();
  if (size > MAX_RULE_PROGRAM)
    return `is too costly to match: it compiles to ${size} instructions, more than ${MAX_RULE_PROGRAM}`;
  let best = Infinity;
  for (let run = 0; run < 3 && best > RULE_CALIBRATION_MS; run++) {
    const started = clock();
    compiled.matcher(CALIBRATION_TEXT).find();
    best = Math.min(best, clock() - started);
  }
  if (best > RULE_CALIBRATION_MS)
    return `is too costly to match: a description of ${CALIBRATION_TEXT.length} characters takes it more than ${RULE_CALIBRATION_MS} ms`;
  return null;
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

/** A regex test, compiled when first needed. */
interface RegexTest {
  readonly source: string;
  compiled: RE2JS | undefined;
}

interface CompiledRule {
  readonly rule: Rule;
  readonly text: ((normalised: string) => boolean) | RegexTest | null;
  readonly min: { units: bigint; scale: number } | null;
  readonly max: { units: bigint; scale: number } | null;
}

function compile(rule: Rule): CompiledRule {
  const d = rule.description;
  let text: CompiledRule['text'] = null;
  if (d !== null) {
    if (d.op === 'regex') {
      text = { source: d.value, compiled: undefined };
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
 * Rules in their order (priority high first, then oldest); `firstMatch` gives the rule that books a
 * line. A regex is compiled when a line first needs it. The text tests of a description are
 * remembered for the next line with the same description, so a statement of 100,000 lines runs each
 * pattern once per distinct text. With `maxWork`, the regex work (compiling, and each match's
 * program size times its text's length) stops at that budget: a line whose rule would take a regex
 * test past it is answered with no rule, and `exhausted` says so.
 */
export class RuleSet {
  readonly #rules: CompiledRule[];
  #memo = new Map<string, Uint8Array>();
  readonly #maxWork: number;
  #work = 0;
  #exhausted = false;

  constructor(rules: readonly Rule[], maxWork = Infinity) {
    this.#rules = rules.map(compile);
    this.#maxWork = maxWork;
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Whether a line was answered with no rule because the budget of work was spent. */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** Whether the regex `test` finds a match in `raw`; undefined when the budget cannot pay for it. */
  #search(test: RegexTest, raw: string): boolean | undefined {
    if (this.#work >= this.#maxWork) return undefined;
    if (test.compiled === undefined) {
      // a rule stored before the limits may compile to megabytes and take seconds a line: it is not applied
      if (repeatsOf(test.source) > MAX_REPEATS) return false;
      test.compiled = RE2JS.compile(test.source, RE2JS.CASE_INSENSITIVE);
      this.#work += test.compiled.programSize() * COMPILE_UNITS_PER_INSTRUCTION;
      if (this.#work >= this.#maxWork) return undefined;
    }
    this.#work += test.compiled.programSize() * (raw.length + 1);
    return test.compiled.matcher(raw).find();
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
          let holds: boolean | undefined;
          if (typeof c.text === 'function') holds = c.text((normalised ??= normaliseDescription(target.description)));
          else holds = this.#search(c.text, target.description);
          if (holds === undefined) {
            this.#exhausted = true;
            return undefined;
          }
          tested[i] = holds ? 1 : 2;
        }
        if (tested[i] === 2) continue;
      }
      return c.rule;
    }
    return undefined;
  }
}

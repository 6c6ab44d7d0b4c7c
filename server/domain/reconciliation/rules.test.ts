import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_REPEATS,
  MAX_RULE_PROGRAM,
  RULE_CALIBRATION_MS,
  RuleSet,
  ruleDraftFrom,
  ruleProblems,
  type Rule,
} from './rules.ts';

const rule = (over: Partial<Rule>): Rule => ({
  id: over.id ?? 'r',
  name: 'r',
  accountId: 'groceries',
  memo: null,
  description: null,
  type: null,
  amountMin: null,
  amountMax: null,
  ...over,
});
const line = (description: string, amountMinor = 1000n, type: 'debit' | 'credit' = 'debit', digits = 2) => ({
  description,
  amountMinor,
  type,
  digits,
});

describe('rules', () => {
  it('when a rule compares text, then case, accents, punctuation and spaces are folded as the description score folds them', () => {
    const set = (op: 'contains' | 'equals' | 'starts_with', value: string) =>
      new RuleSet([rule({ description: { op, value } })]);
    expect(set('contains', "trader joe's").firstMatch(line('POS 1234 TRADER JOE’S #552'))).toBeDefined();
    expect(set('contains', 'TRADER  JOES').firstMatch(line('TRADER JOE S'))).toBeUndefined();
    expect(set('equals', 'Café Zürich').firstMatch(line('CAFE-ZURICH'))).toBeDefined();
    expect(set('equals', 'cafe').firstMatch(line('CAFE ZURICH'))).toBeUndefined();
    expect(set('starts_with', 'amazon').firstMatch(line('Amazon.com*AB12'))).toBeDefined();
    expect(set('starts_with', 'amazon').firstMatch(line('POS AMAZON'))).toBeUndefined();
  });

  it('when a rule is a regular expression, then it searches the text as written, ignoring case', () => {
    const set = new RuleSet([rule({ description: { op: 'regex', value: '^pos \\d{4} (tesco|aldi)' } })]);
    expect(set.firstMatch(line('POS 1234 ALDI SUED'))).toBeDefined();
    expect(set.firstMatch(line('POS 12 ALDI SUED'))).toBeUndefined();
  });

  it('when a pattern would backtrack without end in other engines, then it is read in linear time', () => {
    const set = new RuleSet([rule({ description: { op: 'regex', value: '(a+)+$' } })]);
    // a backtracking engine takes 2^1000 steps here; RE2 reads each character a bounded number of times
    expect(set.firstMatch(line(`${'a'.repeat(1000)}b`))).toBeUndefined();
  });

  it('when amounts are bounded, then the bounds are inclusive and exact in any currency digits', () => {
    const set = new RuleSet([rule({ amountMin: '10', amountMax: '12.5' })]);
    expect(set.firstMatch(line('x', 1000n))).toBeDefined();
    expect(set.firstMatch(line('x', 1250n))).toBeDefined();
    expect(set.firstMatch(line('x', 1251n))).toBeUndefined();
    expect(set.firstMatch(line('x', 999n))).toBeUndefined();
    // 12 JPY and 12.500 KWD
    expect(set.firstMatch(line('x', 12n, 'debit', 0))).toBeDefined();
    expect(set.firstMatch(line('x', 12501n, 'debit', 3))).toBeUndefined();
  });

  it('when several rules match, then the first in order books the line, and a type condition holds only its direction', () => {
    const set = new RuleSet([
      rule({ id: 'in', type: 'credit', description: { op: 'contains', value: 'acme' } }),
      rule({ id: 'any', description: { op: 'contains', value: 'acme' } }),
    ]);
    expect(set.firstMatch(line('ACME', 1n, 'credit'))?.id).toBe('in');
    expect(set.firstMatch(line('ACME', 1n, 'debit'))?.id).toBe('any');
  });

  it('when a rule set meets any line, then its answer is that of testing every rule in order afresh', () => {
    const rules = [
      rule({ id: 'a', description: { op: 'contains', value: 'shop' }, amountMax: '50' }),
      rule({ id: 'b', type: 'credit' }),
      rule({ id: 'c', description: { op: 'regex', value: '[0-9]{3}' } }),
    ];
    const set = new RuleSet(rules);
    fc.assert(
      fc.property(
        fc.constantFrom('SHOP 123', 'shop', 'BANK 12', 'x 999', 'SHOPPING'),
        fc.bigInt({ min: 1n, max: 10000n }),
        fc.constantFrom('debit' as const, 'credit' as const),
        (description, amountMinor, type) => {
          const fresh = new RuleSet(rules).firstMatch(line(description, amountMinor, type));
          expect(set.firstMatch(line(description, amountMinor, type))?.id).toBe(fresh?.id);
        },
      ),
    );
  });

  it('when a rule has no condition, a pattern RE2 cannot read, bounds the wrong way or text of no letters, then each problem names its field', () => {
    expect(ruleProblems(rule({})).map((p) => p.field)).toEqual(['description']);
    expect(ruleProblems(rule({ description: { op: 'regex', value: '(unclosed' } })).map((p) => p.field)).toEqual([
      'description.value',
    ]);
    expect(ruleProblems(rule({ description: { op: 'regex', value: '(a)\\1' } })).map((p) => p.field)).toEqual([
      'description.value',
    ]);
    expect(ruleProblems(rule({ description: { op: 'contains', value: '!!' } })).map((p) => p.field)).toEqual([
      'description.value',
    ]);
    expect(ruleProblems(rule({ amountMin: '10.00', amountMax: '9.99' })).map((p) => p.field)).toEqual(['amount_min']);
    expect(ruleProblems(rule({ amountMin: '10', amountMax: '10.00' }))).toEqual([]);
  });

  it('when a regex is costly to match, then it is refused naming what is too much: its repeats before compiling, its program size, or a slow calibration match', () => {
    const regex = (value: string) => rule({ description: { op: 'regex', value } });
    const messages = (r: Rule, clock?: () => number) => ruleProblems(r, clock).map((p) => p.message);
    // the review's pattern: 45 repeats of a thousand, ~37 MB compiled; refused before it is compiled
    expect(messages(regex(`${'(.?){1000}'.repeat(45)}Z`))).toEqual([
      `is too costly to match: its repeats add up to 45000, more than ${MAX_REPEATS}`,
    ]);
    // a hundred repeats of a three-instruction loop: within the repeats, past the program size
    expect(messages(regex('(.?){100}(.?){100}(.?){100}'))).toEqual([
      `is too costly to match: it compiles to 1202 instructions, more than ${MAX_RULE_PROGRAM}`,
    ]);
    // a clock that reads 10 ms per match: the calibration refuses it, whatever the machine
    let now = 0;
    const slow = () => (now += 10);
    expect(messages(regex('tesco'), slow)).toEqual([
      `is too costly to match: a description of 1000 characters takes it more than ${RULE_CALIBRATION_MS} ms`,
    ]);
    const fast = () => (now += 1);
    expect(messages(regex('^pos \\d{4} (tesco|aldi)'), fast)).toEqual([]);
  });

  it('when a rule set has a budget of work, then the lines past it are answered with no rule and the set says it ran out', () => {
    const rules = [
      rule({ id: 'costly', description: { op: 'regex', value: '(.?){200}z' } }),
      rule({ id: 'plain', description: { op: 'contains', value: 'shop' } }),
    ];
    const unbounded = new RuleSet(rules);
    const bounded = new RuleSet(rules, 2_000_000);
    const descriptions = Array.from({ length: 40 }, (_, i) => `shop ${i} ${'x'.repeat(200)}`);
    expect(descriptions.map((d) => unbounded.firstMatch(line(d))?.id)).toEqual(new Array(40).fill('plain'));
    expect(unbounded.exhausted).toBe(false);
    const answered = descriptions.map((d) => bounded.firstMatch(line(d))?.id);
    // each line costs the pattern's ~800 instructions times ~210 characters: a few lines fit in the budget
    const fitted = answered.indexOf(undefined);
    expect(fitted).toBeGreaterThan(0);
    expect(fitted).toBeLessThan(12);
    expect(answered.slice(0, fitted)).toEqual(new Array(fitted).fill('plain'));
    expect(answered.slice(fitted)).toEqual(new Array(40 - fitted).fill(undefined));
    expect(bounded.exhausted).toBe(true);
    // a rule stored before the limits, ~37 MB compiled and seconds a line: never compiled, it matches nothing
    const legacy = new RuleSet([
      rule({ id: 'legacy', description: { op: 'regex', value: `${'(.?){1000}'.repeat(45)}Z` } }),
      rule({ id: 'next', description: { op: 'contains', value: 'z' } }),
    ]);
    expect(legacy.firstMatch(line('Z'))?.id).toBe('next');
    expect(legacy.exhausted).toBe(false);
  });

  it('when a rule is drafted from a bank line, then it holds the first run of payee words, and the rule matches that line', () => {
    for (const [description, value] of [
      ["POS 1234 TRADER JOE'S #552 LOS ANGELES", 'trader joe'],
      ['D5438 TARGET00027599 SAN LUIS OBIS CA : Mobile Purchase Sign Based', 'target'],
      ['CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224', 'chase credit crd'],
      ['AMAZON 123 MKTP', 'amazon'],
    ] as const) {
      const draft = ruleDraftFrom(description)!;
      expect(draft.value).toBe(value);
      expect(
        new RuleSet([rule({ description: { op: 'contains', value: draft.value } })]).firstMatch(line(description)),
      ).toBeDefined();
    }
    expect(ruleDraftFrom('POS 123456')).toBeNull();
  });
});

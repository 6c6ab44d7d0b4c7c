import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuleSet, ruleDraftFrom, ruleProblems, type Rule } from './rules.ts';

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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOneToOne } from '../../../test/support/assign-one-to-one.ts';
import { compareForAssignment } from './assignment.ts';
import type { Assignable } from './assignment.ts';

function pair(txnId: string, entryId: string, total: number, dateDiffDays = 0, amount = 100): Assignable {
  return { txnId, entryId, total, dateDiffDays, breakdown: { amount } };
}

const ids = (xs: readonly Assignable[]) => xs.map((p) => `${p.txnId}-${p.entryId}`);

describe('assignOneToOne', () => {
  it('when two transactions want one entry, then the higher keeps it and the other gets its next best', () => {
    const chosen = assignOneToOne([
      pair('t2', 'e1', 90),
      pair('t1', 'e1', 95),
      pair('t2', 'e2', 70),
      pair('t1', 'e2', 88),
    ]);
    expect(ids(chosen)).toEqual(['t1-e1', 't2-e2']);
  });

  it('when one transaction fits two entries, then it takes the better and the other entry stays free for another', () => {
    const chosen = assignOneToOne([pair('t1', 'e1', 92), pair('t1', 'e2', 91), pair('t2', 'e2', 80)]);
    expect(ids(chosen)).toEqual(['t1-e1', 't2-e2']);
  });

  it('when greedy and the best sum disagree, then the highest score is still assigned first', () => {
    // sum-optimal would be t1-e2 + t2-e1 (80 + 80); the rule says the 95 goes first
    const chosen = assignOneToOne([
      pair('t1', 'e1', 95),
      pair('t1', 'e2', 80),
      pair('t2', 'e1', 80),
      pair('t2', 'e2', 10),
    ]);
    expect(ids(chosen)).toEqual(['t1-e1', 't2-e2']);
  });

  it('when totals tie, then the smaller date difference wins', () => {
    const chosen = assignOneToOne([pair('t1', 'e1', 80, 3), pair('t2', 'e1', 80, 1)]);
    expect(ids(chosen)).toEqual(['t2-e1']);
  });

  it('when totals and date differences tie, then the higher amount score wins', () => {
    const chosen = assignOneToOne([pair('t1', 'e1', 80, 2, 90), pair('t2', 'e1', 80, 2, 95)]);
    expect(ids(chosen)).toEqual(['t2-e1']);
  });

  it('when everything ties, then the smaller transaction id, then the smaller entry id wins', () => {
    expect(ids(assignOneToOne([pair('tb', 'e1', 80), pair('ta', 'e1', 80)]))).toEqual(['ta-e1']);
    expect(ids(assignOneToOne([pair('t1', 'eb', 80), pair('t1', 'ea', 80)]))).toEqual(['t1-ea']);
    // code-unit order, not locale order: 'B' (66) sorts before 'a' (97)
    expect(ids(assignOneToOne([pair('a', 'e1', 80), pair('B', 'e1', 80)]))).toEqual(['B-e1']);
  });

  it('when a minimum total is given, then pairs below it are never assigned', () => {
    const chosen = assignOneToOne([pair('t1', 'e1', 59), pair('t2', 'e2', 60)], { minTotal: 60 });
    expect(ids(chosen)).toEqual(['t2-e2']);
  });

  it('when the input is empty, then nothing is assigned', () => {
    expect(assignOneToOne([])).toEqual([]);
  });

  it('when a score is not finite, then it throws', () => {
    expect(() => assignOneToOne([pair('t1', 'e1', Number.NaN)])).toThrow(RangeError);
  });

  it('when assigning, then the input array is left as it was and the chosen objects are the input objects', () => {
    const input = [pair('t1', 'e1', 50), pair('t2', 'e2', 90)];
    const copy = [...input];
    const chosen = assignOneToOne(input);
    expect(input).toEqual(copy);
    expect(chosen[0]).toBe(input[1]);
  });

  const arbPairs = fc.array(
    fc.record({
      txnId: fc.constantFrom('t1', 't2', 't3', 't4', 't5'),
      entryId: fc.constantFrom('e1', 'e2', 'e3', 'e4'),
      total: fc.integer({ min: 0, max: 100 }),
      dateDiffDays: fc.integer({ min: 0, max: 30 }),
      breakdown: fc.record({ amount: fc.integer({ min: 0, max: 100 }) }),
    }),
    { maxLength: 30 },
  );

  it('when any pairs are assigned, then no transaction and no entry is used twice', () => {
    fc.assert(
      fc.property(arbPairs, (pairs) => {
        const chosen = assignOneToOne(pairs);
        expect(new Set(chosen.map((p) => p.txnId)).size).toBe(chosen.length);
        expect(new Set(chosen.map((p) => p.entryId)).size).toBe(chosen.length);
        for (const c of chosen) expect(pairs).toContain(c);
      }),
    );
  });

  it('when any pairs are assigned, then every pair left out conflicts with a chosen pair ranked no lower', () => {
    fc.assert(
      fc.property(arbPairs, (pairs) => {
        const chosen = assignOneToOne(pairs);
        for (const p of pairs) {
          if (chosen.includes(p)) continue;
          const blocker = chosen.find(
            (c) => (c.txnId === p.txnId || c.entryId === p.entryId) && compareForAssignment(c, p) <= 0,
          );
          expect(blocker, `${p.txnId}-${p.entryId}`).toBeDefined();
        }
        for (let i = 1; i < chosen.length; i++)
          expect(compareForAssignment(chosen[i - 1] as Assignable, chosen[i] as Assignable)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('when the input order changes, then the assignment does not', () => {
    fc.assert(
      fc.property(
        arbPairs.chain((pairs) =>
          fc.tuple(fc.constant(pairs), fc.shuffledSubarray(pairs, { minLength: pairs.length })),
        ),
        ([pairs, shuffled]) => {
          expect(ids(assignOneToOne(shuffled))).toEqual(ids(assignOneToOne(pairs)));
        },
      ),
    );
  });
});

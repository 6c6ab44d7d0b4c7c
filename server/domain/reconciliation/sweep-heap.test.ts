import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareForAssignment, type Assignable } from './assignment.ts';
import { AssignmentHeap } from './sweep-heap.ts';

const pair = fc.record({
  txnId: fc.constantFrom('t1', 't2', 't3'),
  entryId: fc.constantFrom('e1', 'e2', 'e3'),
  total: fc.integer({ min: 55, max: 100 }),
  dateDiffDays: fc.nat(3),
  breakdown: fc.record({ amount: fc.integer({ min: 97, max: 100 }) }),
});

describe('AssignmentHeap', () => {
  it('when pairs are pushed and popped in any order, then the top is always the first of those held in assignment order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(pair, { nil: undefined, freq: 3 }), { maxLength: 80 }), (steps) => {
        const heap = new AssignmentHeap<Assignable>();
        const held: Assignable[] = [];
        for (const step of steps) {
          if (step) {
            heap.push(step);
            held.push(step);
          } else if (held.length > 0) {
            heap.pop();
            held.sort(compareForAssignment).shift();
          }
          expect(heap.size).toBe(held.length);
          expect(heap.top).toEqual([...held].sort(compareForAssignment)[0]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('when cleared, then it holds nothing', () => {
    const heap = new AssignmentHeap<Assignable>();
    heap.push({ txnId: 't', entryId: 'e', total: 90, dateDiffDays: 0, breakdown: { amount: 100 } });
    heap.clear();
    expect([heap.size, heap.top]).toEqual([0, undefined]);
  });
});

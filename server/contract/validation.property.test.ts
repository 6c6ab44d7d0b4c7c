import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createStatementBody } from './statements.ts';
import { DomainError } from '../domain/errors.ts';
import { validate, validateConsuming } from './validation.ts';

/** What a validation gives: the value, or the error's code, detail and field errors. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message, errors: error.errors };
  }
}

const row = fc.oneof(
  fc.record(
    {
      date: fc.oneof(fc.constant('2025-03-04'), fc.constant('2025-02-30'), fc.constant('yesterday'), fc.integer()),
      description: fc.oneof(fc.constant('COFFEE'), fc.constant('  '), fc.string({ maxLength: 3 })),
      amount: fc.oneof(fc.constant('12.50'), fc.constant('-1'), fc.constant('1e3'), fc.double()),
      type: fc.oneof(fc.constant('debit'), fc.constant('credit'), fc.constant('DEBIT')),
      external_id: fc.oneof(fc.constant(null), fc.constant('FIT-1'), fc.constant('')),
      memo: fc.string({ maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.constant(null),
  fc.integer(),
  fc.array(fc.integer(), { maxLength: 2 }),
);

const body = fc.record(
  {
    account_id: fc.oneof(fc.constant('00000000-0000-4000-8000-000000000000'), fc.integer(), fc.constant(null)),
    name: fc.oneof(fc.constant('March'), fc.constant(' '), fc.integer()),
    transactions: fc.oneof(fc.array(row, { maxLength: 6 }), fc.constant('rows'), fc.constant(null)),
    extra: fc.string({ maxLength: 2 }),
  },
  { requiredKeys: [] },
);

describe('validateConsuming', () => {
  it('when any statement body is checked item by item, then the answer and every error are those of checking it whole', () => {
    fc.assert(
      fc.property(fc.oneof(body, fc.constant(null), fc.constant([]), fc.string()), (value) => {
        const whole = outcome(() => validate(createStatementBody, structuredClone(value), 'body'));
        const consuming = outcome(() =>
          validateConsuming(createStatementBody, 'transactions', structuredClone(value), 'body'),
        );
        expect(consuming).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('when the array breaks its own length limit, then that is the error, as when checked whole', () => {
    const schema = z.strictObject({
      id: z.string(),
      rows: z.array(z.strictObject({ a: z.string() })).max(2),
      tail: z.number().optional(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ a: fc.string() }), fc.record({ b: fc.integer() })), { maxLength: 5 }),
        fc.boolean(),
        (rows, extra) => {
          const value = { id: 1, rows, tail: 'x', ...(extra ? { more: 1 } : {}) };
          expect(outcome(() => validateConsuming(schema, 'rows', structuredClone(value), 'body'))).toEqual(
            outcome(() => validate(schema, structuredClone(value), 'body')),
          );
        },
      ),
    );
  });

  it('when it has checked the items, then the input array holds none of them', () => {
    const value = {
      account_id: 'a',
      transactions: [{ date: '2025-01-02', description: 'X', amount: '1.00', type: 'debit' }],
    };
    const checked = validateConsuming(createStatementBody, 'transactions', value, 'body');
    expect(checked.transactions).toHaveLength(1);
    expect(value.transactions).toEqual([undefined]);
  });
});

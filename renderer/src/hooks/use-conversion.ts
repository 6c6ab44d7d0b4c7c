import { useCallback } from 'react';
import { ApiError, convertAmount, type ConversionDto } from '../api/index.ts';
import { parseAmount, plainAmount } from '../../../server/contract/money.ts';
import { useLoader, type Loaded } from './use-loader.ts';

/** What the rate table says of an amount on a day: its conversion, or `missing` when it has no rate then. */
export type RateTableAnswer = ConversionDto | 'missing';

/**
 * `amount` (as typed) of `from` in `to` at the rate table's rate of `date`, as booking converts it;
 * 'missing' without a rate; null when there is nothing to convert yet (no amount, one currency).
 */
export async function lookUpConversion(
  amount: string,
  from: string,
  to: string,
  date: string,
): Promise<RateTableAnswer | null> {
  const plain = plainAmount(amount);
  if (from === to || !('minor' in parseAmount(plain, from))) return null;
  try {
    return await convertAmount({ amount: plain, from, to, date });
  } catch (failure) {
    if (failure instanceof ApiError && failure.code === 'MISSING_RATE') return 'missing';
    throw failure;
  }
}

/** lookUpConversion, looked up again whenever its inputs change (and on reload: a rate was entered). */
export function useConversion(amount: string, from: string, to: string, date: string): Loaded<RateTableAnswer | null> {
  const load = useCallback(() => lookUpConversion(amount, from, to, date), [amount, from, to, date]);
  return useLoader(load, [load]);
}

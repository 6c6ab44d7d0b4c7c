import { formatUnits, PRICE_DECIMALS, UNIT_DECIMALS, UNIT_SCALE } from '../lots.ts';
import { formatMinor } from '../money.ts';
import { divideHalfEven } from '../rates.ts';
import type { BookLine, BookUnits } from './types.ts';

/**
 * A trade's units in the journal formats (docs/investments.md "Interop"). Beancount holds each lot at
 * its cost per unit and reduces it by cost and date (`-4 VTI {210.50 USD, 2024-01-05} @ 250.00 USD`);
 * ledger annotates the lot the same way (`{210.50 USD} [2024-01-05]`, or its total cost `{{…}}` when
 * the units times a per-unit cost would not give the cents exactly) and weighs a sale at that cost;
 * hledger, which keeps no lots, weighs the units at their cost (`@ 210.50 USD`, or `@@` the total).
 */

const MAX_EXACT_DECIMALS = 20;

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** num / den as decimal text when it ends within MAX_EXACT_DECIMALS decimals; else null. */
function exactDecimal(num: bigint, den: bigint): string | null {
  const g = gcd(num, den);
  let d = den / g;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) [d, twos] = [d / 2n, twos + 1];
  while (d % 5n === 0n) [d, fives] = [d / 5n, fives + 1];
  const places = Math.max(twos, fives);
  if (d !== 1n || places > MAX_EXACT_DECIMALS) return null;
  const scaled = ((num / g) * 10n ** BigInt(places)) / (den / g);
  const text = scaled.toString().padStart(places + 1, '0');
  const whole = text.slice(0, text.length - places);
  const fraction = text.slice(text.length - places).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A lot's cost per unit from what it was bought for: exact when the decimal ends, else rounded half to
 * even to 10 decimals (then `exact` is false).
 */
export function lotUnitCost(basisMinor: bigint, unitsAtoms: bigint, digits: number): { text: string; exact: boolean } {
  const num = basisMinor * UNIT_SCALE;
  const den = unitsAtoms * 10n ** BigInt(digits);
  const exact = exactDecimal(num, den);
  if (exact !== null) return { text: exact, exact: true };
  const scaled = divideHalfEven(num * 10n ** BigInt(PRICE_DECIMALS), den);
  return { text: exactDecimal(scaled, 10n ** BigInt(PRICE_DECIMALS))!, exact: false };
}

/** Whether atoms × unit cost (exact decimal text) is exactly `costMinor` of a currency with `digits`. */
export function costsExactly(atoms: bigint, unitCost: string, costMinor: bigint, digits: number): boolean {
  const [whole, fraction = ''] = unitCost.split('.');
  const scaledCost = BigInt(whole! + fraction);
  const abs = atoms < 0n ? -atoms : atoms;
  // atoms / 10^8 × scaledCost / 10^f == costMinor / 10^digits
  return abs * scaledCost * 10n ** BigInt(digits) === costMinor * 10n ** BigInt(UNIT_DECIMALS + fraction.length);
}

type Flavor = 'beancount' | 'ledger' | 'hledger';

/** One posting's amount text for units of a security. */
export function unitsAmount(u: BookUnits, currency: string, flavor: Flavor): string {
  const units = `${formatUnits(u.atoms)} ${u.symbol}`;
  const total = `${formatMinor(u.costMinor, currency)} ${currency}`;
  const sale = u.price === null ? '' : ` @ ${u.price} ${currency}`;
  if (flavor === 'beancount')
    return u.atoms > 0n
      ? `${units} {${u.unitCost} ${currency}}`
      : `${units} {${u.unitCost} ${currency}, ${u.lotDate}}${sale}`;
  if (flavor === 'ledger')
    return `${units} ${u.exact ? `{${u.unitCost} ${currency}}` : `{{${total}}}`} [${u.lotDate}]${sale}`;
  return `${units} ${u.exact ? `@ ${u.unitCost} ${currency}` : `@@ ${total}`}`;
}

/** A line's postings as amount texts: its money, or its units (one posting each) when it carries them. */
export function lineAmounts(l: BookLine, flavor: Flavor): string[] | null {
  if (!l.units || l.units.length === 0) return null;
  return l.units.map((u) => unitsAmount(u, l.currency, flavor));
}

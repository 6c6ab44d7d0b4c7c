/**
 * How a bank prints a line: what a bank needs to know of a line, and the pieces of dates, times and
 * numbers banks print. The banks themselves: development-banks.ts and held-out-banks.ts.
 */
import type { Random } from './random.ts';
import type { Region, Split } from './bank-regions.ts';

/** How a line comes about; a bank prints each kind its own way. */
export type Kind = 'card' | 'bill' | 'salary' | 'interest' | 'fee' | 'savings' | 'cardPayment' | 'atm' | 'refund';

export interface Line {
  kind: Kind;
  /** the merchant as the bank prints it (upper or mixed case, store number and all) */
  name: string;
  city: string;
  region: string;
  date: string;
  /** minutes after midnight */
  minute: number;
  cents: number;
}

export const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export const digits = (r: Random, n: number) => Array.from({ length: n }, () => String(r.int(0, 9))).join('');
export const mmdd = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}`;
export const ddmm = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
export const MONTHS_EN = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export function clock12(minute: number): string {
  const h = Math.floor(minute / 60);
  return `${pad(((h + 11) % 12) + 1)}:${pad(minute % 60)}${h < 12 ? 'a' : 'p'}`;
}
export const clock24 = (minute: number, sep = ':') => `${pad(Math.floor(minute / 60))}${sep}${pad(minute % 60)}`;

export interface Bank {
  id: string;
  split: Split;
  region: Region;
  language: 'en' | 'zh';
  statementAccount: 'checking' | 'card';
  /** the description of a line, new numbers each time as the bank would print them */
  print(line: Line, r: Random, card: string): string;
}

/**
 * A card's statement: purchases, refunds and bills as the issuer prints the merchant; payments to
 * the card, charges and credits in its words (of two, each at even odds). A card prints no salary,
 * savings transfer or cash withdrawal.
 */
export function cardStatement(words: {
  merchant: (line: Line, r: Random) => string;
  payment: readonly [string, string];
  fee: readonly [string, string];
  interest: string;
}): Bank['print'] {
  return (l, r) => {
    switch (l.kind) {
      case 'card':
      case 'refund':
      case 'bill':
        return words.merchant(l, r);
      case 'cardPayment':
        return r.chance(0.5) ? words.payment[0] : words.payment[1];
      case 'fee':
        return r.chance(0.5) ? words.fee[0] : words.fee[1];
      case 'interest':
        return words.interest;
      case 'salary':
      case 'savings':
      case 'atm':
        throw new Error(`a card does not print ${l.kind}`);
    }
  };
}

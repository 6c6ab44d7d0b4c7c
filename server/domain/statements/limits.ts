/** Hard limits that keep every parser fast on hostile input. */
export const LIMITS = {
  /** Larger files are refused before decoding. */
  maxFileBytes: 32 * 1024 * 1024,
  /** Default for `maxTransactions`. */
  maxTransactions: 100_000,
  /** A CSV/QIF/OFX line longer than this (in characters) is refused. */
  maxLineChars: 65_536,
  /** A CSV row or header with more fields than this is refused. */
  maxCsvColumns: 200,
  /** Element nesting deeper than this is refused (OFX and CAMT). */
  maxDepth: 64,
  /** A numeric string longer than this is not an amount. */
  maxAmountChars: 40,
} as const;

/**
 * A list of fixed words as SQL text, `('a', 'b')`, for a rule's list written once in code and read
 * by raw SQL. Written out rather than bound, so that SQLite can match it to a partial index's WHERE
 * and plan the query once. Only for the code's own constants, never for input.
 */
export function sqlWords(words: readonly string[]): string {
  return `(${words.map((w) => `'${w}'`).join(', ')})`;
}

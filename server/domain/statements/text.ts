/** Small text helpers shared by the parsers. */

/** Collapses every run of whitespace (including NBSP and line breaks) to one space and trims; drops control characters. */
export function cleanText(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ')
    .trim();
}

/** Joins the non-empty cleaned parts with `separator`. */
export function joinText(parts: (string | null | undefined)[], separator = ' '): string {
  return parts
    .map(cleanText)
    .filter((p) => p !== '')
    .join(separator);
}

export const NO_DESCRIPTION = '(no description)';

/** Longer descriptions are cut (with '…'): the statements API accepts at most 1000 characters. */
const MAX_DESCRIPTION = 1000;

export function limitDescription(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  return `${text.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…`;
}

/** Turns character offsets into 1-based line numbers. */
export class LineIndex {
  readonly #starts: number[];

  constructor(text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#starts = starts;
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.#starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** Replaces CRLF and lone CR by LF so that line numbers and record breaks agree across files. */
export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The 1-based number of the first line longer than `max` characters, or 0. */
export function firstOverlongLine(text: string, max: number): number {
  let line = 1;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > max) return line;
    if (end === -1) return 0;
    start = end + 1;
    line += 1;
  }
}

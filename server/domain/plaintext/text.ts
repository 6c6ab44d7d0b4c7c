/**
 * Memos in one-line descriptions. A ledger/hledger description cannot hold a line break, and
 * hledger ends it at any `;`; a description that is not the memo exactly is followed by the memo
 * itself as `memo: "<JSON string>"`, which the import reads back.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The memo as a ledger/hledger description (which must not start a code or a status either). */
export function ledgerDescription(memo: string): string {
  return memo
    .replace(CONTROL, ' ')
    .replace(/;/g, ',')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .replace(/^[(*!]+\s*/, '');
}

/** The memo as a beancount string body: backslash escapes for `\`, `"`, newline and tab. */
export function beancountString(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/** Whether a beancount string holds the memo exactly (its other control characters would not survive). */
export function beancountHolds(text: string): boolean {
  return !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);
}

/** Reads our `memo: "<JSON string>"` comment or metadata value back; undefined when it is not ours. */
export function readMemoJson(value: string): string | undefined {
  const text = value.trim();
  if (!text.startsWith('"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MARKS = { id: 'id', 'voided-by': 'voidedBy', reverses: 'reverses' } as const;

/** Records our export's `id` / `voided-by` / `reverses` mark on a transaction (other tags are the user's own). */
export function readMark(
  marks: { id?: string; voidedBy?: string; reverses?: string } | undefined,
  key: string,
  value: string,
): typeof marks {
  const field = MARKS[key as keyof typeof MARKS];
  const id = value.trim().replace(/^"(.*)"$/, '$1');
  if (!field || !UUID.test(id)) return marks;
  return { ...marks, [field]: id };
}

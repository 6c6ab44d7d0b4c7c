import { ApiError } from '../api/index.ts';
import { FIELD_MESSAGES, tooLongLimit, tooManyDecimalsCurrency } from '../../../server/contract/limits.ts';
import type { MessageKey, Translate } from '../i18n/index.ts';

const FIELD_WORDS: Record<keyof typeof FIELD_MESSAGES, MessageKey> = {
  required: 'field.required',
  blank: 'field.blank',
  negative: 'field.negative',
  amount: 'field.amount',
  budgetAmount: 'field.amount',
  balance: 'field.balance',
  rate: 'field.rate',
  date: 'field.date',
  month: 'field.month',
  currency: 'field.currency',
  unknownField: 'field.unknownField',
  zero: 'field.zero',
  tooLarge: 'field.tooLarge',
};

const KEY_BY_MESSAGE = new Map<string, MessageKey>(
  Object.entries(FIELD_MESSAGES).map(([name, message]) => [message, FIELD_WORDS[name as keyof typeof FIELD_MESSAGES]]),
);

/** A field error of the server (`must not be negative`) in the interface language; a message it does not know stays as sent. */
export function fieldReason(message: string, t: Translate): string {
  const key = KEY_BY_MESSAGE.get(message);
  if (key) return t(key);
  const max = tooLongLimit(message);
  if (max !== null) return t('field.tooLong', { max });
  const currency = tooManyDecimalsCurrency(message);
  if (currency !== null) return t('field.tooManyDecimals', { currency });
  return message;
}

/** The field errors of a refused request (VALIDATION_ERROR and the like), or none. */
function fieldErrors(error: unknown): { field: string; message: string }[] {
  return error instanceof ApiError ? error.errors : [];
}

/** What the server said of one field (by its path, `lines.1.amount`), in the interface language, or undefined. */
export function fieldProblem(error: unknown, field: string, t: Translate): string | undefined {
  const found = fieldErrors(error).find((e) => e.field === field);
  return found ? fieldReason(found.message, t) : undefined;
}

/**
 * The attributes that mark a field the server refused (aria-invalid, and the message beside it as
 * its description), or none while it is fine.
 */
export function invalidField(problem: string | undefined, messageId: string) {
  return problem ? { 'aria-invalid': true as const, 'aria-describedby': messageId } : {};
}

/** The reason beside a refused field. */
export function FieldError({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <span id={id} className="field-error">
      {problem}
    </span>
  );
}

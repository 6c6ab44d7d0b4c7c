import { z } from 'zod';
import { DomainError, type FieldError } from '../domain/errors.ts';
import { FIELD_MESSAGES } from './limits.ts';

/**
 * Request validation against the contract's zod schemas: a value that fails is a VALIDATION_ERROR
 * whose `errors` name each field by its path. The HTTP layer checks every request with it; the job
 * worker checks the bodies it parses off the event loop (a statement's rows) with the same rules.
 */

/** zod issues as `{ field, message }`, each field named by its path (`lines.1.amount`). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], where: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ field: base ? `${base}.${key}` : key, message: FIELD_MESSAGES.unknownField });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ field: base || where, message: FIELD_MESSAGES.required });
    } else {
      out.push({ field: base || where, message: issue.message });
    }
  }
  return out;
}

export function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  // reportInput: an issue then tells a missing field (input undefined) from one of the wrong type.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw invalid(result.error.issues, where);
}

function invalid(issues: readonly z.core.$ZodIssue[], where: string): DomainError {
  const errors = fieldErrors(issues, where);
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new DomainError('VALIDATION_ERROR', `Invalid ${where}: ${first.field} ${first.message}${more}`, errors);
}

/**
 * validate() for an object with one long array (a statement's 100,000 transactions), consuming its
 * input: the same answer and the same errors, but the items are checked one at a time and each
 * input item is let go once checked, so that the body is never held twice (parsed and checked).
 */
export function validateConsuming<S extends z.ZodObject>(
  schema: S,
  key: string & keyof S['shape'],
  value: unknown,
  where: string,
): z.infer<S> {
  const field = schema.shape[key];
  const items =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)[key]
      : undefined;
  if (!(field instanceof z.ZodArray) || !Array.isArray(items)) return validate(schema, value, where) as z.infer<S>;
  // the object with the array's own checks (its length) but not its items'
  const envelope = schema.extend({
    [key]: z.array(z.unknown()).check(...((field.def.checks ?? []) as z.core.$ZodCheck<unknown[]>[])),
  });
  const outer = envelope.safeParse(value, { reportInput: true });
  const outerIssues = outer.success ? [] : outer.error.issues;
  // As zod does, an array that fails its own checks has its items left unchecked.
  const element = field.element as z.ZodType;
  const checked: unknown[] = new Array(items.length);
  const itemIssues: z.core.$ZodIssue[] = [];
  if (!outerIssues.some((issue) => issue.path[0] === key)) {
    for (let i = 0; i < items.length; i++) {
      const result = element.safeParse(items[i], { reportInput: true });
      if (result.success) checked[i] = result.data;
      else for (const issue of result.error.issues) itemIssues.push({ ...issue, path: [key, i, ...issue.path] });
      items[i] = undefined;
    }
  }
  if (outerIssues.length === 0 && itemIssues.length === 0)
    return { ...(outer.data as object), [key]: checked } as z.infer<S>;
  // zod's order: the fields in the schema's order, then unknown fields
  const keys = Object.keys(schema.shape);
  const after = (issue: z.core.$ZodIssue) =>
    issue.path.length === 0 ? true : keys.indexOf(String(issue.path[0])) > keys.indexOf(key);
  const at = outerIssues.findIndex(after);
  const issues =
    at < 0 ? [...outerIssues, ...itemIssues] : [...outerIssues.slice(0, at), ...itemIssues, ...outerIssues.slice(at)];
  throw invalid(issues, where);
}

/** For a route that takes no query or body: an empty object passes, anything else is VALIDATION_ERROR. */
export function refuseFields(value: unknown, where: 'query' | 'body'): Record<string, never> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return {};
    const errors = keys.map((key) => ({ field: key, message: FIELD_MESSAGES.unknownField }));
    throw new DomainError(
      'VALIDATION_ERROR',
      `Invalid ${where}: ${keys[0]} is not a known field${keys.length > 1 ? ` (and ${keys.length - 1} more)` : ''}`,
      errors,
    );
  }
  throw new DomainError('VALIDATION_ERROR', `Invalid ${where}: this endpoint takes no ${where}`, [
    { field: where, message: 'must be empty' },
  ]);
}

import type { Request, Response } from 'express';
import { z } from 'zod';
import { DomainError, type FieldError } from '../domain/errors.ts';
import type { LedgerDb } from '../db/stores.ts';
import type { AttemptLimiter } from './rate-limit.ts';

export interface Session {
  userId: string;
  /** The server-side session the request's token belongs to. */
  sessionId: string;
  ledger: LedgerDb;
  /** Lets the ledger be closed again once the request is done (the app calls it when the answer ends). */
  release?(): void;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The authenticated user and their ledger; only on routes with `auth: true`. */
  session: Session;
}

/** What a handler answers; `undefined` when it wrote the response itself (a stream). */
export type RouteResult = { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

export interface ResponseDoc {
  status: number;
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

/**
 * One route: its schemas validate the request and document it in the OpenAPI description, so the
 * two can never drift apart.
 */
export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Counts every attempt per client address before anything else, whether it succeeds or not. */
  rateLimit?: AttemptLimiter;
  /** Request body content types other than JSON (file uploads). */
  rawBody?: { contentTypes: string[]; description: string; limit: string };
  /**
   * A JSON body too large to parse on the event loop: read as bytes up to `limit` (the handler
   * gets them as `req.body`, a Buffer) for a job to parse and validate with `body`, which still
   * documents it.
   */
  deferredJson?: { limit: string };
  /**
   * A pure read of the ledger (GET, answer a function of the ledger's data, the URL and the day):
   * its 200 answers are kept and given again until the ledger changes (http/response-cache.ts).
   */
  cacheable?: boolean;
  responses: ResponseDoc[];
  handler(ctx: RouteContext<P, Q, B>): Promise<RouteResult> | RouteResult;
}

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteDef<P, Q, B>,
): RouteDef {
  return def as unknown as RouteDef;
}

/** zod issues as `{ field, message }`, each field named by its path (`lines.1.amount`). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], where: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: base ? `${base}.${key}` : key, message: 'is not a known field' });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ field: base || where, message: 'is required' });
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

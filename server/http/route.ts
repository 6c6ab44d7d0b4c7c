import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AttemptLimiter } from './rate-limit.ts';

/**
 * What the HTTP layer needs of a user's ledger: the version of its data, which tells a kept answer
 * from a stale one (response-cache.ts). The server's wiring hands the features' ledger database in
 * (`createApp`'s `openSession`); the features' routes see it as that (features/define-route.ts).
 */
export interface VersionedLedger {
  changeVersion(): string;
}

export interface Session<L extends VersionedLedger = VersionedLedger> {
  userId: string;
  /** The server-side session the request's token belongs to. */
  sessionId: string;
  ledger: L;
  /** Lets the ledger be closed again once the request is done (the app calls it when the answer ends). */
  release?(): void;
}

interface RouteContext<P, Q, B, L extends VersionedLedger = VersionedLedger> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The authenticated user and their ledger; only on routes with `auth: true`. */
  session: Session<L>;
}

/** What a handler answers; `undefined` when it wrote the response itself (a stream). */
export type RouteResult = { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

export interface ResponseDoc {
  status: number;
  description: string;
  schema?: z.ZodType;
  /** The media types of the body (JSON unless given); each carries `schema`. */
  contentTypes?: string[];
  /** Headers this answer carries beyond those of every answer (see the document's description). */
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/**
 * One route but its handler: its schemas validate the request and document it in the OpenAPI
 * description (which reads only this much of a route), so the two can never drift apart.
 */
export interface RouteDoc<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Counts every attempt per client address before anything else, whether it succeeds or not. */
  rateLimit?: AttemptLimiter;
  /**
   * Request body content types other than JSON (file uploads). `parts` describes the fields of a
   * `multipart/form-data` body (a binary `file` part and text fields); the other types carry the file itself.
   */
  rawBody?: { contentTypes: string[]; description: string; limit: string; parts?: z.ZodObject };
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
}

/** One route: its documentation and its handler, which gets the session's ledger as an `L`. */
export interface RouteDef<
  P = unknown,
  Q = unknown,
  B = unknown,
  L extends VersionedLedger = VersionedLedger,
> extends RouteDoc<P, Q, B> {
  handler: (ctx: RouteContext<P, Q, B, L>) => Promise<RouteResult> | RouteResult;
}

/**
 * `defineRoute` for handlers that see the session's ledger as an `L`: the types of params, query and
 * body are inferred from the route's own schemas, then set aside so that routes fit in one list.
 */
export function routeDefiner<L extends VersionedLedger = VersionedLedger>() {
  return function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
    def: RouteDef<P, Q, B, L>,
  ): RouteDef<unknown, unknown, unknown, L> {
    return def as unknown as RouteDef<unknown, unknown, unknown, L>;
  };
}

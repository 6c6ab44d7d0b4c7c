import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { DomainError } from '../domain/errors.ts';
import { credentialsFromRequest, BAD_CREDENTIALS, type Credentials, type TokenConfig } from './auth.ts';
import { localToday } from '../domain/dates.ts';
import { errorMiddleware, sendError } from './errors.ts';
import { ResponseCache } from './response-cache.ts';
import type { RouteDef, Session, VersionedLedger } from './route.ts';
import { refuseFields, validate } from '../contract/validation.ts';
import { clientAddress, refuseTooMany } from './rate-limit.ts';
import { loopbackGuard } from './security.ts';

export const JSON_LIMIT = '1mb';

/** What the app is made of; `L` is the ledger the server's wiring opens for a session. */
export interface AppDeps<L extends VersionedLedger = VersionedLedger> {
  routes: RouteDef<unknown, unknown, unknown, L>[];
  token: TokenConfig;
  /**
   * The session of a token's credentials while it is live (its user exists, it was not ended), or
   * undefined; a promise while the user's ledger is migrated.
   */
  openSession(credentials: Credentials): Session<L> | undefined | Promise<Session<L>>;
  trustProxy: boolean;
  port: () => number;
  rendererDir: string | null;
  log: (line: string) => void;
  /** The long-job runner: a user's writing requests wait until that user's jobs are done. */
  jobs?: { idle(userId: string): Promise<void> };
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/** Reads a raw upload body into req.body (a Buffer); its errors are body-parser's, mapped as for JSON. */
function readRawBody(req: Request, res: Response, limit: string): Promise<void> {
  return new Promise((resolve, reject) => {
    express.raw({ limit, type: () => true })(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

/** A JSON answer in bytes, written without Express's send (its conversions and checks are for other bodies). */
function sendJsonBytes(res: Response, bytes: Buffer, status = 200): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes); // Node sends no body to a HEAD
}

function mount<L extends VersionedLedger>(
  app: Express,
  def: RouteDef<unknown, unknown, unknown, L>,
  deps: AppDeps<L>,
  responses: ResponseCache,
): void {
  app[def.method](def.path, async (req: Request, res: Response) => {
    if (def.rateLimit) {
      const verdict = def.rateLimit.attempt(clientAddress(req));
      if (!verdict.allowed) refuseTooMany(res, verdict.retryAfterSeconds);
    }
    let session: Session<L> | undefined;
    if (def.auth) {
      const opened = deps.openSession(credentialsFromRequest(req, deps.token));
      session = opened instanceof Promise ? await opened : opened;
      if (!session) throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
      // The ledger stays open for this request until its answer ends (or the client went away meanwhile).
      if (session.release) {
        if (res.closed) session.release();
        else res.once('close', session.release);
      }
    }
    const cacheKey =
      def.cacheable && session && def.method === 'get' ? `${localToday()} ${req.originalUrl}` : undefined;
    if (cacheKey !== undefined) {
      const kept = responses.get(session!.ledger, cacheKey);
      if (kept !== undefined) {
        sendJsonBytes(res, kept);
        return;
      }
    }
    const version = cacheKey !== undefined ? session!.ledger.changeVersion() : undefined;
    const params = def.params ? validate(def.params, req.params, 'path') : req.params;
    // A route without a query (or body) schema takes none: unknown fields are refused, not ignored.
    const query = def.query ? validate(def.query, { ...req.query }, 'query') : refuseFields({ ...req.query }, 'query');
    if (def.rawBody) {
      // Read first (up to the limit, so that a body over it is 413 in any media type), then its type.
      if (!req.is('multipart/form-data')) await readRawBody(req, res, def.rawBody.limit);
      if (hasBody(req) && !req.is(def.rawBody.contentTypes)) {
        throw new DomainError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the request body as ${def.rawBody.contentTypes.join(' or ')}`,
        );
      }
    }
    let body: unknown;
    if (def.deferredJson) {
      // Read as bytes; the handler's job parses and validates them off the event loop.
      if (hasBody(req) && !req.is('application/json')) {
        throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
      }
      await readRawBody(req, res, def.deferredJson.limit);
    } else if (def.body) {
      if (hasBody(req) && !req.is('application/json')) {
        throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
      }
      // No body at all is an empty object; a JSON null, string or number is a body of the wrong type.
      body = validate(def.body, req.body === undefined ? {} : req.body, 'body');
    } else if (!def.rawBody) {
      // A route without a body takes none: a JSON one is checked as an empty object, any other is refused.
      if (req.body !== undefined) refuseFields(req.body, 'body');
      else if (hasBody(req)) refuseFields(null, 'body');
    }
    // A write waits for the user's long jobs (imports, reconciliation runs) instead of meeting their lock.
    if (session && def.method !== 'get' && deps.jobs) await deps.jobs.idle(session.userId);
    const result = await def.handler({ params, query, body, req, res, session: session as Session<L> });
    if (!result) return;
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    if (result.body === undefined) res.status(result.status).end();
    else if (cacheKey !== undefined && version !== undefined && result.status === 200) {
      const bytes = Buffer.from(JSON.stringify(result.body));
      responses.set(session!.ledger, cacheKey, version, bytes);
      sendJsonBytes(res, bytes);
    } else sendJsonBytes(res, Buffer.from(JSON.stringify(result.body)), result.status);
  });
}

export function createApp<L extends VersionedLedger>(deps: AppDeps<L>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Behind a proxy, the client address is the last one it added to X-Forwarded-For (one hop).
  app.set('trust proxy', deps.trustProxy ? 1 : false);
  app.use(loopbackGuard(deps.port));
  // File uploads read their raw body themselves, after the token is checked (see mount).
  const rawPaths = new Set(deps.routes.filter((d) => d.rawBody || d.deferredJson).map((d) => d.path.toLowerCase()));
  const json = express.json({ limit: JSON_LIMIT, strict: false, type: 'application/json' });
  app.use((req, res, next) => {
    if (!hasBody(req)) return next();
    const path = req.path.toLowerCase().replace(/\/+$/, '');
    if (path.startsWith('/api') && !rawPaths.has(path)) json(req, res, next);
    else next();
  });
  const responses = new ResponseCache();
  for (const def of deps.routes) mount(app, def, deps, responses);
  app.use('/api', (_req, res) => sendError(res, 'NOT_FOUND', 'No such endpoint'));
  mountRenderer(app, deps.rendererDir);
  app.use(errorMiddleware(deps.log));
  return app;
}

/** The built React renderer on the same origin; a plain page when it has not been built. */
function mountRenderer(app: Express, rendererDir: string | null): void {
  const index = rendererDir ? path.join(rendererDir, 'index.html') : null;
  if (rendererDir && index && fs.existsSync(index)) {
    app.use(express.static(rendererDir, { index: false, fallthrough: true }));
    // The Content-Security-Policy is set on every answer (security.ts), the static files' too.
    app.get('/{*path}', (_req, res) => res.sendFile(index));
    return;
  }
  app.get('/', (_req, res) => {
    res
      .type('html')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Personal Ledger</title>' +
          '<h1>Personal Ledger</h1><p>The API is running. The desktop interface has not been built ' +
          '(run <code>npm run build</code>). The API is described at <a href="/api/openapi.json">/api/openapi.json</a>.</p>',
      );
  });
}

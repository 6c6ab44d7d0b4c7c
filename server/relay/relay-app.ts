/**
 * The relay's Express app (no listen): every answer's headers, the Host and Origin checks, the
 * JSON body parser, the routes with their validation and bearer tokens, its OpenAPI document,
 * and the app's one error middleware, so that every bad input gets `{ detail, code, errors? }`.
 */
import { z } from 'zod';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { refuseFields, validate } from '../contract/validation.ts';
import { DomainError } from '../domain/errors.ts';
import { JSON_LIMIT } from '../http/app.ts';
import { errorMiddleware, sendError } from '../http/errors.ts';
import { buildOpenApi, type DocumentMeta } from '../http/openapi.ts';
import { clientAddress, refuseTooMany } from '../http/rate-limit.ts';
import { API_CSP, allowedHosts } from '../http/security.ts';
import { BAD_CREDENTIALS, type RelayService, type RelaySession } from './relay.service.ts';
import type { RelayRoute } from './relay.router.ts';

const RELAY_DOCUMENT: DocumentMeta = {
  title: 'Personal Ledger sync relay',
  description: `A relay for Personal Ledger's end-to-end encrypted sync (docs/sync.md). It keeps each sync group's
encrypted messages and answers each device with what it lacks; it never holds a key, so it never sees the books.

- **Authentication**: \`Authorization: Bearer <access_token>\` from register or login (the relay's own accounts).
- **Errors** are JSON \`{ detail, code?, errors? }\` (schema \`Error\`); 401 answers carry only \`detail\`.
- **Sync** is protobuf (@actual-app/crdt's \`SyncRequest\` and \`SyncResponse\`), everything else JSON.
- **Every answer** carries the headers \`X-Content-Type-Options\`, \`Referrer-Policy\`, \`X-Frame-Options\`,
  \`Cross-Origin-Resource-Policy\`, \`Content-Security-Policy\` and \`Cache-Control: no-store\`.`,
  servers: [
    {
      url: 'http://127.0.0.1:{port}',
      description: 'The relay (`npm run relay`); `--host` binds it to another address',
      variables: { port: { default: '4600', description: '--port (0 picks a free one)' } },
    },
  ],
  tags: {
    accounts: "The relay's own accounts and their tokens.",
    groups: 'Sync groups, their members and invites.',
    sync: 'The sync exchange (protobuf).',
    meta: 'Health and this document.',
  },
  bearer: 'The access_token of /relay/register or /relay/login',
  general: {
    403: 'FORBIDDEN_HOST: the relay listens on loopback and the Host is not its own loopback name and port; FORBIDDEN_ORIGIN: a browser page sent it (no web page may call the relay)',
    503: 'STORAGE_UNAVAILABLE: the relay cannot write its data folder; nothing was changed',
  },
};

const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ description: 'An OpenAPI 3.1 document' });

export interface RelayAppDeps {
  routes: RelayRoute[];
  relay: RelayService;
  /** The listening port; the Host check applies while the relay listens on loopback only. */
  port: () => number;
  loopbackOnly: boolean;
  trustProxy: boolean;
  log: (line: string) => void;
}

/** Every answer's headers, then the Host check (on loopback) and the Origin check (always). */
function relayGuard(deps: RelayAppDeps): RequestHandler {
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', API_CSP);
    res.setHeader('Cache-Control', 'no-store');
    if (deps.loopbackOnly && !allowedHosts(deps.port()).has((req.headers.host ?? '').toLowerCase())) {
      sendError(res, 'FORBIDDEN_HOST', 'This relay only answers requests addressed to its own loopback address');
      return;
    }
    // Devices call the relay from Node, which sends no Origin; a browser page never may.
    if (req.headers.origin !== undefined) {
      sendError(res, 'FORBIDDEN_ORIGIN', 'Web pages may not call the relay');
      return;
    }
    next();
  };
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

function readRawBody(req: Request, res: Response, limit: string): Promise<void> {
  return new Promise((resolve, reject) => {
    express.raw({ limit, type: () => true })(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

async function sessionOf(req: Request, relay: RelayService): Promise<RelaySession> {
  const header = req.headers.authorization;
  if (header === undefined) throw new DomainError('NOT_AUTHENTICATED', 'Not authenticated');
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/i.exec(header.trim());
  const session = match ? await relay.session(match[1]!) : undefined;
  if (!session) throw new DomainError('INVALID_CREDENTIALS', BAD_CREDENTIALS);
  return session;
}

function mount(app: Express, def: RelayRoute, relay: RelayService): void {
  app[def.method](def.path, async (req: Request, res: Response) => {
    if (def.rateLimit) {
      const verdict = def.rateLimit.attempt(clientAddress(req));
      if (!verdict.allowed) refuseTooMany(res, verdict.retryAfterSeconds);
    }
    const session = def.auth ? await sessionOf(req, relay) : (undefined as unknown as RelaySession);
    const params = def.params ? validate(def.params, req.params, 'path') : req.params;
    const query = def.query ? validate(def.query, { ...req.query }, 'query') : refuseFields({ ...req.query }, 'query');
    let body: unknown;
    if (def.rawBody) {
      if (!req.is(def.rawBody.contentTypes)) {
        throw new DomainError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the request body as ${def.rawBody.contentTypes.join(' or ')}`,
        );
      }
      await readRawBody(req, res, def.rawBody.limit);
    } else if (def.body) {
      if (hasBody(req) && !req.is('application/json')) {
        throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
      }
      body = validate(def.body, req.body === undefined ? {} : req.body, 'body');
    } else if (req.body !== undefined) refuseFields(req.body, 'body');
    const result = await def.handler({ params, query, body, req, res, session });
    if (!result) return;
    if (result.body === undefined) res.status(result.status).end();
    else res.status(result.status).json(result.body);
  });
}

export function createRelayApp(deps: RelayAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ? 1 : false);
  app.use(relayGuard(deps));
  const rawPaths = new Set(deps.routes.filter((d) => d.rawBody).map((d) => d.path.toLowerCase()));
  const json = express.json({ limit: JSON_LIMIT, strict: false, type: 'application/json' });
  app.use((req, res, next) => {
    if (!hasBody(req) || rawPaths.has(req.path.toLowerCase().replace(/\/+$/, ''))) return next();
    json(req, res, next);
  });
  const routes: RelayRoute[] = [...deps.routes];
  let document: Record<string, unknown> | undefined;
  routes.push({
    method: 'get',
    path: '/relay/openapi.json',
    tag: 'meta',
    summary: 'This OpenAPI 3.1 description, generated from the validating schemas',
    auth: false,
    responses: [{ status: 200, description: 'OpenAPI 3.1 document', schema: openApiDocument }],
    handler: () => ({ status: 200, body: (document ??= buildOpenApi(routes, RELAY_DOCUMENT)) }),
  });
  for (const def of routes) mount(app, def, deps.relay);
  app.use((_req, res) => sendError(res, 'NOT_FOUND', 'No such endpoint'));
  app.use(errorMiddleware(deps.log));
  return app;
}

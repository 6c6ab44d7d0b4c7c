import { z } from 'zod';
import { errorBody } from '../contract/common.ts';
import { JSON_LIMIT } from './app.ts';
import { routeDefiner, type ResponseDoc, type RouteDef, type RouteDoc } from './route.ts';

type JsonSchema = Record<string, unknown>;

/** `/api/accounts/:id` -> `/api/accounts/{id}` */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** What the tags group, in the order a reader meets them. A tag not listed here is described by its name. */
const TAGS: Record<string, string> = {
  auth: 'Registration, login, sessions and the password. Every other operation but this document needs a token.',
  accounts: 'The chart of accounts and balances.',
  journal: 'Journal entries: drafts, posting (one at a time or many in one request), voiding.',
  reports: 'Trial balance, balance sheet, income statement, net worth and cash flow.',
  investments:
    'Securities held in units: trades (buy, sell, dividend, split), lots, cost basis, realised and unrealised gains.',
  statements: 'Bank statements: JSON transactions or bank files (CSV, OFX/QFX, QIF, camt.053).',
  reconciliation: 'Matching bank transactions with posted entries, and reviewing the matches.',
  chat: 'The advisor on a local model: streamed answers and their history.',
  export: 'Plain-text accounting: export to ledger, hledger, beancount or CSV, and journal import.',
  backup: 'Backups of the ledger file and restoring one.',
  attachments: 'Receipts and other files attached to entries and bank lines: upload, list, download, delete.',
  meta: 'This document.',
};

/** Headers on every answer; documented once, in the description, rather than on each of ~400 responses. */
export const HEADERS_OF_EVERY_ANSWER = [
  'X-Content-Type-Options',
  'Referrer-Policy',
  'X-Frame-Options',
  'Cross-Origin-Resource-Policy',
  'Content-Security-Policy',
  'Cache-Control',
] as const;

const DESCRIPTION = `Personal Ledger's local API: a double-entry ledger per user on 127.0.0.1.

- **Authentication**: send \`Authorization: Bearer <access_token>\` from register or login.
- **Errors** are JSON \`{ detail, code?, errors? }\` (schema \`Error\`); \`errors\` names each field by its path
  (\`lines.1.amount\`). 401 answers carry only \`detail\`.
- **Bodies** are at most their operation's \`x-max-body-bytes\` (JSON: 1 MiB unless it says otherwise).
- **Amounts** are decimal strings (\`"82.50"\`) with at most the currency's minor-unit digits; never JSON numbers.
- **Every answer** carries ${HEADERS_OF_EVERY_ANSWER.map((h) => `\`${h}\``).join(', ')}
  (\`no-store\` on /api). No CORS headers: scripts send no \`Origin\`, and a foreign one is refused.
- A request Node cannot parse as HTTP is answered by the server itself: 400 \`MALFORMED_REQUEST\`,
  408 \`REQUEST_TIMEOUT\`, 431 \`HEADERS_TOO_LARGE\`, in the same error shape.`;

/** What sets one served document apart from another: the app's, or the relay's (server/relay). */
export interface DocumentMeta {
  title: string;
  description: string;
  servers: JsonSchema[];
  tags: Record<string, string>;
  /** What a bearer token is, and its format when it has one. */
  bearer: string;
  bearerFormat?: string;
  /** The general answers said otherwise, by status. */
  general?: Partial<Record<number, string>>;
}

const APP_DOCUMENT: DocumentMeta = {
  title: 'Personal Ledger API',
  description: DESCRIPTION,
  servers: [
    {
      url: 'http://127.0.0.1:{port}',
      description: 'This computer; the running server writes its URL to server.json in its data folder',
      variables: { port: { default: '4599', description: 'PORT (0 picks a free one)' } },
    },
  ],
  tags: TAGS,
  bearer: 'The access_token of register, login, /api/auth/me or a password change',
  bearerFormat: 'JWT',
};

const errorRef = { $ref: '#/components/schemas/Error' };
const jsonError = { 'application/json': { schema: errorRef } };

/**
 * The answers most operations can give for reasons of their own kind rather than of the operation
 * (validation, tokens, the loopback checks, limits, storage); `applies` says which operations.
 * An operation that declares one of these statuses itself keeps its own description, and the
 * general one is added when it does not name `mentions`.
 */
const GENERAL: {
  status: number;
  name: string;
  description: string;
  mentions: string;
  applies: (route: RouteDoc) => boolean;
  headers?: Record<string, unknown>;
}[] = [
  {
    status: 400,
    name: 'BadRequest',
    mentions: 'VALIDATION_ERROR',
    description:
      'VALIDATION_ERROR: a field missing, of the wrong type or out of range, or a query or body field the operation does not take (`errors` names each); MALFORMED_JSON: the body is not valid JSON',
    applies: () => true,
  },
  {
    status: 401,
    name: 'Unauthorized',
    mentions: 'Not authenticated',
    description:
      '`Not authenticated` (no token) or `Could not validate credentials` (a bad, expired or ended token, or one of a deleted user)',
    applies: (route) => route.auth,
  },
  {
    status: 403,
    name: 'Forbidden',
    mentions: 'FORBIDDEN_',
    description:
      "FORBIDDEN_HOST: the Host is not the server's own loopback name and port; FORBIDDEN_ORIGIN: a browser page of another origin sent it",
    applies: () => true,
  },
  {
    status: 404,
    name: 'NotFound',
    mentions: 'NOT_FOUND',
    description: "NOT_FOUND: nothing of this user's has that id (a malformed id included)",
    applies: (route) => namesOneThing(route),
  },
  {
    status: 413,
    name: 'PayloadTooLarge',
    mentions: 'PAYLOAD_TOO_LARGE',
    description:
      "PAYLOAD_TOO_LARGE: the body is larger than the operation's limit (its request body's `x-max-body-bytes`)",
    applies: (route) => route.body !== undefined || route.rawBody !== undefined || route.deferredJson !== undefined,
  },
  {
    status: 415,
    name: 'UnsupportedMediaType',
    mentions: 'UNSUPPORTED_MEDIA_TYPE',
    description:
      'UNSUPPORTED_MEDIA_TYPE: a body sent in a media type the operation does not list (a JSON body: application/json, UTF-8)',
    applies: (route) => route.body !== undefined || route.rawBody !== undefined,
  },
  {
    status: 429,
    name: 'TooManyRequests',
    mentions: 'RATE_LIMITED',
    description: 'RATE_LIMITED: too many attempts from this address; Retry-After says when to try again',
    applies: (route) => route.rateLimit !== undefined,
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
  {
    status: 500,
    name: 'InternalError',
    mentions: 'INTERNAL_ERROR',
    description:
      'INTERNAL_ERROR: a fault of the server, logged with the request id the detail names; nothing was changed',
    applies: () => true,
  },
  {
    status: 503,
    name: 'Unavailable',
    mentions: 'LEDGER_',
    description:
      'LEDGER_BUSY: a long job or a restore has the ledger, try again; LEDGER_UNAVAILABLE: the ledger file cannot be opened by this app (written by a newer version); ' +
      'STORAGE_UNAVAILABLE: the data folder cannot be written; SERVICE_UNAVAILABLE: the server is shutting down. Nothing was changed.',
    applies: (route) => route.auth || route.method !== 'get',
  },
  {
    status: 507,
    name: 'StorageFull',
    mentions: 'STORAGE_FULL',
    description: 'STORAGE_FULL: the disk holding the ledger is full; nothing was saved',
    applies: (route) => route.method !== 'get',
  },
];

/**
 * Query values are text; a number or boolean read from it is documented as such, without the
 * text's own pattern, and with its default (which zod leaves out of a converted value's input).
 */
function cleanQueryType(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const json = ctx.jsonSchema;
  if ((json.type === 'integer' || json.type === 'number') && 'pattern' in json) delete json.pattern;
  if (json.type === 'boolean' && 'enum' in json) delete json.enum;
  const def = ctx.zodSchema._zod.def;
  if (def.type === 'default' && json.default === undefined) json.default = (def as z.core.$ZodDefaultDef).defaultValue;
}

/**
 * Whether the path names one thing of the user's, which may not exist: an `{id}`, or a backup's
 * `{name}`. A path that names a period (`/api/budgets/{month}`) always finds one.
 */
function namesOneThing(route: RouteDoc): boolean {
  const shape = (route.params as z.ZodObject | undefined)?.shape;
  return shape !== undefined && ('id' in shape || 'name' in shape);
}

/** Where a request's named schema is referred to until its component's name is settled. */
const INPUT_REF = '#/components/schemas/@input@';

/** `1mb` (a body limit as Express reads it) in bytes. */
function byteCount(limit: string): number {
  const match = /^(\d+)(kb|mb)$/.exec(limit);
  if (!match) throw new Error(`a body limit the document cannot state: ${limit}`);
  return Number(match[1]) * (match[2] === 'kb' ? 1024 : 1024 * 1024);
}

/** Whether a body schema takes an empty object, so that no body at all will do. */
function takesNoBody(schema: z.ZodType): boolean {
  return schema.safeParse({}).success;
}

/**
 * OpenAPI 3.1 from the same zod schemas that validate requests. Named schemas (`.meta({ id })`)
 * become components; OpenAPI 3.1 speaks JSON Schema 2020-12, which zod emits. A named schema that
 * reads differently as a request than as an answer (defaults, transforms) gets an `Input` twin.
 */
export function buildOpenApi(routes: readonly RouteDoc[], meta: DocumentMeta = APP_DOCUMENT): JsonSchema {
  const describe = (general: (typeof GENERAL)[number]) => meta.general?.[general.status] ?? general.description;
  const defs: Record<'input' | 'output', Record<string, JsonSchema>> = { input: {}, output: {} };
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const generated = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override: (ctx) => cleanQueryType(ctx as { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }),
    });
    // References point into components (input ones under a placeholder, settled below).
    const prefix = io === 'input' ? `"${INPUT_REF}` : '"#/components/schemas/';
    const result = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', prefix)) as JsonSchema;
    for (const [id, def] of Object.entries((result.$defs ?? {}) as Record<string, JsonSchema>)) defs[io][id] = def;
    delete result.$defs;
    delete result.$schema;
    return result;
  };
  convert(errorBody, 'output');

  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const usedGeneral = new Set<(typeof GENERAL)[number]>();
  for (const route of routes) {
    tags.add(route.tag);
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const json = convert(schema, 'input');
      const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, property] of Object.entries(properties)) {
        const { description, ...rest } = property;
        parameters.push({
          name,
          in: location,
          required: location === 'path' || required.has(name),
          ...(typeof description === 'string' ? { description } : {}),
          schema: rest,
        });
      }
    }
    const declared = new Map(route.responses.map((r) => [r.status, r]));
    const responses: Record<string, unknown> = {};
    for (const r of route.responses) responses[String(r.status)] = responseObject(r, convert);
    for (const general of GENERAL) {
      const own = declared.get(general.status);
      if (!own) {
        if (general.applies(route)) {
          responses[String(general.status)] = { $ref: `#/components/responses/${general.name}` };
          usedGeneral.add(general);
        }
        continue;
      }
      const object = responses[String(general.status)] as { description: string; headers?: Record<string, unknown> };
      if (!own.description.includes(general.mentions)) object.description += `; or ${describe(general)}`;
      if (general.headers) object.headers = { ...general.headers, ...object.headers };
    }
    const operation: Record<string, unknown> = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${openApiPath(route.path).replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
      security: route.auth ? [{ bearer: [] }] : [],
    };
    const jsonBody = route.body;
    if (jsonBody) {
      operation.requestBody = {
        required: !takesNoBody(jsonBody),
        'x-max-body-bytes': byteCount(route.deferredJson?.limit ?? JSON_LIMIT),
        content: { 'application/json': { schema: convert(jsonBody, 'input') } },
      };
    }
    if (route.rawBody) {
      const { parts, contentTypes, description, limit } = route.rawBody;
      operation.requestBody = {
        required: true,
        description,
        'x-max-body-bytes': byteCount(limit),
        content: Object.fromEntries(
          contentTypes.map((type) => [
            type,
            type === 'multipart/form-data' && parts
              ? { schema: convert(parts, 'input') }
              : { schema: { type: 'string', format: 'binary' } },
          ]),
        ),
      };
    }
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }

  // A named schema's request reading shares the answer's name when the two are the same.
  const schemas: Record<string, JsonSchema> = { ...defs.output };
  const inputNames: Record<string, string> = {};
  for (const [id, def] of Object.entries(defs.input)) {
    const output = defs.output[id];
    const name = output === undefined || JSON.stringify(output) === JSON.stringify(def) ? id : `${id}Input`;
    inputNames[id] = name;
    schemas[name] = def;
  }
  const settle = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value).replaceAll(
        new RegExp(`"${INPUT_REF}([^"]+)"`, 'g'),
        (_m, id: string) => `"#/components/schemas/${inputNames[id] ?? id}"`,
      ),
    ) as unknown;

  return {
    openapi: '3.1.0',
    info: {
      title: meta.title,
      version: '0.1.0',
      description: meta.description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: meta.servers,
    tags: [...tags].map((name) => ({ name, description: meta.tags[name] ?? `Operations of ${name}.` })),
    paths: settle(paths),
    components: {
      schemas: settle(schemas),
      responses: Object.fromEntries(
        GENERAL.filter((g) => usedGeneral.has(g)).map((g) => [
          g.name,
          { description: describe(g), ...(g.headers ? { headers: g.headers } : {}), content: jsonError },
        ]),
      ),
      headers: {
        RetryAfter: {
          description: 'Seconds to wait before trying again',
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          ...(meta.bearerFormat ? { bearerFormat: meta.bearerFormat } : {}),
          description: meta.bearer,
        },
      },
    },
  };
}

function responseObject(r: ResponseDoc, convert: (schema: z.ZodType, io: 'output') => JsonSchema): JsonSchema {
  const object: JsonSchema = { description: r.description };
  if (r.headers) {
    object.headers = Object.fromEntries(
      Object.entries(r.headers).map(([name, h]) => [
        name,
        { description: h.description, required: true, schema: convert(h.schema, 'output') },
      ]),
    );
  }
  if (r.schema) {
    const schema = convert(r.schema, 'output');
    object.content = Object.fromEntries((r.contentTypes ?? ['application/json']).map((type) => [type, { schema }]));
  }
  return object;
}

/** The document itself, as far as a client relies on it. */
const openApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({ description: 'An OpenAPI 3.1 document' });

export function openApiRoute(routes: readonly RouteDoc[]): RouteDef {
  let document: JsonSchema | undefined;
  return routeDefiner()({
    method: 'get',
    path: '/api/openapi.json',
    tag: 'meta',
    summary: 'This OpenAPI 3.1 description, generated from the validating schemas',
    auth: false,
    responses: [{ status: 200, description: 'OpenAPI 3.1 document', schema: openApiDocument }],
    // `routes` is the server's list, this route included once it is added.
    handler: () => ({ status: 200, body: (document ??= buildOpenApi(routes)) }),
  });
}

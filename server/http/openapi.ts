import { z } from 'zod';
import { routeDefiner, type RouteDef, type RouteDoc } from './route.ts';

type JsonSchema = Record<string, unknown>;

/** `/api/accounts/:id` -> `/api/accounts/{id}` */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/**
 * OpenAPI 3.1 from the same zod schemas that validate requests. Named schemas (`.meta({ id })`)
 * become components; OpenAPI 3.1 speaks JSON Schema 2020-12, which zod emits.
 */
export function buildOpenApi(routes: readonly RouteDoc[]): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
    // References point into components instead of each schema's own $defs.
    const result = JSON.parse(
      JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/'),
    ) as JsonSchema;
    const defs = (result.$defs ?? {}) as Record<string, JsonSchema>;
    for (const [id, def] of Object.entries(defs)) components[id] = def;
    delete result.$defs;
    delete result.$schema;
    return result;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
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
        parameters.push({ name, in: location, required: location === 'path' || required.has(name), schema: property });
      }
    }
    const operation: Record<string, unknown> = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${openApiPath(route.path).replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters,
      responses: Object.fromEntries(
        route.responses.map((r) => [
          String(r.status),
          {
            description: r.description,
            ...(r.schema
              ? { content: { [r.contentType ?? 'application/json']: { schema: convert(r.schema, 'output') } } }
              : {}),
          },
        ]),
      ),
    };
    if (route.auth) operation.security = [{ bearer: [] }];
    if (route.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: convert(route.body, 'input') } },
      };
    if (route.rawBody) {
      operation.requestBody = {
        required: true,
        description: route.rawBody.description,
        content: Object.fromEntries(
          route.rawBody.contentTypes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
        ),
      };
    }
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Personal Ledger API',
      version: '0.1.0',
      description:
        'Local double-entry ledger on 127.0.0.1. Errors are `{ detail, code?, errors? }`. Amounts are decimal strings. ' +
        'Send `Authorization: Bearer <access_token>` from register or login.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

export function openApiRoute(routes: readonly RouteDoc[]): RouteDef {
  let document: JsonSchema | undefined;
  return routeDefiner()({
    method: 'get',
    path: '/api/openapi.json',
    tag: 'meta',
    summary: 'This OpenAPI 3.1 description, generated from the validating schemas',
    auth: false,
    responses: [{ status: 200, description: 'OpenAPI 3.1 document' }],
    handler: () => ({ status: 200, body: (document ??= buildOpenApi(routes)) }),
  });
}

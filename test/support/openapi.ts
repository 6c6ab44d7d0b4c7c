import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { HEADERS_OF_EVERY_ANSWER } from '../../server/http/openapi.ts';

/**
 * Checks real answers against the served OpenAPI document with validators nobody here wrote (ajv,
 * JSON Schema 2020-12, and ajv-formats for uuid, date and date-time): the status is documented for
 * the operation, the body's media type is one it lists and the body fits its schema (no body where
 * it lists none), every header it declares is there and fits, and no header is there that it (or
 * the document's description, for the headers of every answer) does not name.
 */

type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Headers of HTTP itself, not of the API. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
const EVERY_ANSWER = new Set(HEADERS_OF_EVERY_ANSWER.map((h) => h.toLowerCase()));

export interface Operation {
  method: string;
  template: string;
  key: string;
  operation: Json;
}

export class OpenApiValidator {
  readonly doc: Json;
  readonly operations: Operation[];
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly matchers: { method: string; pattern: RegExp; op: Operation }[];

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats is CommonJS: its module is the plugin (the types speak of its `default`)
    (formats as unknown as typeof formats.default)(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi.json' });
    this.operations = [];
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        this.operations.push({ method, template, key: `${method.toUpperCase()} ${template}`, operation });
      }
    }
    // Literal segments win over parameters (`/api/accounts/balances` before `/api/accounts/{id}`).
    const literalFirst = [...this.operations].sort(
      (a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0),
    );
    this.matchers = literalFirst.map((op) => ({
      method: op.method,
      pattern: new RegExp(`^${op.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      op,
    }));
  }

  /** The documented operation a request reaches, by method and concrete path (query left out). */
  operationOf(method: string, path: string): Operation | undefined {
    const bare = path.split('?')[0]!;
    return this.matchers.find((m) => m.method === method.toLowerCase() && m.pattern.test(bare))?.op;
  }

  private schemaValidator(pointer: string): ValidateFunction {
    const kept = this.compiled.get(pointer);
    if (kept) return kept;
    const validate = this.ajv.compile({ $ref: `openapi.json#${pointer}` });
    this.compiled.set(pointer, validate);
    return validate;
  }

  private resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === 'string') {
      const path = (current.$ref as string).replace(/^#\//, '').split('/').map(unescapePointer);
      current = path.reduce<Json>((n, key) => n[key], this.doc);
    }
    return current;
  }

  /** What is wrong with `answer` as an answer of `op`; nothing when it is as documented. */
  problems(op: Operation, answer: Answer): string[] {
    const where = `${op.key} ${answer.status}`;
    const responseNode = op.operation.responses?.[String(answer.status)];
    if (!responseNode)
      return [
        `${where}: status not documented (documented: ${Object.keys(op.operation.responses).join(', ')}): ${answer.text.slice(0, 300)}`,
      ];
    const response = this.resolve(responseNode);
    // the JSON pointer of the (possibly shared) response object, for its schemas
    const base =
      typeof responseNode.$ref === 'string'
        ? (responseNode.$ref as string).slice(1)
        : `/paths/${escapePointer(op.template)}/${op.method}/responses/${answer.status}`;
    const out: string[] = [];
    const content = (response.content ?? {}) as Json;
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (Object.keys(content).length === 0) {
      if (answer.text !== '') out.push(`${where}: a body where the document lists none: ${answer.text.slice(0, 200)}`);
    } else if (!(mediaType in content)) {
      out.push(`${where}: content type ${mediaType || '(none)'} is not one of ${Object.keys(content).join(', ')}`);
    } else {
      let value: unknown = answer.text;
      if (mediaType === 'application/json') {
        try {
          value = JSON.parse(answer.text);
        } catch {
          out.push(`${where}: the body is not JSON: ${answer.text.slice(0, 200)}`);
        }
      }
      const validate = this.schemaValidator(`${base}/content/${escapePointer(mediaType)}/schema`);
      if (!validate(value)) {
        out.push(
          `${where}: the body does not fit the schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}; body ${answer.text.slice(0, 300)}`,
        );
      }
    }
    const declared = (response.headers ?? {}) as Json;
    const declaredNames = new Set(Object.keys(declared).map((h) => h.toLowerCase()));
    for (const [name, node] of Object.entries<Json>(declared)) {
      const header = this.resolve(node);
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) out.push(`${where}: the header ${name} is missing`);
        continue;
      }
      const schema = this.resolve(header.schema ?? {});
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      const pointer =
        typeof node.$ref === 'string'
          ? `${(node.$ref as string).slice(1)}/schema`
          : `${base}/headers/${escapePointer(name)}/schema`;
      const validate = this.schemaValidator(pointer);
      if (!validate(typed)) out.push(`${where}: the header ${name}: ${value} does not fit its schema`);
    }
    answer.headers.forEach((_value, name) => {
      const lower = name.toLowerCase();
      if (!TRANSPORT_HEADERS.has(lower) && !EVERY_ANSWER.has(lower) && !declaredNames.has(lower))
        out.push(`${where}: the header ${name} is not documented`);
    });
    return out;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

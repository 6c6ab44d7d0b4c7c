import crypto from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/**
 * Values made from the JSON Schemas of an OpenAPI document alone: one each schema allows, and ones
 * it refuses (a wrong type, format, pattern, length, bound, enum value, a missing or unknown field).
 * Every value is checked against the schema with ajv and ajv-formats before it is handed out, so a
 * value said to violate a schema does, and one said to satisfy it does. The document's byte bounds
 * of UTF-8 text (`x-min-bytes`, `x-max-bytes`, which JSON Schema's character counts cannot say) are
 * read as the keywords they are.
 */

type Json = Record<string, any>;

/** Marks the fields a made object leaves out (those another branch of its oneOf asks for). */
const OMIT = 'x-made-without';

/** Text a pattern may want, tried in order when the schema gives no example. */
const TEXT_TRIES = ['x', '1', '1.00', '2026-01-31', '2026-03', '2026', 'USD', 'someone@example.com'];
/** Text that breaks most patterns and formats. */
const BAD_TEXT = ['checking', '2026-02-30', '2026-13', '31/01/2026', '-1', ' ', 'not-an-email', ''];

function byteKeywords(ajv: InstanceType<typeof Ajv2020>): void {
  const bytes = (data: unknown) => (typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : undefined);
  ajv.addKeyword({
    keyword: 'x-min-bytes',
    type: 'string',
    schemaType: 'number',
    validate: (min: number, data: unknown) => (bytes(data) ?? min) >= min,
  });
  ajv.addKeyword({
    keyword: 'x-max-bytes',
    type: 'string',
    schemaType: 'number',
    validate: (max: number, data: unknown) => (bytes(data) ?? max) <= max,
  });
}

export class SchemaCases {
  private readonly doc: Json;
  /** JSON values (bodies), and query or path text read as the types their parameters document. */
  private readonly ajv = { json: SchemaCases.ajv(false), text: SchemaCases.ajv(true) };
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.doc = doc;
    for (const ajv of Object.values(this.ajv)) ajv.addSchema({ ...doc, $id: 'openapi.json' });
  }

  private static ajv(coerce: boolean): InstanceType<typeof Ajv2020> {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, coerceTypes: coerce });
    // ajv-formats is CommonJS: its module is the plugin (the types speak of its `default`)
    (formats as unknown as typeof formats.default)(ajv);
    byteKeywords(ajv);
    return ajv;
  }

  resolve(schema: Json): Json {
    let current = schema;
    while (typeof current?.$ref === 'string') {
      const keys = (current.$ref as string).replace(/^#\//, '').split('/');
      current = keys.reduce<Json>((node, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.doc);
    }
    return current;
  }

  /** Whether `value` fits `schema` (a schema of the document, its references into it). */
  fits(schema: Json, value: unknown, as: 'json' | 'text' = 'json'): boolean {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/');
    const key = `${as} ${text}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv[as].compile(JSON.parse(text) as Json);
      this.compiled.set(key, validate);
    }
    // coercion rewrites the value it checks; a copy keeps the caller's
    return validate(structuredClone(value));
  }

  /** A value `schema` allows, with every property (`all`) or only the required ones; undefined if none is found. */
  satisfying(schema: Json, all = false, depth = 0): unknown {
    const s = this.resolve(schema);
    const found = this.tries(s, all, depth).find((value) => value !== undefined && this.fits(s, value));
    return found;
  }

  private tries(s: Json, all: boolean, depth: number): unknown[] {
    if ('const' in s) return [s.const];
    if (Array.isArray(s.enum)) return [s.enum[0]];
    const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (branches) {
      const own: Json = { ...s, anyOf: undefined, oneOf: undefined };
      const real = branches.map((b) => this.resolve(b)).filter((b) => b.type !== 'null');
      const made = real.map((b) => {
        if (b.type !== undefined || own.type !== 'object') return this.satisfying({ ...own, ...b }, all, depth);
        // a branch that asks for fields of the object: those given, the other branches' left out
        const others = real.filter((o) => o !== b).flatMap((o) => (o.required ?? []) as string[]);
        const required = [...(own.required ?? []), ...(b.required ?? [])];
        return this.satisfying({ ...own, required, [OMIT]: others }, all, depth);
      });
      return [...made, ...(branches.some((b) => this.resolve(b).type === 'null') ? [null] : [])];
    }
    if (Array.isArray(s.allOf))
      return [this.satisfying(Object.assign({}, ...s.allOf.map((b: Json) => this.resolve(b))))];
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (depth > 6) return [];
    switch (type) {
      case 'object': {
        const out: Json = {};
        const required = new Set<string>(s.required ?? []);
        const omitted = new Set<string>(s[OMIT] ?? []);
        for (const [name, property] of Object.entries<Json>(s.properties ?? {})) {
          if ((!all && !required.has(name)) || (omitted.has(name) && !required.has(name))) continue;
          const value = this.satisfying(property, all, depth + 1);
          if (value !== undefined) out[name] = value;
        }
        return [out];
      }
      case 'array': {
        const count = Math.max(s.minItems ?? 0, all ? 1 : 0);
        const item = this.satisfying(s.items ?? {}, all, depth + 1);
        return [Array.from({ length: count }, () => structuredClone(item))];
      }
      case 'integer':
      case 'number':
        return [s.default, s.example, s.minimum, (s.exclusiveMinimum ?? 0) + 1, 1, 0];
      case 'boolean':
        return [true];
      case 'string': {
        const length = Math.max(s.minLength ?? 0, s['x-min-bytes'] ?? 0, 1);
        return [s.example, s.default, formatValue(s.format), 'x'.repeat(length), ...TEXT_TRIES];
      }
      default:
        return ['x'];
    }
  }

  /**
   * Values `schema` refuses, made from its keywords, each checked to be refused; `base` is a value
   * it allows, whose parts are broken one at a time (a property, an item). At most `limit`.
   */
  violating(schema: Json, base: unknown, as: 'json' | 'text' = 'json', limit = 6): unknown[] {
    const s = this.resolve(schema);
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (const value of this.breaks(s, base, as, 0)) {
      const key = JSON.stringify(value) ?? 'undefined';
      if (seen.has(key) || this.fits(s, value, as)) continue;
      seen.add(key);
      out.push(value);
      if (out.length === limit) break;
    }
    return out;
  }

  private breaks(s0: Json, base: unknown, as: 'json' | 'text', depth: number): unknown[] {
    const s = this.nonNull(s0);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    const text = (values: unknown[]) => (as === 'text' ? values.map((v) => String(v)) : values);
    const out: unknown[] = [];
    if (Array.isArray(s.enum)) out.push('no-such-value', String(s.enum[0]).toUpperCase(), String(s.enum[0]) + ' ');
    switch (type) {
      case 'string': {
        if (as === 'json') out.push(12);
        if (s.format === 'uuid') out.push('checking', crypto.randomUUID().slice(1));
        if (s.format === 'date') out.push('2026-02-30', '31/01/2026');
        if (s.format === 'date-time') out.push('yesterday');
        if (s.format === 'email') out.push('not-an-email');
        if (typeof s.maxLength === 'number') out.push('x'.repeat(s.maxLength + 1));
        if (s.minLength > 0) out.push('x'.repeat(s.minLength - 1));
        if (typeof s['x-min-bytes'] === 'number') out.push('x'.repeat(s['x-min-bytes'] - 1));
        if (typeof s['x-max-bytes'] === 'number') out.push('é'.repeat(Math.ceil((s['x-max-bytes'] + 1) / 2)));
        if (s.pattern) out.push(...BAD_TEXT);
        if (s.pattern && typeof s.example === 'string') out.push(`${s.example}x`, `x${s.example}`);
        break;
      }
      case 'integer':
      case 'number':
        out.push(...text(['x', ...(type === 'integer' ? [1.5] : [])]));
        if (as === 'json') out.push('1');
        if (typeof s.minimum === 'number') out.push(...text([s.minimum - 1]));
        if (typeof s.maximum === 'number') out.push(...text([s.maximum + 1]));
        break;
      case 'boolean':
        out.push(...(as === 'json' ? ['true', 1] : ['yes']));
        break;
      case 'array': {
        out.push('x', {});
        if (s.minItems > 0) out.push([]);
        const item = this.satisfying(s.items ?? {});
        if (typeof s.maxItems === 'number' && s.maxItems <= 1000)
          out.push(Array.from({ length: s.maxItems + 1 }, () => structuredClone(item)));
        if (depth < 3 && item !== undefined)
          for (const bad of this.breaks(this.resolve(s.items ?? {}), item, as, depth + 1).slice(0, 4)) out.push([bad]);
        break;
      }
      case 'object': {
        out.push('x', []);
        const whole = (base && typeof base === 'object' && !Array.isArray(base) ? base : {}) as Json;
        for (const name of (s.required ?? []) as string[]) {
          const { [name]: _left, ...rest } = whole;
          out.push(rest);
        }
        if (s.additionalProperties === false) out.push({ ...whole, no_such_field: 1 });
        // which fields are given: none of a oneOf's or anyOf's, every one of a oneOf's, one without its dependants
        const asked = ((s.oneOf ?? s.anyOf ?? []) as Json[]).flatMap(
          (b) => (this.resolve(b).required ?? []) as string[],
        );
        const given = (name: string) => whole[name] ?? this.satisfying(s.properties?.[name] ?? {});
        if (asked.length > 0)
          out.push(Object.fromEntries(Object.entries(whole).filter(([name]) => !asked.includes(name))));
        if (s.oneOf) out.push({ ...whole, ...Object.fromEntries(asked.map((name) => [name, given(name)])) });
        for (const [name, needs] of Object.entries<string[]>(s.dependentRequired ?? {})) {
          const rest = Object.fromEntries(Object.entries(whole).filter(([key]) => !needs.includes(key)));
          out.push({ ...rest, [name]: given(name) });
        }
        // each property broken once before any is broken twice
        const byProperty = Object.entries<Json>(s.properties ?? {}).map(([name, property]) => {
          const ps = this.resolve(property);
          const own = whole[name] ?? this.satisfying(ps);
          return depth < 3 ? this.breaks(ps, own, as, depth + 1).map((bad) => ({ ...whole, [name]: bad })) : [];
        });
        for (let i = 0; byProperty.some((list) => i < list.length); i++)
          for (const list of byProperty) if (i < list.length) out.push(list[i]);
        break;
      }
    }
    return out;
  }

  /** The schema without its `null` branch (a nullable value is broken as the value it is otherwise). */
  private nonNull(schema: Json): Json {
    const s = this.resolve(schema);
    const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (!branches) return s;
    const real = branches.map((b) => this.resolve(b)).filter((b) => b.type !== 'null');
    return real.length === 1 ? { ...s, anyOf: undefined, oneOf: undefined, ...real[0] } : s;
  }
}

function formatValue(format: unknown): string | undefined {
  switch (format) {
    case 'uuid':
      return crypto.randomUUID();
    case 'date':
      return '2026-01-31';
    case 'date-time':
      return '2026-01-31T12:00:00.000Z';
    case 'email':
      return 'someone@example.com';
    default:
      return undefined;
  }
}

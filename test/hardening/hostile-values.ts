import fc from 'fast-check';

/**
 * The hostile values the hostile-input test (hostile-input.test.ts) sends: JSON text JSON.stringify
 * cannot write (raw number tokens, duplicate and prototype keys, deep nesting), hostile strings and
 * numbers, and mutations of a valid body.
 */
// ---------------------------------------------------------------------------------------------
// JSON text with what JSON.stringify cannot write: raw number tokens, duplicate keys, deep nesting

export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
export const DUPLICATES = Symbol('duplicate keys');
export type Json = unknown;

export function toJson(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`);
  for (const [k, v] of (value as Record<symbol, [string, Json][]>)[DUPLICATES] ?? [])
    parts.push(`${JSON.stringify(k)}:${toJson(v)}`);
  return `{${parts.join(',')}}`;
}

export const deepArrays = (n: number) => new Raw('['.repeat(n) + ']'.repeat(n));
export const deepObjects = (n: number) => new Raw('{"a":'.repeat(n) + '1' + '}'.repeat(n));
export const PROTO = new Raw(
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
);

export const SPECIAL_STRINGS = [
  '',
  ' ',
  '\t',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1e309',
  '1e-400',
  '0x10',
  '1_000',
  '1,00',
  '١٢٣',
  '１２３',
  '12.345',
  '.5',
  '5.',
  '99999999999999999999999999',
  '999999999999.99',
  '1000000000000',
  'null',
  'true',
  'undefined',
  '{}',
  '[]',
  '\u0000',
  'a\u0000b',
  'USD\u0000',
  '\u202eRTL override',
  '\u200f\u200e',
  'مرحبا',
  '𝟘𝟙',
  '\ud800',
  '\udfff',
  '\uffff',
  '\ufeff',
  '../../identity',
  '..\\..\\identity',
  '%2e%2e%2f',
  '/etc/passwd',
  'file:///etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '<script>alert(1)</script>',
  '2026-02-30',
  '2026-13-01',
  '0000-01-01',
  '9999-12-31',
  '2026-1-1',
  '2026-01-01T00:00:00Z',
  '20260101',
  'ASSET',
  'asset',
  'DEBIT',
  'debit',
  'credit',
  'USD',
  'usd',
  'XXX',
  'KWD',
  'JPY',
  'draft',
  'posted',
  'month',
  'zh',
  'csv',
  'x'.repeat(101),
  'x'.repeat(1001),
  'x'.repeat(5000),
];
export const RAW_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '0',
  '-1',
  '1e-400',
  '5e-324',
  '9007199254740993',
  '123456789012345678901234567890',
  '0.1',
  '1.005',
  '100',
  '101',
  '1',
  '1.5',
];

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.repeat(Math.ceil(20_000 / s.length))),
  },
);

export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new Raw(t)) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom<Json>(true, false, null, [], {}, [null], [''], { '': '' }) },
  { weight: 1, arbitrary: fc.constantFrom(deepArrays(1000), deepObjects(1000), PROTO) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 5 }) },
);

// ---------------------------------------------------------------------------------------------
// The server, two users and their seed data

/** Every path to a value inside a body (`['lines', 0, 'amount']`), containers included. */
export function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object' || value instanceof Raw) return [prefix];
  const children = Array.isArray(value)
    ? value.map((v, i) => pathsOf(v, [...prefix, i]))
    : Object.entries(value).map(([k, v]) => pathsOf(v, [...prefix, k]));
  return [prefix, ...children.flat()];
}

export type Mutation = { at: number; action: 'set' | 'delete' | 'unknown' | 'duplicate' | 'proto'; value: Json };

/** A deep copy (fast-check hands out shared constant objects; a mutation must never alias them). */
export function cloneJson(value: Json): Json {
  if (value instanceof Raw || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const copy: Record<string | symbol, Json> = {};
  for (const [k, v] of Object.entries(value)) copy[k] = cloneJson(v);
  const duplicates = (value as Record<symbol, [string, Json][]>)[DUPLICATES];
  if (duplicates) copy[DUPLICATES] = duplicates.map(([k, v]) => [k, cloneJson(v)]);
  return copy;
}

export function mutate(body: Record<string, Json>, mutations: Mutation[]): Json {
  let root: Json = cloneJson(body);
  for (const original of mutations) {
    const m = { ...original, value: cloneJson(original.value) };
    const paths = pathsOf(root);
    const target = paths[m.at % paths.length]!;
    if (target.length === 0) {
      if (m.action === 'set') root = m.value;
      else if (m.action === 'proto' && root && typeof root === 'object')
        Object.assign(root, { [DUPLICATES]: [['__proto__', { polluted: 'yes' }]] });
      else if (root && typeof root === 'object' && !Array.isArray(root))
        (root as Record<string, Json>).unexpected = m.value;
      continue;
    }
    const parent = target.slice(0, -1).reduce<any>((node, key) => node?.[key], root);
    const key = target.at(-1)!;
    if (parent === null || typeof parent !== 'object') continue;
    if (m.action === 'set') parent[key] = m.value;
    else if (m.action === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (Array.isArray(parent)) parent.push(m.value);
    else if (m.action === 'unknown') parent[`${String(key)}_x`] = m.value;
    else if (m.action === 'duplicate') parent[DUPLICATES] = [...(parent[DUPLICATES] ?? []), [String(key), m.value]];
    else
      parent[DUPLICATES] = [
        ...(parent[DUPLICATES] ?? []),
        ['__proto__', m.value],
        ['constructor', { prototype: m.value }],
      ];
  }
  return root;
}

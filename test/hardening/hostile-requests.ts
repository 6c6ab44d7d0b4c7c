import fc from 'fast-check';
import type { RawRequest } from './support.ts';
import { main, other, seeds, type Operation } from './fuzz-session.ts';
import { hostileString, hostileValue, mutate, toJson, type Json, type Mutation } from './hostile-values.ts';

/** Requests per operation for the hostile-input test: valid ones built from the seeds, and hostile ones in one part or all. */
export function validIds(op: Operation): string[] {
  if (op.pathParams.length === 0) return [];
  const byPrefix: [string, string[]][] = [
    ['/api/accounts/{id}/balance', [seeds.bank!]],
    ['/api/accounts/{id}', [seeds.bank!, seeds.food!, seeds.spare!]],
    ['/api/journal-entries/{id}/post', [seeds.draft!]],
    ['/api/journal-entries/{id}/void', [seeds.posted!]],
    ['/api/journal-entries/{id}', [seeds.posted!, seeds.draft!]],
    ['/api/statements/{id}', [seeds.statement!]],
    ['/api/reconciliation/matches/{id}', [seeds.match!]],
    ['/api/reconciliation/unmatched/{id}', [seeds.unmatchedTxn!]],
    ['/api/chat/session/{id}', [seeds.chatSession!]],
    ['/api/backups/{name}', seeds.backup ? [seeds.backup] : []],
  ];
  return byPrefix.find(([prefix]) => op.path.startsWith(prefix))?.[1] ?? [];
}

/** Percent-encodes the UTF-8 bytes (encodeURIComponent throws on a lone surrogate). */
export function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

let unique = 0;

export function seedBody(op: Operation): Record<string, Json> {
  unique += 1;
  const line = (account: string, direction: string) => ({ account_id: account, direction, amount: '1.00' });
  const key = `${op.method} ${op.path}`;
  const bodies: Record<string, () => Record<string, Json>> = {
    'POST /api/auth/register': () => ({
      email: `fuzz-${unique}@example.com`,
      name: 'Fuzz',
      password: 'correct horse battery',
    }),
    'POST /api/auth/login': () => ({ email: main.email, password: 'correct horse battery' }),
    // the same password again: the session owner keeps it, every earlier session of theirs ends
    'POST /api/auth/password': () => ({
      current_password: 'correct horse battery',
      new_password: 'correct horse battery',
    }),
    'POST /api/accounts': () => ({ name: `Fuzz ${unique}`, type: 'ASSET', currency: 'USD', description: 'd' }),
    'PUT /api/accounts/{id}': () => ({ name: 'Renamed', description: 'd', is_active: true }),
    'POST /api/journal-entries': () => ({
      entry_date: '2026-01-10',
      memo: 'm',
      auto_post: false,
      lines: [line(seeds.food!, 'DEBIT'), line(seeds.bank!, 'CREDIT')],
    }),
    'PUT /api/journal-entries/{id}': () => ({
      entry_date: '2026-01-11',
      memo: 'm',
      lines: [line(seeds.food!, 'DEBIT'), line(seeds.bank!, 'CREDIT')],
    }),
    'POST /api/journal-entries/{id}/void': () => ({ reason: 'r' }),
    'POST /api/statements': () => ({
      account_id: seeds.bank!,
      name: 'n',
      transactions: [{ date: '2026-01-12', description: 'x', amount: '1.00', type: 'debit', external_id: 'e' }],
    }),
    'POST /api/reconciliation/run': () => ({
      account_id: seeds.bank!,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
    }),
    'POST /api/reconciliation/matches/{id}/accept': () => ({ version: 1 }),
    'POST /api/reconciliation/matches/{id}/reject': () => ({ reason: 'r', version: 1 }),
    'POST /api/reconciliation/batch-accept': () => ({
      min_score: 100,
      account_id: seeds.bank!,
      match_ids: [seeds.match!],
    }),
    'POST /api/reconciliation/unmatched/{id}/create-entry': () => ({ account_id: seeds.food!, memo: 'm' }),
    'POST /api/chat': () => ({ message: 'hello', session_id: seeds.chatSession! }),
  };
  return bodies[key]?.() ?? {};
}

export const QUERY_VALUES = (): string[] => [
  '1',
  '2',
  '20',
  '100',
  '0',
  '-1',
  '101',
  '1.5',
  '1e309',
  'NaN',
  '',
  ' ',
  'true',
  'false',
  'TRUE',
  'day',
  'week',
  'month',
  'year',
  'en',
  'zh',
  'fr',
  'csv',
  'ofx',
  'qif',
  'camt053',
  'pdf',
  'draft',
  'posted',
  'void',
  'manual',
  'ASSET',
  'EXPENSE',
  'bank_transaction',
  'journal_entry',
  '2026-01-31',
  '2026-02-30',
  '0001-01-01',
  '9999-12-31',
  '2027-01-01',
  seeds.bank!,
  seeds.statement!,
  seeds.chatSession!,
  seeds.otherAccount!,
  '00000000-0000-4000-8000-000000000000',
];

// ---------------------------------------------------------------------------------------------
// Arbitraries of hostile requests

export const hostileSegments = (): string[] => [
  '..%2F..%2Fidentity',
  '..%2f..%2fsecret.key',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fidentity.sqlite',
  `..%2F..%2Fledgers%2F${other.id}`,
  `..%2F${other.id}.sqlite`,
  '%00',
  'abc%00def',
  '%E0%A4%A',
  '%',
  '%%',
  '%ZZ',
  'x'.repeat(5000),
  pct('\u202e𝟘مرحبا'),
  '%20',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  seeds.otherAccount!,
  other.id,
  main.id,
  '00000000-0000-4000-8000-000000000000',
  seeds.bank!.toUpperCase(),
  `${seeds.bank}.sqlite`,
  `${seeds.bank}%00`,
  encodeURIComponent(`${seeds.bank}/../${seeds.food}`),
  `${seeds.bank};x=1`,
  '__proto__',
  'constructor',
  'prototype',
];

export interface Generated {
  request: RawRequest;
  /** What was sent, for the oracle and the failure message. */
  sent: { pathId?: string; query: Record<string, string | string[]>; bodyText?: string; contentType?: string };
}

export function pathArb(op: Operation): fc.Arbitrary<string | undefined> {
  if (op.pathParams.length === 0) return fc.constant(undefined);
  const valid = validIds(op);
  return fc.oneof(
    { weight: valid.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(valid.length > 0 ? valid : ['x'])) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileSegments()) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(pct) },
  );
}

export function queryArb(op: Operation): fc.Arbitrary<[string, string][]> {
  const values = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...QUERY_VALUES()) },
    { weight: 2, arbitrary: hostileString },
  );
  const known = op.queryParams.map((p) =>
    fc.option(fc.tuple(fc.constant(p.name), values), { freq: 2, nil: undefined }),
  );
  const extra = fc.option(
    fc.oneof(
      fc.tuple(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'prototype',
          'hasOwnProperty',
          'toString',
          'x',
          'page[a]',
          '__proto__[polluted]',
          'a.b',
          '',
        ),
        values,
      ),
      fc.tuple(
        fc
          .constantFrom(...(op.queryParams.length > 0 ? op.queryParams.map((p) => p.name) : ['page']))
          .map((n) => `${n}[]`),
        values,
      ),
    ),
    { freq: 3, nil: undefined },
  );
  const duplicate = fc.option(
    fc.constantFrom(...(op.queryParams.length > 0 ? op.queryParams.map((p) => p.name) : ['page'])),
    { freq: 4, nil: undefined },
  );
  return fc.tuple(fc.tuple(...known), extra, duplicate, values).map(([k, e, d, v]) => {
    const pairs = k.filter((x): x is [string, string] => x !== undefined);
    if (e) pairs.push(e);
    if (d) pairs.push([d, v], [d, v]);
    return pairs;
  });
}

export function bodyArb(op: Operation): fc.Arbitrary<{ text: string; contentType: string } | undefined> {
  if (op.rawBody)
    return fc.constantFrom({ text: 'Date,Description,Amount\n2026-01-20,Fuzz,-1.00\n', contentType: 'text/csv' });
  if (!op.jsonBody)
    return fc.option(fc.constantFrom({ text: '{"unexpected":true}', contentType: 'application/json' }), {
      freq: 4,
      nil: undefined,
    });
  const mutation = fc.record({
    at: fc.nat(),
    action: fc.constantFrom('set', 'set', 'set', 'delete', 'unknown', 'duplicate', 'proto'),
    value: hostileValue,
  }) as fc.Arbitrary<Mutation>;
  const mutated = fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((ms) => ({ text: toJson(mutate(seedBody(op), ms)), contentType: 'application/json' }));
  const whole = fc.constantFrom(
    ...[
      '',
      'null',
      '42',
      '-0',
      '1e309',
      '"text"',
      '[]',
      'true',
      '{',
      '{"a":1,}',
      "{'a':1}",
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":undefined}',
      '\ufeff{}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{}\u0000',
      '{"__proto__":{"polluted":"yes"}}',
    ].map((text) => ({ text, contentType: 'application/json' })),
    { text: toJson(seedBody(op)), contentType: 'text/plain' },
    { text: toJson(seedBody(op)), contentType: 'application/x-www-form-urlencoded' },
    { text: toJson(seedBody(op)), contentType: 'multipart/form-data; boundary=x' },
    { text: toJson(seedBody(op)), contentType: 'application/json; charset=latin1' },
    { text: toJson(seedBody(op)), contentType: 'application/json; charset=utf-16' },
  );
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: whole });
}

/** Valid values of the query parameters, so that a request hostile in one part reaches the checks of the others. */
export function validQuery(op: Operation): fc.Arbitrary<[string, string][]> {
  const examples: Record<string, string[]> = {
    page: ['1', '2'],
    per_page: ['1', '20', '100'],
    as_of: ['2026-01-31', '2026-12-31'],
    start_date: ['2026-01-01'],
    end_date: ['2026-12-31'],
    interval: ['day', 'week', 'month'],
    status: ['draft', 'posted', 'void'],
    source_type: ['manual', 'system'],
    is_active: ['true', 'false'],
    account_id: [seeds.bank!],
    parent_id: [seeds.bank!],
    min_score: ['0', '60'],
    max_score: ['100'],
    dry_run: ['true'],
    name: ['Fuzz'],
    language: ['en', 'zh'],
    message: ['hello', '你好'],
    session_id: [seeds.chatSession!],
    type: op.path.includes('unmatched') ? ['bank_transaction', 'journal_entry'] : ['ASSET', 'EXPENSE'],
    format: op.path.includes('statements')
      ? ['csv']
      : op.path.includes('import/journal')
        ? ['ledger', 'hledger', 'beancount']
        : ['ledger', 'csv', 'beancount'],
  };
  const parts = op.queryParams.map((p) => {
    const values = examples[p.name];
    if (!values) return fc.constant(undefined);
    const value = fc.constantFrom(...values).map((v) => [p.name, v] as [string, string]);
    return p.required ? value : fc.option(value, { nil: undefined });
  });
  return fc.tuple(...parts).map((pairs) => pairs.filter((x): x is [string, string] => x !== undefined));
}

export function validPath(op: Operation): fc.Arbitrary<string | undefined> {
  const valid = validIds(op);
  return valid.length > 0 ? fc.constantFrom(...valid) : pathArb(op);
}

export function validBody(op: Operation): fc.Arbitrary<{ text: string; contentType: string } | undefined> {
  if (op.rawBody) return bodyArb(op);
  if (!op.jsonBody) return fc.constant(undefined);
  return fc.constant(null).map(() => ({ text: toJson(seedBody(op)), contentType: 'application/json' }));
}

/** Hostile in one part (body, query or path) with the others valid, or hostile everywhere. */
export function requestArb(op: Operation): fc.Arbitrary<Generated> {
  const build = ([pathId, pairs, body]: [
    string | undefined,
    [string, string][],
    { text: string; contentType: string } | undefined,
  ]) => buildRequest(op, pathId, pairs, body);
  return fc.oneof(
    { weight: op.jsonBody ? 4 : 0, arbitrary: fc.tuple(validPath(op), validQuery(op), bodyArb(op)).map(build) },
    { weight: 2, arbitrary: fc.tuple(validPath(op), queryArb(op), validBody(op)).map(build) },
    {
      weight: op.pathParams.length > 0 ? 2 : 0,
      arbitrary: fc.tuple(pathArb(op), validQuery(op), validBody(op)).map(build),
    },
    { weight: 1, arbitrary: fc.tuple(pathArb(op), queryArb(op), bodyArb(op)).map(build) },
  );
}

export function buildRequest(
  op: Operation,
  pathId: string | undefined,
  pairs: [string, string][],
  body: { text: string; contentType: string } | undefined,
): Generated {
  let urlPath = op.path;
  if (pathId !== undefined) urlPath = urlPath.replace(/\{\w+\}/, pathId);
  if (op.path === '/api/statements/import' && !pairs.some(([k]) => k === 'account_id'))
    pairs = [['account_id', seeds.bank!], ...pairs];
  const qs = pairs.map(([k, v]) => `${pct(k).replaceAll('%5B', '[').replaceAll('%5D', ']')}=${pct(v)}`).join('&');
  // As the server's query parser sees it: UTF-8 decoded (lone surrogates become U+FFFD), repeats as arrays.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, rawValue] of pairs) {
    const [k, v] = [Buffer.from(rawKey, 'utf8').toString('utf8'), Buffer.from(rawValue, 'utf8').toString('utf8')];
    query[k] = k in query ? ([] as string[]).concat(query[k]!, v) : v;
  }
  const headers: Record<string, string> = {};
  if (op.auth) headers.authorization = `Bearer ${main.token}`;
  if (body) headers['content-type'] = body.contentType;
  return {
    request: { method: op.method, path: qs ? `${urlPath}?${qs}` : urlPath, headers, body: body?.text },
    sent: { pathId, query, bodyText: body?.text, contentType: body?.contentType },
  };
}

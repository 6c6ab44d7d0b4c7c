import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { identityFile, ledgerFile, watchDigest } from '../support/server.ts';
import { checkLedgerFile, errorShapeProblems, listTree, rawHttp, recordResults } from './support.ts';
import {
  ajv,
  dataFilesBefore,
  doc,
  main,
  operations,
  other,
  outer,
  prototypeKeysBefore,
  queryAjv,
  seeds,
  SESSION_ROUTES,
  sessions,
  stats,
  t,
  useFuzzSession,
  type Operation,
} from './fuzz-session.ts';
import { deepArrays, deepObjects, DUPLICATES, PROTO, Raw, toJson } from './hostile-values.ts';
import { buildRequest, requestArb, seedBody, validIds, type Generated } from './hostile-requests.ts';

/**
 * Property-based hostile input over every operation of the OpenAPI document: wrong types, huge and
 * tiny numbers, 1e309, -0, NaN-like strings, unicode, RTL and NUL, deep nesting, duplicate and
 * prototype keys, overlong strings and arrays, malformed path ids. The oracle, for every request:
 * - never a 5xx and never a hang;
 * - a 4xx is the JSON error shape and leaves the user's ledger file and the identity file
 *   byte-for-byte unchanged (a digest of every row of every table);
 * - a 2xx only for input the OpenAPI schemas allow (checked with ajv), and its JSON answer matches
 *   the documented response schema;
 * - another user's ledger never changes, Object.prototype is never polluted.
 * FUZZ_RUNS raises the number of generated requests per operation (8 in CI).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

useFuzzSession();

// ---------------------------------------------------------------------------------------------
// The oracle

/** The three files each request is checked against, digested again only after a commit (watchDigest). */
let watched: {
  ledger: ReturnType<typeof watchDigest>;
  identity: ReturnType<typeof watchDigest>;
  other: ReturnType<typeof watchDigest>;
};
afterAll(() => {
  if (watched) for (const w of Object.values(watched)) w.close();
});

function digests() {
  watched ??= {
    ledger: watchDigest(ledgerFile(t.dataDir, main.id)),
    identity: watchDigest(identityFile(t.dataDir)),
    other: watchDigest(ledgerFile(t.dataDir, other.id)),
  };
  return { ledger: watched.ledger.digest(), identity: watched.identity.digest(), other: watched.other.digest() };
}
let otherDigest = '';

function schemaErrors(ref: string, value: unknown): string | null {
  const validate = ajv.getSchema(`openapi#${ref}`);
  if (!validate) return `no schema at ${ref}`;
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

const pointer = (...parts: string[]) => '/' + parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Sends one request and checks it; returns a description of what is wrong, or null. */
async function exchange(op: Operation, generated: Generated): Promise<string | null> {
  if (op.auth && SESSION_ROUTES.has(op.path)) {
    // Ending main's session would leave every later request a 401: these end a session of their own.
    const login = await t.api.post('/api/auth/login', { email: sessions.email, password: 'correct horse battery' });
    generated.request.headers = { ...generated.request.headers, authorization: `Bearer ${login.body.access_token}` };
  }
  const before = digests();
  otherDigest ||= before.other;
  const res = await rawHttp(t.server.port, generated.request);
  const after = digests();
  stats.requests += 1;
  stats.byStatus[`${String(res.status)[0]}xx`] = (stats.byStatus[`${String(res.status)[0]}xx`] ?? 0) + 1;
  stats.byOperation[op.operationId] = (stats.byOperation[op.operationId] ?? 0) + 1;
  const what = `${generated.request.method} ${generated.request.path.slice(0, 300)} ${generated.sent.contentType ?? ''} ${(generated.sent.bodyText ?? '').slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return `5xx: ${what}`;
  if (after.other !== otherDigest) return `another user's ledger changed: ${what}`;
  if (op.method === 'GET' && (after.ledger !== before.ledger || after.identity !== before.identity))
    return `a GET changed the data: ${what}`;
  if (res.status >= 400) {
    const problems = errorShapeProblems(res);
    if (problems.length > 0) return `error shape (${problems.join('; ')}): ${what}`;
    if (after.ledger !== before.ledger) return `a refused request changed the ledger: ${what}`;
    if (after.identity !== before.identity) return `a refused request changed the identity file: ${what}`;
    return null;
  }
  // Accepted: only what the documented schemas allow.
  const operation = pointer('paths', op.path, op.method.toLowerCase());
  if (op.pathParams.length > 0 && !validIds(op).includes(decodeURIComponentSafe(generated.sent.pathId ?? '')))
    return `a malformed or foreign path id was accepted: ${what}`;
  const queryCheck = queryValidator(op);
  if (!queryCheck(generated.sent.query))
    return `a query outside the documented parameters was accepted (${ajv.errorsText(queryCheck.errors)}): ${what}`;
  if (op.jsonBody && generated.sent.bodyText !== undefined && generated.sent.bodyText !== '') {
    let parsed: unknown;
    try {
      // A leading byte-order mark is ignored, as RFC 8259 allows (body-parser decodes it away).
      parsed = JSON.parse(generated.sent.bodyText.replace(/^\ufeff/, ''));
    } catch {
      return `malformed JSON was accepted: ${what}`;
    }
    const problem = schemaErrors(`${operation}/requestBody/content/application~1json/schema`, parsed);
    if (problem) return `a body outside the documented schema was accepted (${problem}): ${what}`;
  }
  const documented = doc.paths[op.path][op.method.toLowerCase()].responses[String(res.status)];
  if (!documented) return `undocumented status ${res.status}: ${what}`;
  if (documented.content?.['application/json'] && res.status !== 204) {
    const problem = schemaErrors(`${operation}/responses/${res.status}/content/application~1json/schema`, res.body);
    if (problem) return `the answer does not match its documented schema (${problem}): ${what}`;
  }
  return null;
}

const queryValidators = new Map<string, ReturnType<typeof queryAjv.compile>>();

/** The query as one object schema: the documented parameters, their own schemas, nothing else. */
function queryValidator(op: Operation) {
  const key = `${op.method} ${op.path}`;
  let validate = queryValidators.get(key);
  if (!validate) {
    const operation = pointer('paths', op.path, op.method.toLowerCase());
    const parameters = (doc.paths[op.path][op.method.toLowerCase()].parameters ?? []) as {
      in: string;
      name: string;
      required: boolean;
    }[];
    const properties: Record<string, unknown> = {};
    parameters.forEach((p, i) => {
      if (p.in === 'query') properties[p.name] = { $ref: `openapi#${operation}/parameters/${i}/schema` };
    });
    validate = queryAjv.compile({
      type: 'object',
      properties,
      required: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
      additionalProperties: false,
    });
    queryValidators.set(key, validate);
  }
  return validate;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---------------------------------------------------------------------------------------------

describe('hostile input over every endpoint of the OpenAPI document', () => {
  it('when the document is read, then it lists every route (new ones are fuzzed too, with or without a seed)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });

  it('when hostile bodies, queries and path ids are sent, then each answer is a 4xx in the error shape that changed nothing, or a 2xx for input the schemas allow', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      await fc
        .assert(
          fc.asyncProperty(requestArb(op), async (generated) => {
            const problem = await exchange(op, generated);
            if (problem) failures.push(problem);
            return problem === null;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch((error: Error) => {
          // A thrown error (a hang, a refused connection) rather than a reported problem.
          const lines = error.message.split('\n');
          const cause = lines.findIndex((l) => l.startsWith('Got '));
          failures.push(
            `${op.method} ${op.path}: ${[...lines.slice(0, 2), ...(cause >= 0 ? lines.slice(cause, cause + 3) : [])].join(' ').slice(0, 1500)}`,
          );
        });
    }
    expect(failures).toEqual([]);
  });

  it('when the classic hostile bodies are sent to every JSON endpoint, then none is a 5xx or a hang and a refusal changes nothing', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.jsonBody)) {
      const valid = validIds(op)[0];
      const seed = seedBody(op);
      const firstKey = Object.keys(seed)[0]!;
      const bodies: string[] = [
        deepArrays(100_000).text,
        deepObjects(100_000).text,
        toJson({ ...seed, [firstKey]: deepArrays(100_000) }),
        // duplicate keys: JSON.parse keeps the last; a hostile last value must still be refused
        toJson(Object.assign({ ...seed }, { [DUPLICATES]: [[firstKey, new Raw('1e309')]] })),
        toJson(
          Object.assign(
            { ...seed },
            {
              [DUPLICATES]: [
                ['__proto__', { polluted: 'yes' }],
                ['constructor', { prototype: { polluted: 'yes' } }],
              ],
            },
          ),
        ),
        toJson({ ...seed, [firstKey]: PROTO }),
        toJson({ ...seed, [firstKey]: new Raw('-0') }),
        toJson({ ...seed, [firstKey]: 'NaN' }),
        toJson({ ...seed, [firstKey]: 'a\u0000b\u202e' }),
        toJson({ ...seed, [firstKey]: 'x'.repeat(1024 * 1024 - 200) }),
        toJson({ ...seed, [firstKey]: 'x'.repeat(1024 * 1024 + 10) }),
      ];
      if ('lines' in seed) {
        const lines = Array.from({ length: 10_000 }, (_, i) => ({
          account_id: i % 2 ? seeds.bank : seeds.food,
          direction: i % 2 ? 'CREDIT' : 'DEBIT',
          amount: '0.01',
        }));
        bodies.push(toJson({ ...seed, lines }));
        bodies.push(
          toJson({
            ...seed,
            lines: [
              ...lines.slice(0, 998),
              { account_id: seeds.food, direction: 'DEBIT', amount: new Raw('1e309') },
              lines[1],
            ],
          }),
        );
      }
      if ('transactions' in seed) {
        const transactions = Array.from({ length: 9_000 }, (_, i) => ({
          date: '2026-01-15',
          description: `Row ${i}`,
          amount: '1.00',
          type: 'debit',
        }));
        bodies.push(
          toJson({
            ...seed,
            transactions: [
              ...transactions,
              { date: '2026-02-30', description: 'bad date', amount: '1.00', type: 'debit' },
            ],
          }),
        );
      }
      for (const text of bodies) {
        const generated = buildRequest(op, valid, [], { text, contentType: 'application/json' });
        const problem = await exchange(op, generated);
        if (problem) failures.push(problem.slice(0, 600));
      }
    }
    expect(failures).toEqual([]);
  });

  it('when the run is over, then no prototype was polluted, no file appeared outside ledgers/, both ledgers still hold their invariants, and the server still answers', async () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeysBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Nothing beside the data folder, and inside it only the files the app names itself.
    expect(fs.readdirSync(outer)).toEqual(['data']);
    const allowed = [
      /^ledgers\/$/,
      /^ledgers\/[0-9a-f-]{36}\.sqlite(-wal|-shm)?$/,
      /^identity\.sqlite(-wal|-shm)?$/,
      /^server\.json$/,
      /^backups\/$/,
      /^backups\/[0-9a-f-]{36}\/$/,
      /^backups\/[0-9a-f-]{36}\/ledger-[0-9TZ]+-[a-z-]+\.sqlite$/,
    ];
    const files = listTree(t.dataDir);
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    // (backups rotate: only the newest ten are kept; a ledger's -wal and -shm go when it is closed,
    // which the server's sweep of idle ledgers does under this test's clock once a minute has passed)
    for (const f of dataFilesBefore.filter((x) => !x.startsWith('backups/') && !/-(wal|shm)$/.test(x)))
      expect(files).toContain(f);
    for (const op of operations)
      expect(stats.byOperation[op.operationId] ?? 0, `${op.method} ${op.path} was not fuzzed`).toBeGreaterThanOrEqual(
        RUNS,
      );
    for (const id of [main.id, other.id]) expect(checkLedgerFile(ledgerFile(t.dataDir, id)).problems).toEqual([]);
    expect((await t.api.get('/api/auth/me', main.token)).status).toBe(200);
    await recordResults('hostile_input', {
      operations: operations.length,
      fuzzed_without_a_valid_seed: operations
        .filter(
          (o) =>
            (o.jsonBody && Object.keys(seedBody(o)).length === 0) ||
            (o.pathParams.length > 0 && validIds(o).length === 0),
        )
        .map((o) => `${o.method} ${o.path}`),
      requests: stats.requests,
      answers: stats.byStatus,
      five_xx: stats.byStatus['5xx'] ?? 0,
    });
    expect(stats.byStatus['5xx']).toBeUndefined();
  });
});

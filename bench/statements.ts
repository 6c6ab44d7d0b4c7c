/**
 * Bank statements: imports of 10,000 rows (into three accounts) and 100,000 rows (also into an
 * empty account, without and with 22 rules), and reconciliation runs of the 10,000-row statement
 * against the books, each beside the raw inserts and reads of the same work on a copy of the
 * ledger, with bench/probe.ts asking the server meanwhile.
 *
 *   node bench/statements.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BankRow } from './generate.ts';
import { runAlone, settleDisk, type Area, type Bench } from './lib/harness.ts';
import type { Figures, Target } from './lib/results.ts';
import { since, summarize } from './lib/stats.ts';

/**
 * Rules as a household keeps them: payee words, a few patterns, amount bands and directions. The
 * card's rows are written by bench/generate.ts ("AMAZON MKTP", "SHELL OIL", ...), so some match.
 */
const BENCH_RULES = [
  ...[
    'amazon',
    'shell',
    'whole foods',
    'trader joe',
    'starbucks',
    'uber',
    'netflix',
    'spotify',
    'costco',
    'target',
  ].map((value) => ({ name: value, description: { op: 'contains', value } })),
  ...['safeway', 'chevron', 'walgreens', 'cvs', 'apple'].map((value) => ({
    name: value,
    description: { op: 'starts_with', value },
  })),
  ...['payment thank you', 'interest charge', 'annual fee'].map((value) => ({
    name: value,
    description: { op: 'equals', value },
  })),
  { name: 'parking', description: { op: 'regex', value: '(park|garage)[a-z]* ?#?\\d+' } },
  { name: 'restaurants', description: { op: 'regex', value: '\\b(cafe|grill|bistro|pizza)\\b' } },
  { name: 'small', type: 'debit', amount_max: '2.50' },
  { name: 'refunds', type: 'credit', amount_min: '0.01', amount_max: '20' },
];

/** A statement the generator wrote (statement-*.json in the books' folder): its rows. */
function statementRows(bench: Bench, name: string): BankRow[] {
  const file = path.join(bench.options.books, `statement-${name}.json`);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { transactions: BankRow[] }).transactions;
}

/** A statement imported over HTTP (with the probe) and on the raw copy: their ids. */
interface Imported {
  id: string;
  rawId: string;
}

/** The checking statement into checking, savings and amex (the rows made unique per copy). */
async function importChecking(bench: Bench): Promise<Imported | undefined> {
  const { client, ids, counts } = bench;
  const rows = statementRows(bench, 'checking');
  let imported: Imported | undefined;
  await bench.attempt('statement_10k', `statement import, ${rows.length} rows (JSON)`, 's', async () => {
    const times: number[] = [];
    const targets = [ids.checking, ids.savings, ids.amex].slice(0, counts.statementCopies);
    let id = '';
    for (const [i, accountId] of targets.entries()) {
      const transactions = i === 0 ? rows : rows.map((t) => ({ ...t, external_id: `${t.external_id}-copy${i}` }));
      const { result, ms } = await bench.probed('statement_10k', () =>
        client.json(
          'POST',
          '/api/statements',
          { account_id: accountId, name: `Bench statement ${i + 1}`, transactions },
          201,
        ),
      );
      if (i === 0) id = result.id;
      times.push(ms / 1000);
    }
    const rawStart = process.hrtime.bigint();
    imported = { id, rawId: bench.rawWriter().importStatement(ids.checking, rows) };
    const rawS = summarize([since(rawStart) / 1000]);
    const api = summarize(times);
    return { summary: api, raw: { label: 'one transaction of inserts', summary: rawS }, ratio: rawS.p50 / api.p50 };
  });
  return imported;
}

/** A reconciliation run of the statement over HTTP, and the raw reads and inserts of the same run. */
async function reconcile(bench: Bench, statement: Imported, target: Target | undefined): Promise<Figures> {
  const { result, ms } = await bench.probed('reconciliation', () =>
    bench.client.json('POST', '/api/reconciliation/run', { statement_id: statement.id }, [200, 201]),
  );
  const rawStart = process.hrtime.bigint();
  bench.rawWriter().reconciliationData(statement.rawId, bench.ids.checking);
  const rawMs = since(rawStart);
  return {
    summary: summarize([ms / 1000]),
    raw: { label: 'reads + match inserts, no scoring', summary: summarize([rawMs / 1000]) },
    ratio: rawMs / ms,
    ...(target ? { target } : {}),
    note: `auto-accepted ${result.summary?.auto_accepted}, review ${result.summary?.pending_review}, unmatched ${result.summary?.unmatched}`,
  };
}

/**
 * The reconciliation target is for 10,000 bank rows against 100,000 entries: the whole statement
 * at 100k; at 1m, where it spans checking's 450,000 entries, the recent statement.
 */
async function reconciliationRuns(bench: Bench, statement: Imported | undefined): Promise<void> {
  const { manifest, ids } = bench;
  const runTarget: Target = { text: '≤ 3 s', stat: 'max', atMost: 3 };
  const recent = manifest.recentStatement;
  await bench.attempt(
    'reconciliation',
    `reconciliation run, ${statementRows(bench, 'checking').length} bank txns vs ${manifest.entries} entries (${manifest.checkingEntries} on checking)`,
    's',
    async () => {
      if (!statement) throw new Error('no statement to reconcile');
      return reconcile(bench, statement, recent ? undefined : runTarget);
    },
  );
  if (!recent) return;
  await bench.attempt(
    'reconciliation_recent',
    `reconciliation run, ${recent.rows} bank txns vs the ${recent.checkingEntries} checking entries from ${recent.firstDay} on`,
    's',
    async () => {
      const rows = statementRows(bench, 'checking-recent');
      const body = { account_id: ids.checking, name: 'Bench recent statement', transactions: rows };
      const { result } = await bench.probed('statement_10k', () =>
        bench.client.json('POST', '/api/statements', body, 201),
      );
      const rawId = bench.rawWriter().importStatement(ids.checking, rows);
      return reconcile(bench, { id: result.id as string, rawId }, runTarget);
    },
  );
}

/** The card's 100,000 rows into the card account, beside the raw inserts. */
async function importCard(bench: Bench, rows: BankRow[]): Promise<void> {
  const { client, ids } = bench;
  await bench.attempt('statement_100k', `statement import, ${rows.length} rows (JSON)`, 's', async () => {
    const body = { account_id: ids.card, name: 'Bench card statement', transactions: rows };
    const { ms } = await bench.probed('statement_100k', () => client.json('POST', '/api/statements', body, 201));
    const rawStart = process.hrtime.bigint();
    bench.rawWriter().importStatement(ids.card, rows);
    const rawMs = since(rawStart);
    return {
      summary: summarize([ms / 1000]),
      raw: { label: 'one transaction of inserts', summary: summarize([rawMs / 1000]) },
      ratio: rawMs / ms,
      target: { text: '≤ 5 s', stat: 'max', atMost: 5 },
    };
  });
}

/**
 * The card's rows into an account of their own with no rows yet, first without rules and then,
 * that statement deleted, with the rules: the one difference is the rules (the card account
 * already holds these rows, which makes any import of them slower).
 */
async function importWithRules(bench: Bench, rows: BankRow[]): Promise<void> {
  const { client, ids } = bench;
  const label = `statement import, ${rows.length} rows (JSON), with ${BENCH_RULES.length} rules applied to every row`;
  await bench.attempt('statement_100k_rules', label, 's', async () => {
    const account = await client.json<{ id: string }>('POST', '/api/accounts', {
      name: 'Bench card, rules',
      type: 'LIABILITY',
    });
    const body = { account_id: account.id, name: 'Bench card statement, rules', transactions: rows };
    const plain = await bench.probed('statement_100k', () => client.json('POST', '/api/statements', body, 201));
    await client.ok('DELETE', `/api/statements/${plain.result.id as string}`);
    for (const rule of BENCH_RULES)
      await client.json('POST', '/api/rules', { ...rule, account_id: ids.groceries }, 201);
    const { ms, result } = await bench.probed('statement_100k', () =>
      client.json('POST', '/api/statements', body, 201),
    );
    return {
      summary: summarize([ms / 1000]),
      raw: { label: 'the same import without rules', summary: summarize([plain.ms / 1000]) },
      ratio: plain.ms / ms,
      target: { text: '≤ 1.2 × the import without rules', stat: 'max', atMost: (1.2 * plain.ms) / 1000 },
      note: `${result.rule_matched_count} of ${rows.length} rows matched a rule; without rules ${(plain.ms / 1000).toFixed(2)} s`,
    };
  });
}

export const statements: Area = {
  name: 'statements',
  run: async (bench) => {
    bench.rawWriter();
    settleDisk();
    const checking = await importChecking(bench);
    await reconciliationRuns(bench, checking);
    const card = statementRows(bench, 'card');
    await importCard(bench, card);
    await importWithRules(bench, card);
  },
};

runAlone(import.meta, [statements]);

import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { Rule, RuleDescriptionOp, RuleSplit } from '../../domain/reconciliation/index.ts';

export interface StoredRule extends Rule {
  priority: number;
  createdAt: string;
  splits: readonly RuleSplit[];
}

type Row = LedgerSchema['rules'];

function toRule(r: Row, splits: ReadonlyMap<string, RuleSplit[]>): StoredRule {
  return {
    id: r.id,
    name: r.name,
    description:
      r.description_op === null || r.description_value === null
        ? null
        : { op: r.description_op as RuleDescriptionOp, value: r.description_value },
    type: r.type as 'debit' | 'credit' | null,
    amountMin: r.amount_min,
    amountMax: r.amount_max,
    accountId: r.account_id,
    memo: r.memo,
    priority: Number(r.priority),
    createdAt: r.created_at,
    splits: splits.get(r.id) ?? [],
  };
}

/** The splits of some rules, in their order: their primary key, a range per rule. */
function splitsOf(db: LedgerDb, ruleIds: readonly string[]): Map<string, RuleSplit[]> {
  const out = new Map<string, RuleSplit[]>();
  if (ruleIds.length === 0) return out;
  const rows = db.allSql<LedgerSchema['rule_splits']>(
    'SELECT * FROM rule_splits WHERE rule_id IN (SELECT value FROM json_each(?)) ORDER BY rule_id, position',
    JSON.stringify(ruleIds),
  );
  for (const r of rows) {
    const list = out.get(r.rule_id) ?? [];
    list.push({ accountId: r.account_id, amount: r.amount, percent: r.percent });
    out.set(r.rule_id, list);
  }
  return out;
}

function toRules(db: LedgerDb, rows: readonly Row[]): StoredRule[] {
  const splits = splitsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRule(r, splits));
}

function writeSplits(db: LedgerDb, rule: StoredRule): void {
  db.runSql('DELETE FROM rule_splits WHERE rule_id = ?', rule.id);
  rule.splits.forEach((s, i) =>
    db.runSql(
      'INSERT INTO rule_splits (rule_id, position, account_id, amount, percent) VALUES (?, ?, ?, ?, ?)',
      rule.id,
      i + 1,
      s.accountId,
      s.amount,
      s.percent,
    ),
  );
}

function columns(rule: StoredRule, at: string) {
  return {
    name: rule.name,
    description_op: rule.description?.op ?? null,
    description_value: rule.description?.value ?? null,
    type: rule.type,
    amount_min: rule.amountMin,
    amount_max: rule.amountMax,
    account_id: rule.accountId,
    memo: rule.memo,
    priority: BigInt(rule.priority),
    updated_at: at,
  };
}

const ORDER = 'ORDER BY priority DESC, created_at, seq';

export function insertRule(db: LedgerDb, rule: StoredRule): void {
  const seq = db.allSql<{ s: bigint | null }>('SELECT MAX(seq) AS s FROM rules')[0]!.s ?? 0n;
  db.run(
    db.qb
      .insertInto('rules')
      .values({ id: rule.id, seq: seq + 1n, created_at: rule.createdAt, ...columns(rule, rule.createdAt) }),
  );
  writeSplits(db, rule);
}

export function replaceRule(db: LedgerDb, rule: StoredRule, at: string): void {
  db.run(db.qb.updateTable('rules').set(columns(rule, at)).where('id', '=', rule.id));
  writeSplits(db, rule);
}

export function deleteRule(db: LedgerDb, id: string): boolean {
  return db.run(db.qb.deleteFrom('rules').where('id', '=', id)) === 1;
}

export function findRule(db: LedgerDb, id: string): StoredRule | undefined {
  const rows = db.allSql<Row>('SELECT * FROM rules WHERE id = ?', id);
  return toRules(db, rows)[0];
}

export function countRules(db: LedgerDb): number {
  return Number(db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM rules')[0]!.n);
}

export function hasRegexRules(db: LedgerDb): boolean {
  return db.allSql("SELECT 1 FROM rules WHERE description_op = 'regex' LIMIT 1").length > 0;
}

export function listRules(db: LedgerDb, limit: number, offset: number): { items: StoredRule[]; total: number } {
  const rows = db.allSql<Row>(`SELECT * FROM rules ${ORDER} LIMIT ? OFFSET ?`, limit, offset);
  return { items: toRules(db, rows), total: countRules(db) };
}

/** The rules that can book a line, in order: those whose accounts (its own and its splits') are all active. */
export function activeRulesInOrder(db: LedgerDb): StoredRule[] {
  const rows = db.allSql<Row>(
    `SELECT r.* FROM rules r JOIN accounts a ON a.id = r.account_id
      WHERE a.is_active = 1
        AND NOT EXISTS (SELECT 1 FROM rule_splits s JOIN accounts sa ON sa.id = s.account_id WHERE s.rule_id = r.id AND sa.is_active = 0)
      ${ORDER.replace(/(priority|created_at|seq)/g, 'r.$1')}`,
  );
  return toRules(db, rows);
}

import type { LedgerSchema } from '../../db/schema.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { Rule, RuleDescriptionOp } from '../../domain/reconciliation/index.ts';

export interface StoredRule extends Rule {
  priority: number;
  createdAt: string;
}

type Row = LedgerSchema['rules'];

function toRule(r: Row): StoredRule {
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
  };
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
}

export function replaceRule(db: LedgerDb, rule: StoredRule, at: string): void {
  db.run(db.qb.updateTable('rules').set(columns(rule, at)).where('id', '=', rule.id));
}

export function deleteRule(db: LedgerDb, id: string): boolean {
  return db.run(db.qb.deleteFrom('rules').where('id', '=', id)) === 1;
}

export function findRule(db: LedgerDb, id: string): StoredRule | undefined {
  const [row] = db.allSql<Row>('SELECT * FROM rules WHERE id = ?', id);
  return row && toRule(row);
}

export function countRules(db: LedgerDb): number {
  return Number(db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM rules')[0]!.n);
}

export function hasRegexRules(db: LedgerDb): boolean {
  return db.allSql("SELECT 1 FROM rules WHERE description_op = 'regex' LIMIT 1").length > 0;
}

export function listRules(db: LedgerDb, limit: number, offset: number): { items: StoredRule[]; total: number } {
  const rows = db.allSql<Row>(`SELECT * FROM rules ${ORDER} LIMIT ? OFFSET ?`, limit, offset);
  return { items: rows.map(toRule), total: countRules(db) };
}

/** The rules that can book a line, in order: those whose account is active. */
export function activeRulesInOrder(db: LedgerDb): StoredRule[] {
  return db
    .allSql<Row>(
      `SELECT r.* FROM rules r JOIN accounts a ON a.id = r.account_id WHERE a.is_active = 1 ${ORDER.replace(/(priority|created_at|seq)/g, 'r.$1')}`,
    )
    .map(toRule);
}

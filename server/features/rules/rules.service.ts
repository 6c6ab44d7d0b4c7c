import { MAX_RULES, type RuleDto, type RuleInput } from '../../contract/rules.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import { DomainError } from '../../domain/errors.ts';
import { RuleSet, ruleProblems } from '../../domain/reconciliation/index.ts';
import { parsePercent, PERCENT_DECIMALS } from '../../domain/splits.ts';
import { findAccount } from '../accounts/accounts.queries.ts';
import {
  activeRulesInOrder,
  countRules,
  deleteRule,
  findRule,
  hasRegexRules,
  insertRule,
  listRules,
  replaceRule,
  type StoredRule,
} from './rules.repository.ts';

function toRuleDto(r: StoredRule): RuleDto {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    type: r.type,
    amount_min: r.amountMin,
    amount_max: r.amountMax,
    account_id: r.accountId,
    memo: r.memo,
    priority: r.priority,
    splits: r.splits.map((sp) => ({ account_id: sp.accountId, amount: sp.amount, percent: sp.percent })),
    created_at: r.createdAt,
  };
}

/** An account a rule books to: the user's own, active. */
function usableAccount(db: LedgerDb, id: string, field: string): void {
  const account = findAccount(db, id);
  if (!account || !account.isActive)
    throw new DomainError(
      'INVALID_ACCOUNT',
      account ? `The account ${account.name} is deactivated` : 'The account does not exist',
      [{ field, message: account ? 'is deactivated' : 'no such account' }],
    );
}

/** A rule's conditions must be usable and its account the user's own active account. */
function checked(db: LedgerDb, id: string, input: RuleInput, createdAt: string): StoredRule {
  const rule: StoredRule = {
    id,
    name: input.name,
    description: input.description,
    type: input.type,
    amountMin: input.amount_min,
    amountMax: input.amount_max,
    accountId: input.account_id,
    memo: input.memo,
    priority: input.priority,
    createdAt,
    splits: input.splits.map((sp) => ({ accountId: sp.account_id, amount: sp.amount, percent: sp.percent })),
  };
  const problems = ruleProblems(rule);
  const percents = input.splits.reduce((sum, sp) => sum + (sp.percent === null ? 0n : parsePercent(sp.percent)!), 0n);
  if (percents >= 100n * 10n ** BigInt(PERCENT_DECIMALS))
    problems.push({
      field: 'splits',
      message: "the percentages add up to 100 or more and leave nothing for the rule's account",
    });
  if (problems.length > 0)
    throw new DomainError('VALIDATION_ERROR', `Invalid rule: ${problems[0]!.field} ${problems[0]!.message}`, problems);
  usableAccount(db, input.account_id, 'account_id');
  input.splits.forEach((sp, i) => usableAccount(db, sp.account_id, `splits.${i}.account_id`));
  return rule;
}

function requireRule(db: LedgerDb, id: string): StoredRule {
  const rule = findRule(db, id);
  if (!rule) throw new DomainError('NOT_FOUND', 'Rule not found');
  return rule;
}

export function createRule(db: LedgerDb, input: RuleInput): RuleDto {
  return db.transaction(() => {
    if (countRules(db) >= MAX_RULES)
      throw new DomainError('VALIDATION_ERROR', `A ledger holds at most ${MAX_RULES} rules`, [
        { field: 'name', message: `at most ${MAX_RULES} rules` },
      ]);
    const rule = checked(db, newRowId(), input, new Date().toISOString());
    insertRule(db, rule);
    return toRuleDto(rule);
  });
}

export function replaceRuleById(db: LedgerDb, id: string, input: RuleInput): RuleDto {
  return db.transaction(() => {
    const before = requireRule(db, id);
    const rule = checked(db, id, input, before.createdAt);
    replaceRule(db, rule, new Date().toISOString());
    return toRuleDto(rule);
  });
}

export function getRule(db: LedgerDb, id: string): RuleDto {
  return toRuleDto(requireRule(db, id));
}

export function removeRule(db: LedgerDb, id: string): void {
  db.transaction(() => {
    if (!deleteRule(db, id)) throw new DomainError('NOT_FOUND', 'Rule not found');
  });
}

export function listRulePage(db: LedgerDb, query: { page: number; per_page: number }) {
  const { items, total } = listRules(db, query.per_page, (query.page - 1) * query.per_page);
  return { items: items.map(toRuleDto), total, page: query.page, per_page: query.per_page };
}

/**
 * The regex work (RuleSet's units: program instructions times characters, compiling included) a
 * request answered on the server's thread may spend on rules: a few hundred milliseconds at RE2's
 * slowest, far more than a page of suggestions takes with the rules a household writes.
 */
export const RULE_WORK_ON_SERVER_THREAD = 20_000_000;

/** The rules that book bank lines now, in their order, within `maxWork` (default: no budget, for the job worker). */
export function ruleSetOf(db: LedgerDb, maxWork = Infinity): RuleSet {
  return new RuleSet(activeRulesInOrder(db), maxWork);
}

/**
 * Whether matching this ledger's rules costs no more than reading the lines: no rule is a regex. A
 * job that matches rules runs on the server's thread only then (statements.jobs.ts).
 */
export function rulesAreLinear(db: LedgerDb): boolean {
  return !hasRegexRules(db);
}

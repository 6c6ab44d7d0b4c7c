/**
 * Reconciliation domain: pure scoring of bank transactions against journal entries, one-to-one
 * assignment and the payee → counter-account model. No I/O; see README notes in each module.
 */
export type { CandidateEntry, CounterAccount, ScoreBreakdown, Thresholds } from './types.ts';
export { daysApart } from './scoring.ts';
export { normaliseDescription } from './description.ts';
export { PayeeModel } from './payee-model.ts';
export type { ScoredPair } from './pair.ts';
export { scorePair } from './pair.ts';
export { matchInDateOrder } from './sweep.ts';
export { CANDIDATE_WINDOW_DAYS } from './sweep-ranking.ts';
export type { SuggestableAccount } from './suggestions.ts';
export { suggestCounterAccounts } from './suggestions.ts';
export type { Rule, RuleDescriptionOp, RuleSplit } from './rules.ts';
export { MAX_REPEATS, MAX_RULE_PROGRAM, RULE_CALIBRATION_MS, RuleSet, ruleProblems } from './rules.ts';
export type { RerunPlan } from './rerun.ts';
export { planRerun } from './rerun.ts';
export { isReconciled, LIVE_MATCH_STATUSES, RECONCILED_MATCH_STATUSES } from './match-status.ts';

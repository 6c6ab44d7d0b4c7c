/**
 * Reconciliation domain: pure scoring of bank transactions against journal entries, one-to-one
 * assignment and the payee → counter-account model. No I/O; see README notes in each module.
 */
export type {
  AccountLine,
  AccountType,
  BankTxn,
  CandidateEntry,
  CounterAccount,
  Direction,
  MatchStatus,
  ScoreBreakdown,
  Thresholds,
} from './types.ts';
export {
  AMOUNT_LIMIT_UNITS,
  amountLimitMinor,
  BUSINESS_NO_FIT,
  BUSINESS_PARTIAL_FIT,
  classify,
  DATE_LIMIT_DAYS,
  dayNumber,
  daysApart,
  DEFAULT_THRESHOLDS,
  expectedLineDirection,
  MONEY_IN_COUNTER_TYPES,
  MONEY_OUT_COUNTER_TYPES,
  netAccountLines,
  SCORE_WEIGHTS,
  scoreAmount,
  scoreBusiness,
  scoreDate,
  scoreDays,
  THRESHOLD_ENV,
  thresholdsFromEnv,
  totalScore,
  validateThresholds,
} from './scoring.ts';
export type { PreparedDescription, TokenProfile } from './description.ts';
export {
  CHANNEL_WORDS,
  DESCRIPTION_WEIGHTS,
  descriptionWords,
  NOISE_WORDS,
  normaliseDescription,
  payeeKey,
  payeeTokens,
  PROCESSOR_PREFIXES,
  prepareDescription,
  REFERENCE_NUMBER_MIN_DIGITS,
  scoreDescription,
  scoreDescriptionPrepared,
  significantTokens,
  tokens,
} from './description.ts';
export type { AccountPrediction, PayeeExample, Prediction } from './payee-model.ts';
export type { PayeeContext } from './payee-features.ts';
export type { HistoryEvidence } from './history-score.ts';
export { PayeeModel, scoreHistory } from './payee-model.ts';
export { EMPTY_HISTORY_EVIDENCE, scoreHistoryPrepared } from './history-score.ts';
export type { Assignable } from './assignment.ts';
export { compareForAssignment } from './assignment.ts';
export type { CounterFacts, PreparedEntry, PreparedTxn, ScoredPair, ScoreOptions, SharedPreparation } from './pair.ts';
export { prepareEntry, prepareTxn, scorePair, scorePrepared, sharedPreparation } from './pair.ts';
export type { SweepMatch, SweepOptions, SweepResult } from './sweep.ts';
export { matchInDateOrder } from './sweep.ts';
export { CANDIDATE_WINDOW_DAYS } from './sweep-ranking.ts';
export type { SuggestableAccount, SuggestedAccount, Suggestions } from './suggestions.ts';
export {
  MAX_SUGGESTIONS,
  MIN_SUGGESTED_CONFIDENCE,
  PRESELECT_KNOWN_PAYEE,
  PRESELECT_NEW_PAYEE,
  suggestCounterAccounts,
} from './suggestions.ts';
export type { Rule, RuleConditions, RuleDescriptionOp, RuleSplit, RuleTarget } from './rules.ts';
export {
  MAX_REPEATS,
  MAX_RULE_PROGRAM,
  RULE_CALIBRATION_MS,
  RULE_DESCRIPTION_OPS,
  RuleSet,
  ruleDraftFrom,
  ruleProblems,
} from './rules.ts';
export type { AssignedPair, RerunPlan, RunTxn } from './rerun.ts';
export { planRerun } from './rerun.ts';

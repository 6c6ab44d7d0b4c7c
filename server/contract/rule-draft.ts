/**
 * What the interface needs of rules without their schemas or pattern engine: the ways a rule
 * compares a description, and the rule "make a rule from this" starts from for a bank line.
 */
export { RULE_DESCRIPTION_OPS, ruleDraftFrom, type RuleDescriptionOp } from '../domain/reconciliation/rule-draft.ts';

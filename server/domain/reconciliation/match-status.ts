/**
 * What a stored match's status means for its bank line and its entry. A live match holds both: no
 * other live match may take either, and neither is offered as a candidate again. It is live while
 * accepted (by the user, or automatically by a run) or waiting for review. A reconciled match is a
 * live one that is accepted: its bank line is matched for good. A rejected or superseded match
 * holds nothing (a rejected pair is never proposed again).
 */

export const LIVE_MATCH_STATUSES = ['auto_accepted', 'accepted', 'pending_review'] as const;

export const RECONCILED_MATCH_STATUSES = ['auto_accepted', 'accepted'] as const;

/** Whether a match with this status has its bank line matched for good. */
export function isReconciled(status: string | null): boolean {
  return (RECONCILED_MATCH_STATUSES as readonly (string | null)[]).includes(status);
}

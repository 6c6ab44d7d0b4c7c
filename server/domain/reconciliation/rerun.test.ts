import { describe, expect, it } from 'vitest';
import { planRerun, type AssignedPair, type RunTxn } from './rerun.ts';

function ids() {
  let n = 0;
  return () => `new${++n}`;
}

const pending = (id: string, entryId: string, version = 1) => ({ id, entryId, version });

describe('planRerun', () => {
  it('when transactions without a match get pairs, then each pair is a new match and the summary counts them by status', () => {
    const txns: RunTxn[] = [
      { id: 't1', pendingMatch: undefined },
      { id: 't2', pendingMatch: undefined },
      { id: 't3', pendingMatch: undefined },
    ];
    const pairs: AssignedPair[] = [
      { txnId: 't2', entryId: 'e2', status: 'pending_review' },
      { txnId: 't1', entryId: 'e1', status: 'auto_accepted' },
    ];
    const plan = planRerun(txns, pairs, ids());
    expect(plan.inserts.map((i) => [i.id, i.pair.txnId])).toEqual([
      ['new1', 't1'],
      ['new2', 't2'],
    ]);
    expect(plan.superseded).toEqual([]);
    expect(plan.summary).toEqual({ total: 3, autoAccepted: 1, pendingReview: 1, unmatched: 1 });
  });

  it('when a transaction gets the entry it is already pending with, then nothing is recorded and it still counts as pending', () => {
    const plan = planRerun(
      [{ id: 't1', pendingMatch: pending('m1', 'e1') }],
      [{ txnId: 't1', entryId: 'e1', status: 'pending_review' }],
      ids(),
    );
    expect([plan.inserts, plan.superseded, plan.summary.pendingReview]).toEqual([[], [], 1]);
  });

  it('when a pending transaction gets another entry, then its old match is superseded by the new one', () => {
    const plan = planRerun(
      [{ id: 't1', pendingMatch: pending('m1', 'e1', 3) }],
      [{ txnId: 't1', entryId: 'e2', status: 'auto_accepted' }],
      ids(),
    );
    expect(plan.superseded).toEqual([{ id: 'm1', version: 3, by: 'new1' }]);
    expect(plan.summary).toEqual({ total: 1, autoAccepted: 1, pendingReview: 0, unmatched: 0 });
  });

  it('when another transaction’s new match takes a pending match’s entry, then that pending match is superseded by it', () => {
    const plan = planRerun(
      [
        { id: 't1', pendingMatch: pending('m1', 'e1') },
        { id: 't2', pendingMatch: undefined },
      ],
      [{ txnId: 't2', entryId: 'e1', status: 'pending_review' }],
      ids(),
    );
    expect(plan.superseded).toEqual([{ id: 'm1', version: 1, by: 'new1' }]);
    expect(plan.summary).toEqual({ total: 2, autoAccepted: 0, pendingReview: 1, unmatched: 1 });
  });

  it('when a pending match loses nothing to the run, then it stays pending and counts as such', () => {
    const plan = planRerun([{ id: 't1', pendingMatch: pending('m1', 'e1') }], [], ids());
    expect([plan.inserts, plan.superseded, plan.summary]).toEqual([
      [],
      [],
      { total: 1, autoAccepted: 0, pendingReview: 1, unmatched: 0 },
    ]);
  });

  it('when a pair is below review (unmatched) or names a transaction outside the run, then it is no match', () => {
    const plan = planRerun(
      [{ id: 't1', pendingMatch: undefined }],
      [
        { txnId: 't1', entryId: 'e1', status: 'unmatched' },
        { txnId: 'elsewhere', entryId: 'e2', status: 'auto_accepted' },
      ],
      ids(),
    );
    expect([plan.inserts, plan.summary.unmatched]).toEqual([[], 1]);
  });
});

import crypto from 'node:crypto';
import type { LedgerDb } from '../../db/stores.ts';
import type { MatchDto, UnmatchedItemDto } from '../../contract/reconciliation.ts';
import { addDays } from '../../domain/dates.ts';
import { DomainError } from '../../domain/errors.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { formatMinor } from '../../domain/money.ts';
import {
  CANDIDATE_WINDOW_DAYS,
  matchInDateOrder,
  PayeeModel,
  scorePair,
  type CandidateEntry,
  type CounterAccount,
  type ScoredPair,
  type Thresholds,
} from '../../domain/reconciliation/index.ts';
import { accountsByIds, allAccounts, findAccount, type Account } from '../accounts/accounts.repository.ts';
import { createEntry } from '../journal/journal.service.ts';
import { findStatement } from '../statements/statements.repository.ts';
import {
  accountUsage,
  addPayeeExample,
  candidateEntries,
  counterAccounts,
  decide,
  findBankTransaction,
  findMatch,
  insertMatch,
  insertRun,
  linkSupersededBy,
  liveMatchOfTransaction,
  matchView,
  payeeExamples,
  payeeExamplesAfter,
  pendingMatches,
  rejectedPairs,
  statusCounts,
  unmatchedEntries,
  unmatchedTransactions,
  unreconciledTransactions,
  type Match,
  type MatchView,
  type Scope,
  type TxnInScope,
} from './reconciliation.repository.ts';

/**
 * The account's posted entries dated in [from, to], in date order, streamed as the run walks
 * forward, without those taken already: reconciled, or pending with a transaction outside the run
 * (`inScope`). Entries with the same counter accounts share one list of them.
 */
function* candidatesInDateOrder(
  db: LedgerDb,
  accountId: string,
  from: string,
  to: string,
  inScope: ReadonlySet<string>,
): Generator<CandidateEntry> {
  const accounts = new Map(allAccounts(db).map((a) => [a.id, { id: a.id, type: a.type }]));
  const counterLists = new Map<string, CounterAccount[]>();
  for (const r of candidateEntries(db, accountId, from, to)) {
    // an entry already reconciled, or pending with a transaction outside this run, is taken
    if (r.liveMatch && !(r.liveMatch.status === 'pending_review' && inScope.has(r.liveMatch.bankTransactionId)))
      continue;
    let counterAccounts = counterLists.get(r.counters);
    if (!counterAccounts)
      counterLists.set(
        r.counters,
        (counterAccounts = r.counters === '' ? [] : r.counters.split(' ').map((id) => accounts.get(id)!)),
      );
    yield {
      id: r.entryId,
      entryDate: r.entryDate,
      memo: r.memo,
      accountLine: {
        direction: r.netMinor >= 0n ? 'DEBIT' : 'CREDIT',
        amountMinor: r.netMinor < 0n ? -r.netMinor : r.netMinor,
      },
      counterAccounts,
    };
  }
}

export function toMatchDto(m: MatchView): MatchDto {
  const net = m.entry.netMinor < 0n ? -m.entry.netMinor : m.entry.netMinor;
  return {
    id: m.id,
    status: m.status as MatchDto['status'],
    score: m.score,
    score_breakdown: m.breakdown,
    bank_transaction: {
      id: m.txn.id,
      date: m.txn.date,
      description: m.txn.description,
      amount: formatMinor(m.txn.amountMinor, m.currency),
      currency: m.currency,
      type: m.txn.type,
    },
    journal_entries: [
      { id: m.entry.id, entry_date: m.entry.entryDate, memo: m.entry.memo, total_amount: formatMinor(net, m.currency) },
    ],
    version: m.version,
    superseded_by_id: m.supersededById,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    accepted_at: m.acceptedAt,
    rejected_at: m.rejectedAt,
    reject_reason: m.rejectReason,
  };
}

function payeeModel(db: LedgerDb): PayeeModel {
  return PayeeModel.fromExamples(payeeExamples(db));
}

/** The payee model learns the counter accounts of an entry a bank description was reconciled with. */
function learn(
  db: LedgerDb,
  description: string,
  entryId: string,
  accountId: string,
  source: 'accepted_match' | 'created_entry',
  at: string,
): void {
  const counters = counterAccounts(db, [entryId], accountId).get(entryId) ?? [];
  for (const id of new Set(counters.map((c) => c.id))) addPayeeExample(db, description, id, source, at);
}

function statementAccount(db: LedgerDb, id: string, field: string): Account {
  const account = findAccount(db, id);
  if (!account)
    throw new DomainError('INVALID_ACCOUNT', 'The account does not exist', [{ field, message: 'no such account' }]);
  if (account.type !== 'ASSET' && account.type !== 'LIABILITY') {
    throw new DomainError(
      'INVALID_ACCOUNT',
      `Reconciliation is for ASSET or LIABILITY accounts; ${account.name} is ${account.type}`,
      [{ field, message: 'not a bank account' }],
    );
  }
  return account;
}

export interface RunInput {
  statement_id?: string | undefined;
  account_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** What a run's matching is given: the scope's unreconciled transactions and what bounds their pairs. */
export interface RunMatching {
  account: Account;
  txns: TxnInScope[];
  /** the ids of `txns`: an entry pending with a transaction outside them is taken */
  inScope: ReadonlySet<string>;
  /** entry ids refused before, per transaction id */
  rejected: ReadonlyMap<string, ReadonlySet<string>>;
  digits: number;
  thresholds: Thresholds;
}

/** The pairs a run assigns, and each matched entry's counter accounts (once each), which the payee model learns from. */
export interface RunMatches {
  matches: readonly ScoredPair[];
  counterAccountsOf: ReadonlyMap<string, readonly string[]>;
}

/**
 * Scores the scope's unreconciled bank transactions against posted entries on the same account,
 * in the right direction and within 30 days, assigns one-to-one from the highest score down, and
 * records auto-accepted and review matches. A transaction whose pending match loses to a better
 * candidate has that match superseded. The entries are streamed in date order
 * as the match walks through the statement (`matchInDateOrder`): a run over years of a busy
 * account holds a few weeks of its entries, not all of them.
 */
export function runReconciliation(db: LedgerDb, input: RunInput, thresholds: Thresholds) {
  return runWithMatching(db, input, thresholds, matchInDateSweep);
}

function matchInDateSweep(db: LedgerDb, run: RunMatching): RunMatches {
  const { txns } = run;
  const entries =
    txns.length === 0
      ? []
      : candidatesInDateOrder(
          db,
          run.account.id,
          addDays(txns[0]!.date, -CANDIDATE_WINDOW_DAYS),
          addDays(txns.at(-1)!.date, CANDIDATE_WINDOW_DAYS),
          run.inScope,
        );
  const result = matchInDateOrder(txns, entries, {
    digits: run.digits,
    thresholds: run.thresholds,
    payeeModel: payeeModel(db),
    rejected: run.rejected,
  });
  return {
    matches: result.matches,
    counterAccountsOf: new Map(result.matches.map((m) => [m.entryId, m.counterAccountIds])),
  };
}

/**
 * A run with the matching given: the scope resolved, the matching's pairs stored, pending matches
 * they displace superseded, the payee model taught. Exported so that the tests can run the
 * previous matching (test/support/reconciliation-reference.ts) through the same steps.
 */
export function runWithMatching(
  db: LedgerDb,
  input: RunInput,
  thresholds: Thresholds,
  matching: (db: LedgerDb, run: RunMatching) => RunMatches,
) {
  return db.transaction(() => {
    let accountId = input.account_id;
    if (input.statement_id !== undefined) {
      const statement = findStatement(db, input.statement_id);
      if (!statement)
        throw new DomainError('VALIDATION_ERROR', 'The statement does not exist', [
          { field: 'statement_id', message: 'no such statement' },
        ]);
      if (accountId !== undefined && accountId !== statement.accountId) {
        throw new DomainError('VALIDATION_ERROR', 'The statement belongs to another account', [
          { field: 'account_id', message: 'differs from the statement’s account' },
        ]);
      }
      accountId = statement.accountId;
    }
    const account = statementAccount(db, accountId!, 'account_id');
    const scope: Scope = {
      statementId: input.statement_id,
      accountId: account.id,
      startDate: input.start_date,
      endDate: input.end_date,
    };
    const createdAt = new Date().toISOString();
    const txns = unreconciledTransactions(db, scope);
    const runId = crypto.randomUUID();
    const digits = currencyDigits(account.currency);

    const inScope = new Set(txns.map((t) => t.id));
    const rejected = new Map<string, Set<string>>();
    for (const pair of rejectedPairs(
      db,
      txns.map((t) => t.id),
    )) {
      const [txnId, entryId] = pair.split(' ') as [string, string];
      rejected.set(txnId, (rejected.get(txnId) ?? new Set()).add(entryId));
    }
    const result = matching(db, { account, txns, inScope, rejected, digits, thresholds });

    const byTxn = new Map(result.matches.map((m) => [m.txnId, m]));
    const newMatchOfEntry = new Map<string, string>();
    const inserts: Match[] = [];
    for (const t of txns) {
      const pair = byTxn.get(t.id);
      if (!pair || (t.pendingMatch && t.pendingMatch.entryId === pair.entryId)) continue;
      const id = crypto.randomUUID();
      newMatchOfEntry.set(pair.entryId, id);
      inserts.push({
        id,
        runId,
        bankTransactionId: t.id,
        entryId: pair.entryId,
        status: pair.status,
        score: pair.total,
        breakdown: pair.breakdown,
        version: 1,
        supersededById: null,
        createdAt,
        updatedAt: createdAt,
        acceptedAt: pair.status === 'auto_accepted' ? createdAt : null,
        rejectedAt: null,
        rejectReason: null,
      });
    }
    // Pending matches that lost their transaction's place or their entry are superseded first,
    // so that at no point two live matches share a transaction or an entry.
    const newMatchOfTxn = new Map(inserts.map((m) => [m.bankTransactionId, m.id]));
    const superseded: { id: string; version: number; by: string }[] = [];
    let pendingKept = 0;
    for (const t of txns) {
      const old = t.pendingMatch;
      if (!old) continue;
      const replacement = newMatchOfTxn.get(t.id) ?? newMatchOfEntry.get(old.entryId);
      if (replacement) superseded.push({ id: old.id, version: old.version, by: replacement });
      else pendingKept += 1;
    }
    const autoAccepted = inserts.filter((m) => m.status === 'auto_accepted').length;
    const pendingReview = inserts.filter((m) => m.status === 'pending_review').length + pendingKept;
    const completedAt = new Date().toISOString();
    const summary = {
      total_transactions: txns.length,
      auto_accepted: autoAccepted,
      pending_review: pendingReview,
      unmatched: txns.length - autoAccepted - pendingReview,
    };
    // Foreign keys are checked per statement: the run exists before its matches, and a superseded
    // match is linked to its replacement only once the replacement exists.
    insertRun(db, {
      id: runId,
      scope,
      total: summary.total_transactions,
      autoAccepted,
      pendingReview,
      unmatched: summary.unmatched,
      createdAt,
      completedAt,
    });
    for (const old of superseded) decide(db, old.id, old.version, { status: 'superseded', at: createdAt });
    const descriptionOf = new Map(txns.map((t) => [t.id, t.description]));
    for (const m of inserts) {
      insertMatch(db, m);
      // the payee model learns the auto-accepted entry's counter accounts (already read for scoring)
      if (m.status !== 'auto_accepted') continue;
      for (const id of result.counterAccountsOf.get(m.entryId) ?? [])
        addPayeeExample(db, descriptionOf.get(m.bankTransactionId)!, id, 'accepted_match', createdAt);
    }
    for (const old of superseded) linkSupersededBy(db, old.id, old.by);
    return { run_id: runId, status: 'completed' as const, summary, completed_at: completedAt };
  });
}

export function getMatch(db: LedgerDb, id: string): MatchDto {
  const view = matchView(db, id);
  if (!view) throw new DomainError('NOT_FOUND', 'Match not found');
  return toMatchDto(view);
}

function requireMatch(db: LedgerDb, id: string): Match {
  const m = findMatch(db, id);
  if (!m) throw new DomainError('NOT_FOUND', 'Match not found');
  return m;
}

function assertDecidable(m: Match, version: number | undefined): void {
  if (m.status === 'superseded')
    throw new DomainError(
      'SUPERSEDED',
      'This match was replaced by a newer one' + (m.supersededById ? ` (${m.supersededById})` : ''),
    );
  if (m.status !== 'pending_review')
    throw new DomainError('ALREADY_PROCESSED', `This match is already ${m.status.replace('_', '-')}`);
  if (version !== undefined && version !== m.version) {
    throw new DomainError(
      'VERSION_CONFLICT',
      `The match was changed meanwhile (version ${m.version}, not ${version}); reload it`,
    );
  }
}

function accept(db: LedgerDb, m: Match, at: string): void {
  if (!decide(db, m.id, m.version, { status: 'accepted', at, acceptedAt: at })) {
    throw new DomainError('VERSION_CONFLICT', 'The match was changed meanwhile; reload it');
  }
  const txn = findBankTransaction(db, m.bankTransactionId)!;
  learn(db, txn.description, m.entryId, txn.accountId, 'accepted_match', at);
}

export function acceptMatch(db: LedgerDb, id: string, version?: number) {
  return db.transaction(() => {
    const m = requireMatch(db, id);
    assertDecidable(m, version);
    const at = new Date().toISOString();
    accept(db, m, at);
    return { id, status: 'accepted' as const, accepted_at: at, version: m.version + 1 };
  });
}

export function rejectMatch(db: LedgerDb, id: string, reason: string | null, version?: number) {
  return db.transaction(() => {
    const m = requireMatch(db, id);
    assertDecidable(m, version);
    const at = new Date().toISOString();
    if (!decide(db, id, m.version, { status: 'rejected', at, rejectedAt: at, rejectReason: reason })) {
      throw new DomainError('VERSION_CONFLICT', 'The match was changed meanwhile; reload it');
    }
    return { id, status: 'rejected' as const, reject_reason: reason, rejected_at: at, version: m.version + 1 };
  });
}

export function batchAccept(
  db: LedgerDb,
  input: { min_score: number; account_id?: string | undefined; match_ids?: string[] | undefined },
) {
  return db.transaction(() => {
    const { items } = pendingMatches(
      db,
      { accountId: input.account_id, minScore: input.min_score, maxScore: 100, ids: input.match_ids },
      1_000_000,
      0,
    );
    const at = new Date().toISOString();
    for (const m of items) accept(db, m, at);
    return { accepted_count: items.length, match_ids: items.map((m) => m.id) };
  });
}

export function listPending(
  db: LedgerDb,
  query: {
    account_id?: string | undefined;
    min_score?: number | undefined;
    max_score?: number | undefined;
    page: number;
    per_page: number;
  },
  thresholds: Thresholds,
) {
  const { items, total } = pendingMatches(
    db,
    {
      accountId: query.account_id,
      minScore: query.min_score ?? thresholds.review,
      maxScore: query.max_score ?? Math.max(thresholds.review, thresholds.autoAccept - 1),
    },
    query.per_page,
    (query.page - 1) * query.per_page,
  );
  return { items: items.map(toMatchDto), total, page: query.page, per_page: query.per_page };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export function reconciliationStats(
  db: LedgerDb,
  query: { account_id?: string | undefined; start_date?: string | undefined; end_date?: string | undefined },
) {
  const counts = statusCounts(db, {
    accountId: query.account_id,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  const total = counts.reduce((s, c) => s + c.total, 0);
  const reconciled = counts.reduce((s, c) => s + c.reconciled, 0);
  const pending = counts.reduce((s, c) => s + c.pending, 0);
  const scores = counts.flatMap((c) => c.scores);
  return {
    total_transactions: total,
    reconciled,
    pending_review: pending,
    unmatched: total - reconciled - pending,
    reconciliation_rate: total === 0 ? 0 : round2((reconciled / total) * 100),
    average_score: scores.length === 0 ? 0 : round2(scores.reduce((s, x) => s + x, 0) / scores.length),
    score_distribution: {
      '85_100': scores.filter((s) => s >= 85).length,
      '60_84': scores.filter((s) => s >= 60 && s < 85).length,
      '0_59': scores.filter((s) => s < 60).length,
    },
    by_account: counts.map((c) => ({
      account_id: c.accountId,
      account_name: c.accountName,
      reconciled: c.reconciled,
      pending: c.pending,
      unmatched: c.total - c.reconciled - c.pending,
    })),
  };
}

const MONEY_OUT_TYPES = new Set(['EXPENSE', 'ASSET', 'LIABILITY']);
const MONEY_IN_TYPES = new Set(['INCOME', 'ASSET', 'LIABILITY', 'EQUITY']);

/**
 * Counter accounts for a bank transaction, best first: accounts the payee model learnt for this
 * description whose type fits the direction (money out to EXPENSE/ASSET/LIABILITY, money in from
 * INCOME/ASSET/LIABILITY/EQUITY); then the user's most used fitting accounts, with a small
 * confidence proportional to their share of use; last, learnt accounts of another type (a refund
 * credited to an expense). At most three fitting ones and one other.
 */
function suggestions(
  model: PayeeModel,
  accounts: Map<string, Account>,
  usage: Map<string, number>,
  txn: { description: string; type: 'debit' | 'credit'; accountId: string },
) {
  const fits = txn.type === 'debit' ? MONEY_OUT_TYPES : MONEY_IN_TYPES;
  const usable = (a: Account | undefined): a is Account => a !== undefined && a.isActive && a.id !== txn.accountId;
  const learnt = model
    .predict(txn.description, 5)
    .map((p) => ({ account: accounts.get(p.accountId), confidence: p.confidence }))
    .filter((x): x is { account: Account; confidence: number } => usable(x.account));
  const out = learnt
    .filter((x) => fits.has(x.account.type))
    .slice(0, 3)
    .map((x) => ({ id: x.account.id, name: x.account.name, confidence: round2(x.confidence) }));
  const others = [...accounts.values()].filter((a) => usable(a) && fits.has(a.type) && !out.some((o) => o.id === a.id));
  const used = others.reduce((sum, a) => sum + (usage.get(a.id) ?? 0), 0);
  others
    .sort((a, b) => (usage.get(b.id) ?? 0) - (usage.get(a.id) ?? 0) || a.name.localeCompare(b.name))
    .slice(0, Math.max(0, 3 - out.length))
    .forEach((a) =>
      out.push({ id: a.id, name: a.name, confidence: used === 0 ? 0 : round2(((usage.get(a.id) ?? 0) / used) * 0.25) }),
    );
  const unfitting = learnt.find((x) => !fits.has(x.account.type));
  if (unfitting)
    out.push({ id: unfitting.account.id, name: unfitting.account.name, confidence: round2(unfitting.confidence) });
  return out;
}

const suggestionModels = new WeakMap<LedgerDb, { count: number; lastId: number; model: PayeeModel }>();

/**
 * The payee model for the unmatched list's suggestions, kept per ledger: building it costs tens of
 * ms once examples number in the tens of thousands, so examples added since are learnt into the
 * kept model (a sum of counts: order does not matter). Examples are never removed in practice (an
 * account that has some has lines, so it cannot be deleted); if the count does not add up, it is
 * built again.
 */
function suggestionModel(db: LedgerDb): PayeeModel {
  const kept = suggestionModels.get(db);
  if (kept) {
    const { total, added } = payeeExamplesAfter(db, kept.lastId);
    if (kept.count + added.length === total) {
      for (const e of added) kept.model.learn(e.description, e.accountId);
      kept.count = total;
      kept.lastId = added.at(-1)?.id ?? kept.lastId;
      return kept.model;
    }
  }
  const { total, added } = payeeExamplesAfter(db, 0);
  const model = PayeeModel.fromExamples(added);
  suggestionModels.set(db, { count: total, lastId: added.at(-1)?.id ?? 0, model });
  return model;
}

export function listUnmatched(
  db: LedgerDb,
  query: {
    account_id?: string | undefined;
    type?: 'bank_transaction' | 'journal_entry' | undefined;
    page: number;
    per_page: number;
  },
) {
  const offset = (query.page - 1) * query.per_page;
  const items: UnmatchedItemDto[] = [];
  let total = 0;
  if (query.type !== 'journal_entry') {
    const txns = unmatchedTransactions(db, query.account_id, query.per_page, offset);
    total += txns.total;
    // Suggestions only for a page that holds bank lines (the entries' pages need none).
    const model = txns.items.length > 0 ? suggestionModel(db) : PayeeModel.fromExamples([]);
    const accounts = new Map(allAccounts(db).map((a) => [a.id, a]));
    const usage = txns.items.length > 0 ? accountUsage(db) : new Map<string, number>();
    for (const t of txns.items) {
      items.push({
        type: 'bank_transaction',
        transaction: {
          id: t.id,
          date: t.date,
          description: t.description,
          amount: formatMinor(t.amountMinor, t.currency),
          currency: t.currency,
          type: t.type,
        },
        suggested_action: 'create_entry',
        suggested_accounts: suggestions(model, accounts, usage, t),
      });
    }
  }
  if (query.type !== 'bank_transaction') {
    const bankTotal = total;
    const entryOffset = Math.max(0, offset - bankTotal);
    const room = query.per_page - items.length;
    const entries = unmatchedEntries(db, query.account_id, Math.max(room, 0), entryOffset);
    total += entries.total;
    if (room > 0) {
      for (const e of entries.items) {
        items.push({
          type: 'journal_entry',
          // seen from the bank: money into the account is the bank's credit
          transaction: {
            id: e.entryId,
            date: e.entryDate,
            description: e.memo ?? '',
            amount: formatMinor(e.netMinor < 0n ? -e.netMinor : e.netMinor, e.currency),
            currency: e.currency,
            type: e.netMinor >= 0n ? 'credit' : 'debit',
          },
          suggested_action: 'find_bank_transaction',
          suggested_accounts: [],
        });
      }
    }
  }
  return { items, total, page: query.page, per_page: query.per_page };
}

/**
 * Closes the loop for a bank transaction with no entry: posts an entry against the given counter
 * account (source_type reconciliation) and records an accepted match for it.
 */
export function createEntryForBankTransaction(
  db: LedgerDb,
  txnId: string,
  input: { account_id: string; memo?: string | undefined },
  thresholds: Thresholds,
) {
  return db.transaction(() => {
    const txn = findBankTransaction(db, txnId);
    if (!txn) throw new DomainError('NOT_FOUND', 'Bank transaction not found');
    if (liveMatchOfTransaction(db, txnId))
      throw new DomainError('ALREADY_PROCESSED', 'This bank transaction already has a match');
    const accounts = accountsByIds(db, [txn.accountId, input.account_id]);
    const bank = accounts.get(txn.accountId)!;
    const counter = accounts.get(input.account_id);
    if (!counter)
      throw new DomainError('INVALID_ACCOUNT', 'The account does not exist', [
        { field: 'account_id', message: 'no such account' },
      ]);
    if (counter.id === bank.id)
      throw new DomainError('VALIDATION_ERROR', 'The counter account must differ from the bank account', [
        { field: 'account_id', message: 'is the bank account itself' },
      ]);
    if (counter.currency !== bank.currency)
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `The account ${counter.name} is in ${counter.currency}, the bank account in ${bank.currency}`,
      );
    const amount = formatMinor(txn.amountMinor, bank.currency);
    const moneyOut = txn.type === 'debit';
    const entry = createEntry(
      db,
      {
        entry_date: txn.date,
        memo: input.memo ?? txn.description.slice(0, 500),
        auto_post: true,
        lines: [
          { account_id: counter.id, direction: moneyOut ? 'DEBIT' : 'CREDIT', amount },
          { account_id: bank.id, direction: moneyOut ? 'CREDIT' : 'DEBIT', amount },
        ],
      },
      'reconciliation',
    );
    const model = payeeModel(db);
    const scored = scorePair(
      { id: txn.id, date: txn.date, description: txn.description, amountMinor: txn.amountMinor, type: txn.type },
      {
        id: entry.id,
        entryDate: entry.entry_date,
        memo: entry.memo,
        accountLine: { direction: moneyOut ? 'CREDIT' : 'DEBIT', amountMinor: txn.amountMinor },
        counterAccounts: [{ id: counter.id, type: counter.type }],
      },
      { digits: currencyDigits(bank.currency), payeeModel: model, thresholds },
    );
    const at = new Date().toISOString();
    const id = crypto.randomUUID();
    insertMatch(db, {
      id,
      runId: null,
      bankTransactionId: txn.id,
      entryId: entry.id,
      status: 'accepted',
      score: scored.total,
      breakdown: scored.breakdown,
      version: 1,
      supersededById: null,
      createdAt: at,
      updatedAt: at,
      acceptedAt: at,
      rejectedAt: null,
      rejectReason: null,
    });
    addPayeeExample(db, txn.description, counter.id, 'created_entry', at);
    return { entry, match: toMatchDto(matchView(db, id)!) };
  });
}

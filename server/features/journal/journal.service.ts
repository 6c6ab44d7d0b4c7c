import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type {
  CorrectEntryInput,
  CreateEntryInput,
  JournalEntryDto,
  SourceType,
  UpdateEntryInput,
} from '../../contract/journal.ts';
import { localToday } from '../../domain/dates.ts';
import { reversalLines, reversalMemo } from '../../domain/double-entry.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { accountsByIds } from '../accounts/accounts.queries.ts';
import { applyPosting, applyPostings } from '../totals/totals.service.ts';
import type { PostedLine } from '../totals/totals.model.ts';
import {
  assertPostable,
  assertWeightsBalance,
  checkLines,
  completeLines,
  type CheckedLine,
} from './journal.checks.service.ts';
import { findEntry, type JournalEntry } from './journal.repository.ts';
import { toEntryDto } from './journal.search.service.ts';
import {
  insertEntriesInBulk,
  insertEntry,
  markCorrectedBy,
  markPosted,
  markVoid,
  rewriteDraft,
} from './journal.writes.repository.ts';

/**
 * Stores an import's checked entries in one pass, in the import's transaction (which also adds the
 * posted ones to the totals): journal-import's way into the journal.
 */
export { insertEntriesInBulk, type NewEntry } from './journal.writes.repository.ts';
// The journal's use cases: create, post, rewrite a draft, void and correct entries, each one transaction.

function post(db: LedgerDb, entryDate: string, lines: readonly CheckedLine[]): void {
  applyPosting(db, entryDate, postedLines(lines));
}

function postedLines(lines: readonly CheckedLine[]): PostedLine[] {
  return lines.map((l) => ({
    accountId: l.accountId,
    accountType: l.account.type,
    direction: l.direction,
    amountMinor: l.amountMinor,
    currency: l.currency,
  }));
}

export function requireEntry(db: LedgerDb, id: string): JournalEntry {
  const entry = findEntry(db, id);
  if (!entry) throw new DomainError('NOT_FOUND', 'Journal entry not found');
  return entry;
}

/**
 * newRowId, keeping each id it draws in `into`: a writer given it for the lines' ids leaves them in
 * the order it wrote the lines.
 */
function keepingIds(into: string[]): () => string {
  return () => {
    const id = newRowId();
    into.push(id);
    return id;
  };
}

/**
 * An entry as it was just written, built from what was written rather than read back: what
 * findEntry gives for it (its lines not cleared, nothing has corrected it yet).
 */
function writtenEntry(
  entry: Omit<JournalEntry, 'lines' | 'correctedByEntryId'>,
  lines: readonly CheckedLine[],
  lineIds: readonly string[],
): JournalEntry {
  return {
    ...entry,
    correctedByEntryId: null,
    lines: lines.map((l, i) => ({
      id: lineIds[i]!,
      accountId: l.accountId,
      accountName: l.account.name,
      direction: l.direction,
      amountMinor: l.amountMinor,
      currency: l.currency,
      cleared: 'uncleared',
      cost: l.cost ?? null,
      automatic: l.automatic === true,
    })),
  };
}

/** A new entry's own fields as stored: posted or a draft, made `now`. */
function newEntryFields(
  id: string,
  input: Pick<CreateEntryInput, 'entry_date' | 'memo' | 'auto_post'>,
  sourceType: SourceType,
  now: string,
  correctsEntryId: string | null = null,
): Omit<JournalEntry, 'lines' | 'correctedByEntryId'> {
  const posted = input.auto_post === true;
  return {
    id,
    entryDate: input.entry_date,
    memo: input.memo ?? null,
    status: posted ? 'posted' : 'draft',
    sourceType,
    createdAt: now,
    updatedAt: now,
    postedAt: posted ? now : null,
    voidedAt: null,
    voidReason: null,
    reversalEntryId: null,
    reversesEntryId: null,
    correctsEntryId,
  };
}

/** Stores a checked entry (posted with `auto_post`); the entry as stored. */
function storeEntry(
  db: LedgerDb,
  input: CreateEntryInput,
  lines: readonly CheckedLine[],
  sourceType: SourceType,
  now: string,
  correctsEntryId: string | null = null,
  id: string = newRowId(),
): JournalEntry {
  const entry = newEntryFields(id, input, sourceType, now, correctsEntryId);
  const lineIds: string[] = [];
  insertEntry(db, entry, lines, keepingIds(lineIds));
  if (entry.status === 'posted') post(db, input.entry_date, lines);
  return writtenEntry(entry, lines, lineIds);
}

/**
 * `entryId`: the entry's id when it is derived from what it books (occurrenceEntryId); a new one
 * otherwise. Answered from what it wrote, not read back.
 */
export function createEntry(
  db: LedgerDb,
  input: CreateEntryInput,
  sourceType: SourceType = 'manual',
  entryId?: string,
): JournalEntryDto {
  return db.transaction(() => {
    // a draft is work in progress: it need not balance until it is posted
    const lines = checkLines(db, input.lines, { balanced: input.auto_post === true });
    return toEntryDto(storeEntry(db, input, lines, sourceType, new Date().toISOString(), null, entryId));
  });
}

/**
 * Creates many entries, all or none (CONTRACT §18): every entry is checked as `createEntry` checks
 * one, and when any fails nothing is stored and `errors` names the fields of each failing entry by
 * its index (`entries.3.lines.1.amount`; `entries.3.lines` for a fault of the entry as a whole,
 * UNBALANCED, TOO_FEW_LINES, INACTIVE_ACCOUNT). The answer's code is the first failing entry's.
 */
export function createEntries(db: LedgerDb, inputs: readonly CreateEntryInput[]): JournalEntryDto[] {
  return db.transaction(() => storeEntries(db, inputs));
}

/** createEntries within a transaction the caller holds. */
function storeEntries(db: LedgerDb, inputs: readonly CreateEntryInput[]): JournalEntryDto[] {
  const checked: CheckedLine[][] = [];
  const errors: FieldError[] = [];
  let first: { index: number; error: DomainError } | undefined;
  let failed = 0;
  inputs.forEach((input, index) => {
    try {
      checked.push(checkLines(db, input.lines, { balanced: input.auto_post === true }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      first ??= { index, error };
      failed += 1;
      if (error.errors && error.errors.length > 0)
        for (const e of error.errors) errors.push({ field: `entries.${index}.${e.field}`, message: e.message });
      else errors.push({ field: `entries.${index}.lines`, message: error.message });
    }
  });
  if (first) {
    const more = failed > 1 ? ` (and ${failed - 1} more entries refused)` : '';
    throw new DomainError(
      first.error.code,
      `Entry ${first.index}: ${first.error.message}${more}; nothing was stored`,
      errors,
    );
  }
  const at = new Date().toISOString();
  const entries = inputs.map((input, i) => ({
    date: input.entry_date,
    memo: input.memo ?? null,
    status: input.auto_post === true ? ('posted' as const) : ('draft' as const),
    lines: checked[i]!,
  }));
  const lineIds: string[] = [];
  const ids = insertEntriesInBulk(db, entries, 'manual', at, keepingIds(lineIds));
  applyPostings(
    db,
    inputs.flatMap((input, i) =>
      input.auto_post === true ? [{ entryDate: input.entry_date, lines: postedLines(checked[i]!) }] : [],
    ),
  );
  // the lines' ids in the order written: each entry's, entry after entry
  let line = 0;
  return inputs.map((input, i) => {
    const lines = checked[i]!;
    const entry = newEntryFields(ids[i]!, input, 'manual', at);
    return toEntryDto(writtenEntry(entry, lines, lineIds.slice(line, (line += lines.length))));
  });
}

/**
 * The journal's writes as requests make them: each shares a transaction, and so one sync to disk,
 * with the writes of the other requests that arrive with it, and is answered once that is durable
 * (SqliteDb.write, 'group-commit'); a write that fails is undone alone. A batch heads a group of its own, without
 * a savepoint (see `head`).
 */
export const journalWrites = {
  create: (db: LedgerDb, input: CreateEntryInput) => db.write('group-commit', () => createEntry(db, input)),
  createMany: (db: LedgerDb, inputs: readonly CreateEntryInput[]) =>
    db.write('group-commit', () => storeEntries(db, inputs), { head: true }),
  update: (db: LedgerDb, id: string, input: UpdateEntryInput) =>
    db.write('group-commit', () => updateDraft(db, id, input)),
  post: (db: LedgerDb, id: string) => db.write('group-commit', () => postEntry(db, id)),
  void: (db: LedgerDb, id: string, reason: string | null, guard: VoidGuard) =>
    db.write('group-commit', () => voidEntry(db, id, reason, guard)),
  correct: (db: LedgerDb, id: string, input: CorrectEntryInput, guard: VoidGuard) =>
    db.write('group-commit', () => correctEntry(db, id, input, guard)),
};

function assertStatus(
  entry: JournalEntry,
  required: 'draft' | 'posted',
  action: 'update' | 'post' | 'void' | 'correct',
): void {
  if (entry.status === required) return;
  const why: Record<string, string> = {
    'update posted': 'Only draft entries can be updated; void a posted entry and create a new one',
    'update void': 'Only draft entries can be updated; this entry is void',
    'post posted': 'The entry is already posted',
    'post void': 'The entry is void',
    'void draft': 'The entry is not posted; a draft can be edited instead',
    'void void': 'The entry is already void',
    'correct draft': 'The entry is a draft; change it instead',
    'correct void': 'The entry is void; correct the entry that replaced it',
  };
  throw new DomainError(
    'INVALID_STATUS',
    why[`${action} ${entry.status}`] ?? `Cannot ${action} a ${entry.status} entry`,
  );
}

export function updateDraft(db: LedgerDb, id: string, input: UpdateEntryInput): JournalEntryDto {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'draft', 'update');
    const lines = input.lines
      ? checkLines(db, input.lines, { balanced: false })
      : completeLines(
          db,
          checkedLinesOf(db, entry).filter((l) => !l.automatic),
          { balanced: false },
        );
    rewriteDraft(
      db,
      id,
      {
        entryDate: input.entry_date ?? entry.entryDate,
        memo: input.memo === undefined ? entry.memo : input.memo,
        updatedAt: new Date().toISOString(),
      },
      lines,
      newRowId,
    );
    return toEntryDto(requireEntry(db, id));
  });
}

function checkedLinesOf(db: LedgerDb, entry: JournalEntry): CheckedLine[] {
  const accounts = accountsByIds(
    db,
    entry.lines.map((l) => l.accountId),
  );
  return entry.lines.map((l) => ({ ...l, account: accounts.get(l.accountId)! }));
}

export function postEntry(db: LedgerDb, id: string): JournalEntryDto {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'draft', 'post');
    const lines = checkedLinesOf(db, entry);
    if (lines.length < 2) throw new DomainError('TOO_FEW_LINES', 'An entry needs at least 2 lines');
    assertWeightsBalance(lines);
    assertPostable(lines);
    markPosted(db, id, new Date().toISOString());
    post(db, entry.entryDate, lines);
    return toEntryDto(requireEntry(db, id));
  });
}

/**
 * What voiding asks of the features that hold on to posted entries (reconciliation's matches):
 * journal defines it, the composition root (server/index.ts) wires it. `beforeVoid` runs inside
 * the void's (or the correction's) transaction before anything is written; a DomainError it throws
 * refuses it, its detail saying that the entry cannot be `voided` or `corrected` and why.
 */
export interface VoidGuard {
  beforeVoid(db: LedgerDb, entryId: string, at: string, action: 'voided' | 'corrected'): void;
}

/**
 * Voids a posted entry by a reversal: the same lines with directions swapped, posted, dated the
 * later of today and the original's date. Both stay in history and point at each other.
 */
export function voidEntry(
  db: LedgerDb,
  id: string,
  reason: string | null,
  guard: VoidGuard,
  today: string = localToday(),
) {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'posted', 'void');
    const now = new Date().toISOString();
    guard.beforeVoid(db, entry.id, now, 'voided');
    const reversalId = reverse(db, entry, reason, today, now);
    return { voided_entry: toEntryDto(requireEntry(db, id)), reversal_entry: toEntryDto(requireEntry(db, reversalId)) };
  });
}

/** Posts the reversal of a posted entry and marks the entry void; the reversal's id. */
function reverse(db: LedgerDb, entry: JournalEntry, reason: string | null, today: string, now: string): string {
  const reversalId = newRowId();
  const reversalDate = entry.entryDate > today ? entry.entryDate : today;
  const lines = reversalLines(checkedLinesOf(db, entry));
  insertEntry(
    db,
    {
      id: reversalId,
      entryDate: reversalDate,
      memo: reversalMemo(entry.memo, reason),
      status: 'posted',
      sourceType: 'system',
      createdAt: now,
      updatedAt: now,
      postedAt: now,
      voidedAt: null,
      voidReason: null,
      reversalEntryId: null,
      reversesEntryId: entry.id,
      correctsEntryId: null,
    },
    lines,
    newRowId,
  );
  markVoid(db, entry.id, { at: now, reason, reversalEntryId: reversalId });
  post(db, reversalDate, lines);
  return reversalId;
}

/**
 * Corrects a posted entry in one step, in one transaction: the entry is voided (as `voidEntry`
 * does, with the same guard: a line matched to a bank line or reconciled refuses it; its reversal
 * dated the original's date, so that a past month is corrected in place) and the
 * corrected entry posted, with the original's source; the two point at each other (`corrects`,
 * `corrected_by`). The corrected lines are checked first, so a bad correction leaves the entry
 * as it was. A reversal is corrected through the entry it voids.
 */
export function correctEntry(
  db: LedgerDb,
  id: string,
  input: CorrectEntryInput,
  guard: VoidGuard,
  today: string = localToday(),
) {
  return db.transaction(() => {
    const entry = requireEntry(db, id);
    assertStatus(entry, 'posted', 'correct');
    if (entry.reversesEntryId)
      throw new DomainError('INVALID_STATUS', 'The entry is the reversal of a voided entry and cannot be corrected');
    const lines = checkLines(db, input.lines);
    const now = new Date().toISOString();
    guard.beforeVoid(db, entry.id, now, 'corrected');
    const reason = input.reason || 'corrected';
    // dated as the original: the month it was in shows the corrected figures, not both
    const reversalId = reverse(db, entry, reason, entry.entryDate, now);
    const corrected = storeEntry(
      db,
      { entry_date: input.entry_date, memo: input.memo ?? null, lines: input.lines, auto_post: true },
      lines,
      entry.sourceType,
      now,
      entry.id,
    );
    markCorrectedBy(db, entry.id, corrected.id);
    return {
      voided_entry: toEntryDto(requireEntry(db, id)),
      reversal_entry: toEntryDto(requireEntry(db, reversalId)),
      entry: toEntryDto(corrected),
    };
  });
}

export function getEntry(db: LedgerDb, id: string): JournalEntryDto {
  return toEntryDto(requireEntry(db, id));
}

// The checks of lines, the entry as the API shows it and the list's pages live in files of their
// own; their names stay importable from here.
export {
  assertPostable,
  assertWeightsBalance,
  checkLines,
  tradingLinesOf,
  type CheckedLine,
} from './journal.checks.service.ts';
export { listEntryPage, toEntryDto } from './journal.search.service.ts';

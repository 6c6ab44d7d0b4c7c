import { newRowId } from '../../server/db/ids.ts';
import { RawLedger } from './raw.ts';

/** The raw limits of writes: postings, statements and a reconciliation run's data side, on a copy of the ledger. */
export class RawWriter extends RawLedger {
  /**
   * One posted entry in its own transaction, as the app writes it: the entry, its lines, and the
   * day, month and cash-flow totals. The rate of these is the floor of posting over HTTP.
   */
  postEntry(date: string, debitAccount: string, creditAccount: string, minor: bigint, currency: string): void {
    const now = new Date().toISOString();
    this.db.transaction(() => this.writeEntry(date, debitAccount, creditAccount, minor, currency, now)).immediate();
  }

  /**
   * The same entry as a savepoint of a transaction the caller holds open (BEGIN IMMEDIATE … COMMIT
   * around many of these): the bare route's group commit.
   */
  postEntryInOpenTransaction(
    date: string,
    debitAccount: string,
    creditAccount: string,
    minor: bigint,
    currency: string,
  ): void {
    if (!this.db.inTransaction) throw new Error('no transaction is open');
    const now = new Date().toISOString();
    this.db.transaction(() => this.writeEntry(date, debitAccount, creditAccount, minor, currency, now))();
  }

  /** Many such entries in one transaction: the floor of a batch of entries posted in one request. */
  postEntries(
    entries: readonly { date: string; debit: string; credit: string; minor: bigint; currency: string }[],
  ): void {
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        for (const e of entries) this.writeEntry(e.date, e.debit, e.credit, e.minor, e.currency, now);
      })
      .immediate();
  }

  private writeEntry(
    date: string,
    debitAccount: string,
    creditAccount: string,
    minor: bigint,
    currency: string,
    now: string,
  ): void {
    const id = newRowId();
    const seq = (this.st('SELECT MAX(seq) s FROM journal_entries').get() as { s: bigint | null }).s ?? 0n;
    this.st(
      `INSERT INTO journal_entries (id, seq, entry_date, memo, status, source_type, created_at, updated_at, posted_at) VALUES (?, ?, ?, ?, 'posted', 'manual', ?, ?, ?)`,
    ).run(id, seq + 1n, date, 'Raw posting', now, now, now);
    this.insertLine(id, 1n, debitAccount, 'DEBIT', minor, currency, date);
    this.insertLine(id, 2n, creditAccount, 'CREDIT', minor, currency, date);
    for (const [account, d, c] of [
      [debitAccount, minor, 0n],
      [creditAccount, 0n, minor],
    ] as const) {
      this.st('SELECT SUM(debit_minor), SUM(credit_minor) FROM account_month_totals WHERE account_id = ?').get(account);
      this.st(
        'INSERT INTO account_day_totals (account_id, day, debit_minor, credit_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET debit_minor = debit_minor + excluded.debit_minor, credit_minor = credit_minor + excluded.credit_minor',
      ).run(account, date, d, c);
      this.st(
        'INSERT INTO account_month_totals (account_id, month, debit_minor, credit_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month) DO UPDATE SET debit_minor = debit_minor + excluded.debit_minor, credit_minor = credit_minor + excluded.credit_minor',
      ).run(account, date.slice(0, 7), d, c);
    }
    this.st(
      'INSERT INTO cash_flow_day_totals (account_id, day, in_minor, out_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET in_minor = in_minor + excluded.in_minor, out_minor = out_minor + excluded.out_minor',
    ).run(debitAccount, date, 0n, minor);
    this.st(
      'INSERT INTO cash_flow_month_totals (account_id, month, in_minor, out_minor) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, month) DO UPDATE SET in_minor = in_minor + excluded.in_minor, out_minor = out_minor + excluded.out_minor',
    ).run(debitAccount, date.slice(0, 7), 0n, minor);
  }

  private insertLine(
    entryId: string,
    lineNo: bigint,
    account: string,
    direction: string,
    minor: bigint,
    currency: string,
    date: string,
  ): void {
    this.st(
      'INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount_minor, currency, entry_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(newRowId(), entryId, lineNo, account, direction, minor, currency, date);
  }

  /** A statement and its bank transactions in one transaction, with the dedupe lookups the app makes. */
  importStatement(
    accountId: string,
    rows: readonly { date: string; description: string; amount: string; type: string; external_id: string }[],
  ): string {
    const now = new Date().toISOString();
    const statementId = newRowId();
    this.db
      .transaction(() => {
        const keys = rows.map((r) => `ext:raw-${statementId}-${r.external_id}#1`);
        for (let i = 0; i < keys.length; i += 500) {
          const chunk = keys.slice(i, i + 500);
          this.st(
            `SELECT dedupe_key FROM bank_transactions WHERE account_id = ? AND dedupe_key IN (${chunk.map(() => '?').join(',')})`,
          ).all(accountId, ...chunk);
        }
        const seq = (this.st('SELECT MAX(seq) s FROM statements').get() as { s: bigint | null }).s ?? 0n;
        this.st(
          `INSERT INTO statements (id, seq, account_id, name, source, imported_count, duplicate_count, start_date, end_date, created_at) VALUES (?, ?, ?, 'raw', 'json', ?, 0, ?, ?, ?)`,
        ).run(
          statementId,
          seq + 1n,
          accountId,
          BigInt(rows.length),
          rows[0]?.date ?? null,
          rows.at(-1)?.date ?? null,
          now,
        );
        let txnSeq = ((this.st('SELECT MAX(seq) s FROM bank_transactions').get() as { s: bigint | null }).s ?? 0n) + 1n;
        const insert = this.st(
          'INSERT INTO bank_transactions (id, seq, statement_id, account_id, date, description, amount_minor, type, external_id, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        );
        rows.forEach((r, i) => {
          const minor = BigInt(r.amount.replace('.', ''));
          insert.run(
            newRowId(),
            txnSeq++,
            statementId,
            accountId,
            r.date,
            r.description,
            minor,
            r.type,
            r.external_id,
            keys[i]!,
            now,
          );
        });
      })
      .immediate();
    return statementId;
  }

  /**
   * The data side of a reconciliation run: the statement's unreconciled transactions, the
   * candidate entries of the account over their dates (±30 days) with their counter accounts,
   * and one match row written per transaction. The scoring itself is the app's CPU work.
   */
  reconciliationData(statementId: string, accountId: string): number {
    const runId = newRowId();
    const now = new Date().toISOString();
    let written = 0;
    this.db
      .transaction(() => {
        const txns = this.st(
          `SELECT t.id, t.date, t.amount_minor FROM bank_transactions t WHERE t.statement_id = ? AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.bank_transaction_id = t.id AND m.status IN ('auto_accepted', 'accepted')) ORDER BY t.date, t.seq`,
        ).all(statementId) as { id: string; date: string }[];
        if (txns.length === 0) return;
        const entries = this.st(
          `SELECT e.id, e.entry_date, e.memo, SUM(CASE l.direction WHEN 'DEBIT' THEN l.amount_minor ELSE -l.amount_minor END) net
             FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
            WHERE l.account_id = ? AND l.entry_date >= ? AND l.entry_date <= ? AND e.status = 'posted' AND e.reverses_entry_id IS NULL
            GROUP BY e.id ORDER BY e.entry_date, e.seq`,
        ).all(accountId, txns[0]!.date, txns.at(-1)!.date) as { id: string }[];
        const ids = entries.map((e) => e.id);
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          this.st(
            `SELECT l.entry_id, a.id, a.type FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id IN (${chunk.map(() => '?').join(',')}) AND l.account_id != ?`,
          ).all(...chunk, accountId);
        }
        this.st(
          `INSERT INTO reconciliation_runs (id, statement_id, account_id, total_transactions, auto_accepted, pending_review, unmatched, created_at, completed_at) VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?)`,
        ).run(runId, statementId, accountId, BigInt(txns.length), now, now);
        const insert = this.st(
          `INSERT INTO reconciliation_matches (id, run_id, bank_transaction_id, entry_id, status, score, score_amount, score_date, score_description, score_business, score_history, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 90, 40, 25, 15, 5, 5, ?, ?)`,
        );
        txns.forEach((t, i) => {
          if (i >= ids.length) return;
          insert.run(newRowId(), runId, t.id, ids[i]!, now, now);
          written += 1;
        });
      })
      .immediate();
    return written;
  }
}

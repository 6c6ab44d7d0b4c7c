import { formatMinor } from '../../domain/money.ts';
import type { StatementDto } from '../../contract/statements.ts';
import type { Statement } from './statements.model.ts';

/** A statement as the API answers it. */
export function toStatementDto(s: Statement): StatementDto {
  return {
    id: s.id,
    account_id: s.accountId,
    name: s.name,
    source: s.source as StatementDto['source'],
    imported_count: s.importedCount,
    duplicate_count: s.duplicateCount,
    start_date: s.startDate,
    end_date: s.endDate,
    opening_balance: s.openingBalanceMinor === null ? null : formatMinor(s.openingBalanceMinor, s.currency),
    closing_balance: s.closingBalanceMinor === null ? null : formatMinor(s.closingBalanceMinor, s.currency),
    closing_date: s.closingDate,
    created_at: s.createdAt,
  };
}

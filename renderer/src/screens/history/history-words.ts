import type { HistoryItem } from '../../api/index.ts';
import type { MessageKey } from '../../i18n/index.ts';

/** The kinds of row the history names (the change log's datasets) that have words of their own. */
const KINDS = new Set([
  'journal_entries',
  'accounts',
  'rules',
  'schedules',
  'schedule_occurrences',
  'budget_lines',
  'prices',
  'settings',
  'csv_mappings',
  'currency_trading_accounts',
  'statements',
  'bank_transactions',
  'reconciliation_runs',
  'reconciliation_matches',
  'bank_reconciliations',
  'securities',
  'investment_accounts',
  'security_prices',
  'trades',
  'attachment_files',
  'attachments',
]);

type Words = (key: MessageKey, values?: Record<string, string | number>) => string;

/** A change in the interface language, from its fields (the server's `summary` is English only); an unknown kind is named as it came. */
export function changeInWords(item: Pick<HistoryItem, 'kind' | 'action' | 'label'>, t: Words): string {
  const kind = KINDS.has(item.kind) ? t(`history.kind.${item.kind}` as MessageKey) : item.kind;
  return t('history.change', { kind, action: t(`history.action.${item.action}`), label: item.label });
}

import type { AccountDto } from '../../api/index.ts';

/** What each tab of the Statements screen is given: the accounts, a counter bumped to reload, and
 *  what to call after it changed something the other tabs show. */
export interface StatementsTabProps {
  accounts: AccountDto[];
  refresh: number;
  onChanged: () => void;
}

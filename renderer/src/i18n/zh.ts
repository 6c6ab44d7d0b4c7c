import { joinAreas } from './areas.ts';
import type { AreaMessages, Messages } from './keys.ts';
import { accounts } from './zh/accounts.ts';
import { attachments } from './zh/attachments.ts';
import { budget } from './zh/budget.ts';
import { chat } from './zh/chat.ts';
import { currency } from './zh/currency.ts';
import { dashboard } from './zh/dashboard.ts';
import { frame } from './zh/frame.ts';
import { history } from './zh/history.ts';
import { investments } from './zh/investments.ts';
import { journal } from './zh/journal.ts';
import { kinds } from './zh/kinds.ts';
import { prices } from './zh/prices.ts';
import { reconciliation } from './zh/reconciliation.ts';
import { register } from './zh/register.ts';
import { reports } from './zh/reports.ts';
import { schedules } from './zh/schedules.ts';
import { settings } from './zh/settings.ts';
import { signIn } from './zh/sign-in.ts';
import { statements } from './zh/statements.ts';
import { sync } from './zh/sync.ts';

/** Every text of the interface in Chinese (simplified), in the areas, groups and keys of en.ts. */
const areas: AreaMessages = {
  frame,
  kinds,
  signIn,
  dashboard,
  accounts,
  journal,
  register,
  reports,
  statements,
  reconciliation,
  settings,
  sync,
  history,
  chat,
  budget,
  schedules,
  investments,
  prices,
  currency,
  attachments,
};

export const zh: Messages = joinAreas(areas);

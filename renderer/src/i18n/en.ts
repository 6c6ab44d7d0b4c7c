import { joinAreas } from './areas.ts';
import { accounts } from './en/accounts.ts';
import { attachments } from './en/attachments.ts';
import { budget } from './en/budget.ts';
import { chat } from './en/chat.ts';
import { currency } from './en/currency.ts';
import { dashboard } from './en/dashboard.ts';
import { frame } from './en/frame.ts';
import { history } from './en/history.ts';
import { investments } from './en/investments.ts';
import { journal } from './en/journal.ts';
import { kinds } from './en/kinds.ts';
import { prices } from './en/prices.ts';
import { reconciliation } from './en/reconciliation.ts';
import { register } from './en/register.ts';
import { reports } from './en/reports.ts';
import { schedules } from './en/schedules.ts';
import { settings } from './en/settings.ts';
import { signIn } from './en/sign-in.ts';
import { statements } from './en/statements.ts';
import { sync } from './en/sync.ts';

/**
 * Every text of the interface in English, one file under en/ per screen or area, each file the
 * groups of texts that screen shows. These areas, groups and keys are the catalogue every other
 * language fills (`AreaMessages` and `Messages` in keys.ts): a text added here and missing from
 * another language's area is a compile error there. `{name}` marks a value the screen puts in.
 * A screen reads a text by its dotted path, without its area: `t('accounts.renameLabel', { name })`.
 */
export const enAreas = {
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

export const en = joinAreas(enAreas);

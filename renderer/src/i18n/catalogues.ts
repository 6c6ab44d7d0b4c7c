import { area, joinAreas, languageOf } from './areas.ts';
import { accounts as enAccounts } from './en/accounts.ts';
import { attachments as enAttachments } from './en/attachments.ts';
import { budget as enBudget } from './en/budget.ts';
import { chat as enChat } from './en/chat.ts';
import { currency as enCurrency } from './en/currency.ts';
import { dashboard as enDashboard } from './en/dashboard.ts';
import { frame as enFrame } from './en/frame.ts';
import { history as enHistory } from './en/history.ts';
import { investments as enInvestments } from './en/investments.ts';
import { journal as enJournal } from './en/journal.ts';
import { kinds as enKinds } from './en/kinds.ts';
import { prices as enPrices } from './en/prices.ts';
import { reconciliation as enReconciliation } from './en/reconciliation.ts';
import { register as enRegister } from './en/register.ts';
import { reports as enReports } from './en/reports.ts';
import { schedules as enSchedules } from './en/schedules.ts';
import { settings as enSettings } from './en/settings.ts';
import { signIn as enSignIn } from './en/sign-in.ts';
import { statements as enStatements } from './en/statements.ts';
import { sync as enSync } from './en/sync.ts';
import { accounts as zhAccounts } from './zh/accounts.ts';
import { attachments as zhAttachments } from './zh/attachments.ts';
import { budget as zhBudget } from './zh/budget.ts';
import { chat as zhChat } from './zh/chat.ts';
import { currency as zhCurrency } from './zh/currency.ts';
import { dashboard as zhDashboard } from './zh/dashboard.ts';
import { frame as zhFrame } from './zh/frame.ts';
import { history as zhHistory } from './zh/history.ts';
import { investments as zhInvestments } from './zh/investments.ts';
import { journal as zhJournal } from './zh/journal.ts';
import { kinds as zhKinds } from './zh/kinds.ts';
import { prices as zhPrices } from './zh/prices.ts';
import { reconciliation as zhReconciliation } from './zh/reconciliation.ts';
import { register as zhRegister } from './zh/register.ts';
import { reports as zhReports } from './zh/reports.ts';
import { schedules as zhSchedules } from './zh/schedules.ts';
import { settings as zhSettings } from './zh/settings.ts';
import { signIn as zhSignIn } from './zh/sign-in.ts';
import { statements as zhStatements } from './zh/statements.ts';
import { sync as zhSync } from './zh/sync.ts';
import type { Messages } from './keys.ts';

/**
 * Every text of the interface, one file per screen or area in en/ and the same-named one in zh/,
 * each file the groups of texts that screen shows; a zh file is typed from its English one, so a
 * text missing or extra there is a compile error. `{name}` marks a value the screen puts in. A
 * screen reads a text by its dotted path, without its area: `t('accounts.renameLabel', { name })`.
 */
const AREAS = {
  frame: area(enFrame, zhFrame),
  kinds: area(enKinds, zhKinds),
  signIn: area(enSignIn, zhSignIn),
  dashboard: area(enDashboard, zhDashboard),
  accounts: area(enAccounts, zhAccounts),
  journal: area(enJournal, zhJournal),
  register: area(enRegister, zhRegister),
  reports: area(enReports, zhReports),
  statements: area(enStatements, zhStatements),
  reconciliation: area(enReconciliation, zhReconciliation),
  settings: area(enSettings, zhSettings),
  sync: area(enSync, zhSync),
  history: area(enHistory, zhHistory),
  chat: area(enChat, zhChat),
  budget: area(enBudget, zhBudget),
  schedules: area(enSchedules, zhSchedules),
  investments: area(enInvestments, zhInvestments),
  prices: area(enPrices, zhPrices),
  currency: area(enCurrency, zhCurrency),
  attachments: area(enAttachments, zhAttachments),
};

/** The interface's texts in English: the catalogue every other language fills (`Messages`). */
export const en = joinAreas(languageOf(AREAS, 'en'));

/** The interface's texts in Chinese (simplified). */
export const zh: Messages = joinAreas(languageOf(AREAS, 'zh'));

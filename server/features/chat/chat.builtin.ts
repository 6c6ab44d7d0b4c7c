import type { LedgerDb } from '../../db/stores.ts';
import type { Language } from '../../domain/chat-text.ts';
import { groupDecimal } from '../../domain/money.ts';
import { PERIOD_YEARS, periodWords, readPeriod, type NamedPeriod } from '../../domain/periods.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { getBalances, getIncomeAndSpending, getNetWorth, getReconciliationStatus, periodRange } from './chat.tools.ts';
import { builtinBudgetAnswer } from '../budgets/budgets.advisor.ts';

/**
 * The advisor without a model: it recognises the common questions (net worth, balances, income,
 * spending by account and period, top expenses, reconciliation) and answers them from the same
 * read-only tools the model uses, so its figures are the books' own.
 */

type Intent =
  'net_worth' | 'balance' | 'spending' | 'income' | 'top_expenses' | 'reconciliation' | 'budget' | 'bills' | 'overview';

const INTENTS: [Intent, RegExp][] = [
  ['reconciliation', /reconcil|unmatched|bank match|对账|核对|未匹配/i],
  ['budget', /budget|left to spend|(can|could) i (still )?spend|预算|还能花|还可以花|剩多少可花/i],
  ['bills', /\bbills?\b|upcoming|\bdue\b|scheduled|recurring|subscription|账单|到期|定期/i],
  [
    'top_expenses',
    /\b(top|biggest|largest|highest|most)\b.*(expens|spend|cost)|最大.*(支出|开销)|(支出|开销).*最(多|大)|前几/i,
  ],
  ['net_worth', /net ?worth|how rich|total assets|净资产|身家|总资产/i],
  ['income', /income|earn|salary|wage|revenue|收入|工资|赚/i],
  ['spending', /spen[dt]|spending|expense|cost|pay for|paid|buy|bought|支出|花|消费|开销|费用/i],
  ['balance', /balance|how much (money )?(do i have|is in|is left|in my)|余额|还有多少/i],
];

function intentOf(message: string): Intent {
  return INTENTS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'overview';
}

/** The period as a sentence says it: "in April 2011", "last month", "2011年4月". */
function periodPhrase(period: NamedPeriod | undefined, language: Language): string {
  if (!period) return T[language].thisMonth;
  const words = periodWords(period, language);
  return language === 'en' && !period.relative && period.kind !== 'since' ? `in ${words}` : words;
}

/** Accounts the message names, longest names first (so "Groceries" wins over "Food" inside it). */
function mentionedAccounts(message: string, accounts: readonly Account[]): Account[] {
  const text = message.toLowerCase();
  return accounts
    .filter((a) => a.name.length >= 2 && text.includes(a.name.toLowerCase()))
    .sort((a, b) => b.name.length - a.name.length);
}

/** Why the model is not answering, and the command that fixes it. */
export interface Unavailable {
  reason: 'not-running' | 'not-pulled';
  fix: string;
}

const T = {
  en: {
    unavailable: ({ reason, fix }: Unavailable) =>
      reason === 'not-pulled'
        ? `The local AI model is not installed, so the built-in advisor answers from your books. To use the model, run: ${fix}`
        : `The local AI model is not running, so the built-in advisor answers from your books. To use the model, start it with: ${fix}`,
    scope:
      'I can only answer questions about your own books: balances, net worth, income and spending, budgets, bills and reconciliation. For example: “What is my net worth?”',
    netWorth: (c: string, a: string, l: string, n: string) => `Net worth (${c}): ${n} — assets ${a}, liabilities ${l}.`,
    netWorthHome: (c: string, n: string, missing: string[]) =>
      `In your home currency: ${n} ${c}${missing.length ? ` (leaving out ${missing.join(', ')}: no exchange rate)` : ''}.`,
    noAccounts: 'You have no accounts yet: create some under Accounts, then post entries.',
    balance: (name: string, b: string, c: string) => `${name}: ${b} ${c}`,
    balancesHead: (asOf: string) => `Balances as of ${asOf}:`,
    thisMonth: 'this month',
    unreadablePeriod: (what: string, used: string) =>
      `I could not use the period “${what}” (the books keep the years ${PERIOD_YEARS}), so this answer is for ${used}.`,
    spentOn: (name: string, amount: string, c: string, p: string, s: string, e: string) =>
      `You spent ${amount} ${c} on ${name} ${p} (${s} to ${e}).`,
    earnedOn: (name: string, amount: string, c: string, p: string, s: string, e: string) =>
      `${name} brought in ${amount} ${c} ${p} (${s} to ${e}).`,
    spending: (amount: string, c: string, p: string, s: string, e: string) =>
      `Spending ${p} (${s} to ${e}): ${amount} ${c}.`,
    income: (amount: string, c: string, p: string, s: string, e: string) =>
      `Income ${p} (${s} to ${e}): ${amount} ${c}.`,
    top: (p: string) => `Top expenses ${p}:`,
    nothing: (p: string) => `No spending was posted ${p}.`,
    recon: (r: number, total: number, rate: number, pending: number, unmatched: number) =>
      `Bank matching: ${r} of ${total} bank transactions matched to entries (${rate}%), ${pending} awaiting review, ${unmatched} unmatched.`,
    noStatements: 'No bank statements have been imported yet: import one under Statements to reconcile.',
    cannotWrite:
      'I can only read your books. To change them, use the app: Journal for entries, Accounts for accounts, Statements for reconciliation.',
  },
  zh: {
    unavailable: ({ reason, fix }: Unavailable) =>
      reason === 'not-pulled'
        ? `本地 AI 模型尚未安装，由内置顾问根据您的账本回答。如需使用模型，请运行：${fix}`
        : `本地 AI 模型未运行，由内置顾问根据您的账本回答。如需使用模型，请运行：${fix}`,
    scope: '我只能回答与您自己账本有关的问题：余额、净资产、收入和支出、预算、账单和对账。例如：“我的净资产是多少？”',
    netWorth: (c: string, a: string, l: string, n: string) => `净资产（${c}）：${n}，其中资产 ${a}，负债 ${l}。`,
    netWorthHome: (c: string, n: string, missing: string[]) =>
      `折合本位币：${n} ${c}${missing.length ? `（未计入 ${missing.join('、')}：缺少汇率）` : ''}。`,
    noAccounts: '您还没有任何账户：请先在“账户”中创建账户，再记账。',
    balance: (name: string, b: string, c: string) => `${name}：${b} ${c}`,
    balancesHead: (asOf: string) => `截至 ${asOf} 的余额：`,
    thisMonth: '本月',
    unreadablePeriod: (what: string, used: string) =>
      `无法使用“${what}”这个期间（账本记录 ${PERIOD_YEARS} 年），以下按${used}回答。`,
    spentOn: (name: string, amount: string, c: string, p: string, s: string, e: string) =>
      `${p}（${s} 至 ${e}）您在${name}上花了 ${amount} ${c}。`,
    earnedOn: (name: string, amount: string, c: string, p: string, s: string, e: string) =>
      `${p}（${s} 至 ${e}）${name}的收入为 ${amount} ${c}。`,
    spending: (amount: string, c: string, p: string, s: string, e: string) =>
      `${p}（${s} 至 ${e}）的支出：${amount} ${c}。`,
    income: (amount: string, c: string, p: string, s: string, e: string) =>
      `${p}（${s} 至 ${e}）的收入：${amount} ${c}。`,
    top: (p: string) => `${p}最大的几项支出：`,
    nothing: (p: string) => `${p}没有已过账的支出。`,
    recon: (r: number, total: number, rate: number, pending: number, unmatched: number) =>
      `银行交易匹配：${total} 笔银行交易中已匹配分录 ${r} 笔（${rate}%），待审核 ${pending} 笔，未匹配 ${unmatched} 笔。`,
    noStatements: '尚未导入银行对账单：请在“对账单”中导入后再对账。',
    cannotWrite: '我只能读取您的账本。如需修改，请在应用中操作：分录在“日记账”，账户在“账户”，对账在“对账单”。',
  },
};

/** The first words of the notice, in both languages: a conversation that has one gets no other. */
export const NOTICE_STARTS = ['The local AI model is not ', '本地 AI 模型'] as const;

/** Words of a question about money or the books that names no particular figure: answered with an overview. */
const ABOUT_THE_BOOKS =
  /money|financ|account|books?\b|ledger|summary|overview|how am i doing|how are my|status|cash|saving|debt|owe|loan|card|bank|transaction|entr(y|ies)|report|profit|loss|tax|invest|asset|liabilit|wealth|钱|财务|账|概况|总结|情况|存款|储蓄|负债|贷款|信用卡|银行|交易|报表|税|投资|资产/i;

const WRITE_REQUEST =
  /\b(create|add|delete|remove|record|post|void|change|update|rename|edit)\b.*\b(entry|entries|account|transaction|statement)|(创建|添加|删除|记一笔|修改|作废)/i;

/**
 * The built-in advisor's answer. `unavailable`: say first why the model is not answering and how
 * to start it (once per conversation: the caller leaves it out when the conversation has it).
 */
export function builtinAnswer(
  db: LedgerDb,
  message: string,
  language: Language,
  unavailable: Unavailable | null,
  today: string,
): string {
  const t = T[language];
  const lines = unavailable ? [t.unavailable(unavailable), ''] : [];
  const writeRequest = WRITE_REQUEST.test(message);
  const intent = intentOf(message);
  // a question not about the books gets the scope, whatever the books hold
  if (intent === 'overview' && !writeRequest && !ABOUT_THE_BOOKS.test(message)) return [...lines, t.scope].join('\n');
  const accounts = allAccounts(db);
  if (accounts.length === 0) return [...lines, t.noAccounts].join('\n');
  if (writeRequest) lines.push(t.cannotWrite, '');
  const reading = readPeriod(message, today);
  const named = reading && 'period' in reading ? reading.period : undefined;
  const periodName = periodPhrase(named, language);
  const range = named ?? periodRange('this_month', today);
  if (reading && 'unreadable' in reading)
    lines.push(t.unreadablePeriod(reading.unreadable, `${periodName} (${range.start} – ${range.end})`), '');
  // balances and net worth at the end of a period that is over
  const asOf = named && named.end < today ? named.end : undefined;
  const mentioned = mentionedAccounts(message, accounts);

  const netWorth = () => {
    const worth = getNetWorth(db, { as_of: asOf });
    for (const c of worth.currencies)
      lines.push(t.netWorth(c.currency, m(c.total_assets), m(c.total_liabilities), m(c.net_worth)));
    const home = worth.in_home_currency;
    if (home)
      lines.push(
        t.netWorthHome(
          home.currency,
          m(home.net_worth),
          home.missing_rates.map((r) => r.from),
        ),
      );
  };
  const flows = () => getIncomeAndSpending(db, { start_date: range.start, end_date: range.end });
  const reconciliation = () => {
    const s = getReconciliationStatus(db, {});
    if ('error' in s || s.total_transactions === 0) lines.push(t.noStatements);
    else
      lines.push(
        t.recon(s.matched_to_entries, s.total_transactions, s.match_rate_percent, s.pending_review, s.unmatched),
      );
  };

  switch (intent) {
    case 'net_worth':
      netWorth();
      break;
    case 'balance': {
      const result = getBalances(db, { as_of: asOf });
      if (!('error' in result)) {
        const wanted = mentioned.length > 0 ? new Set(mentioned.map((a) => a.name)) : null;
        lines.push(t.balancesHead(result.as_of));
        for (const a of result.accounts) {
          if (wanted ? wanted.has(a.name) : a.type === 'ASSET' || a.type === 'LIABILITY')
            lines.push(`- ${t.balance(a.name, m(a.balance), a.currency)}`);
        }
      }
      break;
    }
    case 'spending':
    case 'income': {
      const before = lines.length;
      const f = flows();
      const kind = intent === 'spending' ? 'spending' : 'income';
      const named = mentioned.filter((a) => (kind === 'spending' ? a.type === 'EXPENSE' : a.type === 'INCOME'));
      for (const c of f.currencies) {
        const rows = c[kind];
        if (named.length > 0) {
          for (const a of named.filter((n) => n.currency === c.currency)) {
            const row = rows.find((r) => r.account === a.name || r.account.endsWith(` > ${a.name}`));
            const amount = row?.amount ?? (c.currency === 'JPY' ? '0' : '0.00');
            lines.push(
              (kind === 'spending' ? t.spentOn : t.earnedOn)(
                a.name,
                m(amount),
                c.currency,
                periodName,
                f.start_date,
                f.end_date,
              ),
            );
          }
        } else if (
          kind === 'spending'
            ? c.total_spending !== zeroOf(c.total_spending)
            : c.total_income !== zeroOf(c.total_income)
        ) {
          lines.push(
            (kind === 'spending' ? t.spending : t.income)(
              m(kind === 'spending' ? c.total_spending : c.total_income),
              c.currency,
              periodName,
              f.start_date,
              f.end_date,
            ),
          );
          for (const r of topRows(rows)) lines.push(`- ${r.account}: ${m(r.amount)} ${r.currency}`);
        }
      }
      if (lines.length === before) lines.push(t.nothing(periodName));
      break;
    }
    case 'top_expenses': {
      const f = flows();
      lines.push(t.top(`${periodName} (${range.start} – ${range.end})`));
      const rows = f.currencies.flatMap((c) => topRows(c.spending));
      if (rows.length === 0) lines.push(t.nothing(periodName));
      for (const r of rows) lines.push(`- ${r.account}: ${m(r.amount)} ${r.currency}`);
      break;
    }
    case 'reconciliation':
      reconciliation();
      break;
    case 'budget':
    case 'bills':
      lines.push(
        ...builtinBudgetAnswer(
          db,
          language,
          mentioned.map((a) => a.name),
          intent === 'bills',
        ),
      );
      break;
    case 'overview': {
      netWorth();
      const f = flows();
      for (const c of f.currencies) {
        if (c.total_spending !== zeroOf(c.total_spending))
          lines.push(t.spending(m(c.total_spending), c.currency, periodName, f.start_date, f.end_date));
      }
      reconciliation();
      break;
    }
  }
  return lines.join('\n');
}

/** A figure as the app shows it everywhere: grouped ("6,145.67"), exact. */
const m = groupDecimal;

function zeroOf(amount: string): string {
  return amount.replace(/\d/g, '0').replace(/^-/, '');
}

/** The five largest leaf amounts (accounts with no sub-account rows beneath them). */
function topRows(rows: readonly { account: string; currency: string; amount: string }[]) {
  const leaves = rows.filter((r) => !rows.some((o) => o.account.startsWith(`${r.account} > `)));
  return leaves
    .filter((r) => !/^-?0+(\.0+)?$/.test(r.amount))
    .sort((a, b) => compareDecimal(b.amount, a.amount))
    .slice(0, 5);
}

/** Compares decimal strings of the same currency (same digits) without floats. */
function compareDecimal(a: string, b: string): number {
  const x = BigInt(a.replace('.', ''));
  const y = BigInt(b.replace('.', ''));
  return x < y ? -1 : x > y ? 1 : 0;
}

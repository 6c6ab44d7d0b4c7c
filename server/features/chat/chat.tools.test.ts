import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Stores } from '../../db/stores.ts';
import { localToday, startOfMonth } from '../../domain/dates.ts';
import { createAccount } from '../accounts/accounts.service.ts';
import { createSecurity, putInvestmentSettings } from '../investments/investments.service.ts';
import { bookTrade } from '../investments/investments.trades.ts';
import { runTool, TOOL_DEFINITIONS } from './chat.tools.ts';

/** The tools as the model was told them when their JSON Schemas were written by hand. */
const HAND_WRITTEN = [
  {
    type: 'function',
    function: {
      name: 'get_balances',
      description:
        'Balances of the user’s accounts as of a date (default today), signed in each account’s normal direction. Optionally only accounts whose name matches `account`.',
      parameters: {
        type: 'object',
        properties: {
          as_of: { type: 'string', description: 'YYYY-MM-DD' },
          account: { type: 'string', description: 'an account name, or part of one' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_net_worth',
      description:
        'Total assets, liabilities and net worth per currency as of a date (default today); with more than one currency, also in the home currency (`in_home_currency`, converted at that date’s rates, naming any missing rate).',
      parameters: { type: 'object', properties: { as_of: { type: 'string', description: 'YYYY-MM-DD' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_income_and_spending',
      description:
        'Income and spending by account over a period: either `period` or start_date/end_date (default: this month to today). Parent accounts include their sub-accounts. With more than one currency, also the totals in the home currency (`in_home_currency`, each entry at its date’s rate).',
      parameters: {
        type: 'object',
        properties: {
          period: { type: 'string', enum: ['this_month', 'last_month', 'this_year', 'last_year'] },
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_recent_entries',
      description: 'Recent posted journal entries, newest first, optionally touching one account and within dates.',
      parameters: {
        type: 'object',
        properties: {
          limit: { type: 'integer', description: 'at most 50, default 10' },
          account: { type: 'string', description: 'an account name, or part of one' },
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_reconciliation_status',
      description:
        'How many bank transactions are matched to journal entries, awaiting review or unmatched, overall or for one account, and the date up to which each account is reconciled to the bank’s balance (null: never).',
      parameters: {
        type: 'object',
        properties: { account: { type: 'string', description: 'an account name, or part of one' } },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_budget_and_upcoming_bills',
      description:
        "A month's budget per account (budgeted, spent, remaining, carried in, left to spend; parent accounts include their sub-accounts) and the scheduled bills due in the next days. `left_to_spend` is what can still be spent this month.",
      parameters: {
        type: 'object',
        properties: {
          month: { type: 'string', description: 'YYYY-MM, default this month' },
          account: { type: 'string', description: 'only budget lines whose account name contains this' },
          days: {
            type: 'integer',
            description: 'upcoming bills over this many days from today, default 14, at most 60',
          },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_investments',
      description:
        'Securities held (units, cost basis, latest price, market value, unrealised gain, return since purchase) and the gains realised by sales over a period (default this year), short and long term; optionally of one `symbol`.',
      parameters: {
        type: 'object',
        properties: {
          symbol: { type: 'string', description: 'one security’s symbol, such as VTI' },
          period: { type: 'string', enum: ['this_month', 'last_month', 'this_year', 'last_year'] },
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
        },
      },
    },
  },
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-chat-tools-'));
const stores = new Stores(dataDir);
const db = stores.ledger(crypto.randomUUID());
afterAll(() => {
  stores.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the advisor’s tools', () => {
  it('when the model is told the tools, then it gets what the hand-written JSON Schemas said, key for key', () => {
    expect(JSON.parse(JSON.stringify(TOOL_DEFINITIONS))).toStrictEqual(HAND_WRITTEN);
  });

  it('when an argument is of the wrong kind or not a real date, then the tool runs with its default', () => {
    const today = localToday();
    expect(runTool(db, 'get_balances', { as_of: '2025-02-30', account: 7 })).toEqual({ as_of: today, accounts: [] });
    expect(runTool(db, 'get_income_and_spending', { period: 'next_year', end_date: 'soon' })).toMatchObject({
      start_date: startOfMonth(today),
      end_date: today,
    });
    expect(runTool(db, 'get_recent_entries', { limit: 2.5, unknown: true })).toEqual({ entries: [] });
    expect(runTool(db, 'get_net_worth', ['2025-01-01'] as unknown as Record<string, unknown>)).toMatchObject({
      as_of: today,
    });
  });

  it('when the arguments are right, then they are used', () => {
    expect(runTool(db, 'get_balances', { as_of: '2025-02-28' })).toEqual({ as_of: '2025-02-28', accounts: [] });
    expect(runTool(db, 'get_income_and_spending', { start_date: '2025-03-31', end_date: '2025-03-01' })).toMatchObject({
      start_date: '2025-03-01',
      end_date: '2025-03-31',
    });
    expect(runTool(db, 'get_balances', { account: 'Groceries' })).toMatchObject({
      error: 'no account matches "Groceries"',
    });
  });

  it('when VTI was bought last year and partly sold this year, then get_investments answers what is held and the gain realised on VTI this year', () => {
    const ledger = stores.ledger(crypto.randomUUID());
    const account = (name: string, type: 'ASSET' | 'INCOME') =>
      createAccount(ledger, { name, type, currency: 'USD' }).id;
    const broker = account('Brokerage', 'ASSET');
    const gains = account('Gains', 'INCOME');
    putInvestmentSettings(ledger, broker, { booking_method: 'FIFO', short_term_account_id: gains });
    const vti = createSecurity(ledger, { symbol: 'VTI', name: 'Vanguard Total Stock Market', currency: 'USD' }).id;
    const aapl = createSecurity(ledger, { symbol: 'AAPL', name: 'Apple', currency: 'USD' }).id;
    const today = localToday();
    const lastYear = `${Number(today.slice(0, 4)) - 1}-06-01`;
    const base = { account_id: broker, security_id: vti };
    bookTrade(ledger, { kind: 'buy', date: lastYear, units: '10', price: '200', ...base });
    bookTrade(ledger, { kind: 'buy', date: lastYear, units: '1', price: '150', account_id: broker, security_id: aapl });
    bookTrade(ledger, { kind: 'sell', date: today, units: '4', price: '250.125', ...base });
    const answer = runTool(ledger, 'get_investments', { symbol: 'vti' }) as any;
    expect(answer.holdings).toEqual([
      expect.objectContaining({
        symbol: 'VTI',
        units: '6',
        cost_basis: '1200.00',
        price: '250.125',
        market_value: '1500.75',
      }),
    ]);
    expect(answer.realized.items).toEqual([
      expect.objectContaining({ symbol: 'VTI', units_sold: '4', proceeds: '1000.50', realized_gain: '200.50' }),
    ]);
    const lastYearOnly = runTool(ledger, 'get_investments', { period: 'last_year' }) as any;
    expect(lastYearOnly.realized.items).toEqual([]);
    expect(lastYearOnly.holdings.map((h: { symbol: string }) => h.symbol)).toEqual(['AAPL', 'VTI']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../../../test/support/fake-ollama.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { addDays, localToday, monthOf } from '../../domain/dates.ts';

let fake: FakeOllama;
let t: TestServer;
let token: string;
const today = localToday();

beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
  t = await startTestServer({
    env: { OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen2.5:3b' },
    scheduleTrigger: () => async () => {},
  });
  ({ token } = await registerUser(t.api));
  const mk = async (name: string, type: string) =>
    (await t.api.post('/api/accounts', { name, type }, token)).body.id as string;
  const bank = await mk('Checking', 'ASSET');
  const dining = await mk('Dining out', 'EXPENSE');
  const rent = await mk('Rent', 'EXPENSE');
  const pay = (account: string, amount: string) =>
    t.api.post(
      '/api/journal-entries',
      {
        entry_date: today,
        memo: 'x',
        auto_post: true,
        lines: [
          { account_id: account, direction: 'DEBIT', amount },
          { account_id: bank, direction: 'CREDIT', amount },
        ],
      },
      token,
    );
  await pay(dining, '41.35');
  await pay(dining, '18.40');
  const budget = {
    lines: [
      { account_id: dining, amount: '150.00' },
      { account_id: rent, amount: '1200.00' },
    ],
  };
  expect((await t.api.put(`/api/budgets/${monthOf(today)}`, budget, token)).status).toBe(200);
  const schedule = {
    name: 'Rent',
    frequency: 'monthly',
    start_date: addDays(today, 5),
    lines: [
      { account_id: rent, direction: 'DEBIT', amount: '1200.00' },
      { account_id: bank, direction: 'CREDIT', amount: '1200.00' },
    ],
  };
  expect((await t.api.post('/api/schedules', schedule, token)).status).toBe(201);
});

afterAll(async () => {
  await t.stop();
  await fake.stop();
});

describe('the advisor and budgets', () => {
  it('when asked what is left for dining out, then the model gets the budget figures and upcoming bills from its read-only tool', async () => {
    fake.script(
      {
        chunks: [
          {
            tool_calls: [{ function: { name: 'get_budget_and_upcoming_bills', arguments: { account: 'dining' } } }],
          },
        ],
      },
      {
        chunks: (request) => {
          const result = JSON.parse(request.messages.find((m) => m.role === 'tool')!.content) as {
            budget_lines: { account: string; left_to_spend: string }[];
            upcoming_bills: { items: { name: string; date: string; amount: string }[] };
          };
          const [line] = result.budget_lines;
          const [bill] = result.upcoming_bills.items;
          return [
            { content: `You can still spend ${line!.left_to_spend} USD on ${line!.account}. ` },
            { content: `${bill!.name} of ${bill!.amount} is due on ${bill!.date}.` },
          ];
        },
      },
    );
    const res = await fetch(`${t.server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ message: 'How much can I still spend on dining out this month?' }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(
      `You can still spend 90.25 USD on Dining out. Rent of 1200.00 is due on ${addDays(today, 5)}.`,
    );
    const offered = fake.requests[0]!.tools!.map((tool) => tool.function.name);
    expect(offered).toContain('get_budget_and_upcoming_bills');
    const toolAnswer = JSON.parse(fake.requests[1]!.messages.at(-1)!.content);
    expect(toolAnswer.budget_lines).toEqual([
      {
        account: 'Dining out',
        type: 'EXPENSE',
        currency: 'USD',
        budgeted: '150.00',
        spent: '59.75',
        remaining: '90.25',
        carried_in: '0.00',
        left_to_spend: '90.25',
      },
    ]);
  });

  it('when the model is unavailable, then the built-in advisor answers what is left of a budget and which bills are due', async () => {
    fake.models = [];
    try {
      const ask = async (message: string) => {
        const res = await fetch(`${t.server.url}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ message }),
        });
        expect(res.status).toBe(200);
        return res.text();
      };
      const month = monthOf(today);
      expect(await ask('How much can I still spend on Dining out this month?')).toContain(
        `Dining out: 90.25 USD left to spend in ${month} (budget 150.00, spent 59.75).`,
      );
      expect(await ask('How much is left of my budget?')).toContain(
        `In all, 1,290.25 USD is left to spend in ${month} of a 1,350.00 USD budget.`,
      );
      const bills = await ask('Which bills are due soon?');
      expect(bills).toContain(`- ${addDays(today, 5)} Rent: 1,200.00 USD`);
      expect(await ask('我这个月的预算还剩多少？')).toContain(
        `${month} 的总预算 1,350.00 USD 中还剩 1,290.25 USD 可花。`,
      );
    } finally {
      fake.models = ['qwen2.5:3b'];
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBooks } from '../../../test/support/books.ts';
import { FakeOllama } from '../../../test/support/fake-ollama.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * The advisor answers the period the question names (issue: "How much did I spend on bank fees in
 * April 2011?" was answered for this month), with the model and without it. The books hold the same
 * accounts in April 2011, January 2023 and this month, each with its own figures.
 */

const now = new Date();
const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

const BOOKS = `
account Checking   ; type: ASSET
account Bank fees  ; type: EXPENSE
account 餐饮        ; type: EXPENSE
account Opening    ; type: EQUITY

2011-01-01 * Opening
    Checking   5000.00
    Opening

2011-04-12 * Account fee
    Bank fees    12.34
    Checking

2011-04-28 * Wire fee
    Bank fees     7.66
    Checking

2023-01-15 * 火锅
    餐饮          88.80
    Checking

${today} * Fee this month
    Bank fees     3.21
    Checking

${today} * 午饭
    餐饮          15.50
    Checking
`;

let withModel: TestServer;
let withoutModel: TestServer;
let fake: FakeOllama;
const tokens = new Map<TestServer, string>();

async function open(server: TestServer): Promise<void> {
  const { token } = await registerUser(server.api);
  await writeBooks(server.api, token, BOOKS);
  tokens.set(server, token);
}

beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
  withModel = await startTestServer({ env: { OLLAMA_HOST: fake.url } });
  // a port nothing listens on: the built-in advisor answers
  const closed = new FakeOllama();
  await closed.start();
  const url = closed.url;
  await closed.stop();
  withoutModel = await startTestServer({ env: { OLLAMA_HOST: url } });
  await open(withModel);
  await open(withoutModel);
});
afterAll(async () => {
  await withModel.stop();
  await withoutModel.stop();
  await fake.stop();
});

async function ask(server: TestServer, message: string): Promise<string> {
  const res = await fetch(`${server.server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.get(server)}` },
    body: JSON.stringify({ message }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

describe('the built-in advisor, asked about a named period', () => {
  it('when asked about bank fees in April 2011, then it answers April 2011’s 20.00, naming the month and its dates', async () => {
    const answer = await ask(withoutModel, 'How much did I spend on bank fees in April 2011?');
    expect(answer).toContain('You spent 20.00 USD on Bank fees in April 2011 (2011-04-01 to 2011-04-30).');
    expect(answer).not.toContain('3.21');
  });

  it('when asked 2023年1月餐饮花了多少, then it answers January 2023’s 88.80 in Chinese', async () => {
    const answer = await ask(withoutModel, '2023年1月餐饮花了多少？');
    expect(answer).toContain('2023年1月（2023-01-01 至 2023-01-31）您在餐饮上花了 88.80 USD。');
    expect(answer).not.toContain('15.50');
  });

  it('when asked about a quarter, then the quarter’s spending is answered', async () => {
    const answer = await ask(withoutModel, 'What did I spend in Q2 2011?');
    expect(answer).toContain('Spending in Q2 2011 (2011-04-01 to 2011-06-30): 20.00 USD.');
  });

  it('when asked about a period the books cannot hold, then it says so and which period it used instead', async () => {
    const answer = await ask(withoutModel, 'How much did I spend on bank fees in April 1850?');
    expect(answer).toContain('I could not use the period “1850”');
    expect(answer).toContain(`so this answer is for this month (${today.slice(0, 8)}01 – ${today})`);
    expect(answer).toContain('You spent 3.21 USD on Bank fees this month');
  });

  it('when no period is named, then this month is answered and named', async () => {
    const answer = await ask(withoutModel, 'How much did I spend on bank fees?');
    expect(answer).toContain(`You spent 3.21 USD on Bank fees this month (${today.slice(0, 8)}01 to ${today}).`);
  });

  it('when a balance is asked for a past month, then it is the balance at that month’s end', async () => {
    const answer = await ask(withoutModel, 'What was the balance of Checking in April 2011?');
    expect(answer).toContain('Balances as of 2011-04-30:');
    expect(answer).toContain('Checking: 4,980.00 USD');
  });
});

describe('the model, asked about a named period', () => {
  const spending = (args: Record<string, unknown>) => ({
    function: { name: 'get_income_and_spending', arguments: args },
  });

  it('when the question names April 2011, then the prompt gives its dates, and a call without dates is answered for April 2011', async () => {
    fake.script(
      { chunks: [{ tool_calls: [spending({ period: 'this_month' })] }] },
      { chunks: [{ content: 'Bank fees were 20.00 USD in April 2011.' }] },
    );
    const before = fake.requests.length;
    const answer = await ask(withModel, 'How much did I spend on bank fees in April 2011?');
    const [first, second] = fake.requests.slice(before);
    expect(first!.messages[0]!.content).toContain(
      'The question is about April 2011: 2011-04-01 to 2011-04-30. Call the tools with start_date 2011-04-01 and end_date 2011-04-30',
    );
    const result = JSON.parse(second!.messages.find((m) => m.role === 'tool')!.content);
    expect(result).toMatchObject({ start_date: '2011-04-01', end_date: '2011-04-30' });
    expect(JSON.stringify(result)).toContain('"20.00"');
    expect(answer).toMatch(/^Bank fees were 20\.00 USD in April 2011\./);
  });

  it('when the model sends dates of its own, then they are kept', async () => {
    fake.script(
      { chunks: [{ tool_calls: [spending({ start_date: '2023-01-01', end_date: '2023-01-31' })] }] },
      { chunks: [{ content: 'OK.' }] },
    );
    const before = fake.requests.length;
    await ask(withModel, 'How much did I spend in April 2011?');
    const second = fake.requests[before + 1]!;
    const result = JSON.parse(second.messages.find((m) => m.role === 'tool')!.content);
    expect(result).toMatchObject({ start_date: '2023-01-01', end_date: '2023-01-31' });
  });

  it('when the question names a period that cannot be used, then the prompt says to answer this month and say so', async () => {
    fake.script({ chunks: [{ content: 'OK.' }] });
    const before = fake.requests.length;
    await ask(withModel, '1850年3月花了多少？');
    expect(fake.requests[before]!.messages[0]!.content).toContain(
      `The question names a period that cannot be used (1850; the books keep the years 1900–2199): answer for this month (${today.slice(0, 8)}01 to ${today}) and say that this is the period you used.`,
    );
  });
});

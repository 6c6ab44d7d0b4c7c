import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeOllama, gate } from '../../../test/support/fake-ollama.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TOOL_DEFINITIONS } from './chat.tools.ts';

const EN_DISCLAIMER = 'The above analysis is for reference only.';
const ZH_DISCLAIMER = '以上分析仅供参考。';

let fake: FakeOllama;
let t: TestServer;
let token: string;
let groceriesLastMonth: string;

function lastMonthDate(): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - 1, 15);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-15`;
}

async function setUpBooks(server: TestServer, tok: string): Promise<void> {
  const mk = async (name: string, type: string) =>
    (await server.api.post('/api/accounts', { name, type }, tok)).body.id as string;
  const bank = await mk('Checking', 'ASSET');
  const groceries = await mk('Groceries', 'EXPENSE');
  const salary = await mk('Salary', 'INCOME');
  const post = (debit: string, credit: string, amount: string, memo: string) =>
    server.api.post(
      '/api/journal-entries',
      {
        entry_date: lastMonthDate(),
        memo,
        auto_post: true,
        lines: [
          { account_id: debit, direction: 'DEBIT', amount },
          { account_id: credit, direction: 'CREDIT', amount },
        ],
      },
      tok,
    );
  await post(bank, salary, '3000.00', 'Pay');
  await post(groceries, bank, '100.20', 'Market');
  await post(groceries, bank, '23.25', 'Bakery');
}

/** Posts a chat message and reads the streamed answer chunk by chunk. */
async function ask(
  server: TestServer,
  tok: string,
  body: unknown,
  onChunk?: (text: string, index: number) => void,
  signal?: AbortSignal,
) {
  const res = await fetch(`${server.server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tok}` },
    body: JSON.stringify(body),
    signal,
  });
  const chunks: string[] = [];
  if (res.status === 200) {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      chunks.push(text);
      onChunk?.(text, chunks.length - 1);
    }
  } else {
    chunks.push(await res.text());
  }
  return { status: res.status, headers: res.headers, chunks, text: chunks.join('') };
}

beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
  t = await startTestServer({ env: { OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen2.5:3b' } });
  ({ token } = await registerUser(t.api));
  await setUpBooks(t, token);
  groceriesLastMonth = '123.45';
});
afterAll(async () => {
  await t.stop();
  await fake.stop();
});
beforeEach(() => {
  fake.models = ['qwen2.5:3b'];
});

describe('streaming answers from the model', () => {
  it('when the model streams, then the answer arrives in several chunks as text/plain with a session id, and ends with the disclaimer', async () => {
    const second = gate();
    const third = gate();
    fake.script({
      chunks: [
        { content: 'Your books ' },
        { content: 'look ', before: second.promise },
        { content: 'healthy.', before: third.promise },
      ],
    });
    const answer = await ask(t, token, { message: 'How are my books?' }, (_text, i) => {
      // the next piece is produced only after the previous one reached the client
      if (i === 0) second.open();
      if (i === 1) third.open();
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.headers.get('x-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.chunks.length).toBeGreaterThanOrEqual(3);
    expect(answer.chunks[0]).toBe('Your books ');
    expect(answer.text).toBe(`Your books look healthy.\n\n${EN_DISCLAIMER}\n`);
    expect(answer.text.trimEnd().split('\n').at(-1)).toBe(EN_DISCLAIMER);
  });

  it('when the model calls a tool, then the server runs it on the real ledger and the exact figure reaches the answer', async () => {
    fake.script(
      {
        chunks: [
          { tool_calls: [{ function: { name: 'get_income_and_spending', arguments: { period: 'last_month' } } }] },
        ],
      },
      {
        chunks: (request) => {
          const tool = request.messages.find((m) => m.role === 'tool');
          const result = JSON.parse(tool!.content) as {
            currencies: { spending: { account: string; amount: string }[] }[];
          };
          const groceries = result.currencies[0]!.spending.find((s) => s.account === 'Groceries')!;
          return [{ content: `You spent ${groceries.amount} USD on groceries last month.` }];
        },
      },
    );
    const before = fake.requests.length;
    const answer = await ask(t, token, { message: 'What did I spend on groceries last month?' });
    expect(answer.text).toBe(`You spent ${groceriesLastMonth} USD on groceries last month.\n\n${EN_DISCLAIMER}\n`);
    const [first, second] = fake.requests.slice(before);
    expect(first!.tools!.map((tool) => tool.function.name).sort()).toEqual(
      TOOL_DEFINITIONS.map((d) => d.function.name).sort(),
    );
    expect(second!.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ function: { name: 'get_income_and_spending' } }],
    });
    expect(second!.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'get_income_and_spending' });
    expect(second!.messages.at(-1)!.content).toContain(`"amount":"${groceriesLastMonth}"`);
  });

  describe('figures checked against the tools', () => {
    const spendingCall = {
      chunks: [
        { tool_calls: [{ function: { name: 'get_income_and_spending', arguments: { period: 'last_month' } } }] },
      ],
    };

    it('when the model invents a figure, then the answer is sent back once with the reason, and the invented figure is never shown', async () => {
      fake.script(
        spendingCall,
        { chunks: [{ content: 'You spent ' }, { content: '999.99 USD on groceries last month.' }] },
        { chunks: [{ content: `You spent ${groceriesLastMonth} USD on groceries last month.` }] },
      );
      const before = fake.requests.length;
      const answer = await ask(t, token, { message: 'What did I spend on groceries last month?' });
      expect(answer.text).toBe(`You spent ${groceriesLastMonth} USD on groceries last month.\n\n${EN_DISCLAIMER}\n`);
      const retry = fake.requests.slice(before)[2]!;
      expect(retry.messages.at(-2)).toMatchObject({
        role: 'assistant',
        content: 'You spent 999.99 USD on groceries last month.',
      });
      expect(retry.messages.at(-1)!.role).toBe('user');
      expect(retry.messages.at(-1)!.content).toContain('999.99');
      const stored = (await t.api.get(`/api/chat/history?session_id=${answer.headers.get('x-session-id')}`, token))
        .body;
      expect(JSON.stringify(stored)).not.toContain('999.99');
    });

    it('when the model miscopies a digit of a tool figure, again after the retry, then the answer shows it marked unverified', async () => {
      const miscopied = '123.54';
      fake.script(
        spendingCall,
        { chunks: [{ content: `Groceries: ${miscopied} USD.` }] },
        { chunks: [{ content: `Groceries came to ${miscopied} USD.` }] },
      );
      const answer = await ask(t, token, { message: 'Groceries last month?' });
      expect(answer.text).toBe(
        `Groceries came to ⟦${miscopied}⟧ USD.\n\nFigures in ⟦ ⟧ could not be traced to your books; check them before relying on them.\n\n${EN_DISCLAIMER}\n`,
      );
    });

    it('when the model adds two tool figures correctly, then the answer is shown as it is, without a retry', async () => {
      // the recent entries hold 100.20 and 23.25 but no total: 123.45 is their sum
      fake.script(
        {
          chunks: [{ tool_calls: [{ function: { name: 'get_recent_entries', arguments: { account: 'Groceries' } } }] }],
        },
        { chunks: [{ content: 'You spent 100.20 at the market and 23.25 at the bakery: 123.45 USD in all.' }] },
      );
      const before = fake.requests.length;
      const answer = await ask(t, token, { message: 'What did my groceries cost?' });
      expect(fake.requests[before + 1]!.messages.at(-1)!.content).not.toContain('123.45');
      expect(answer.text).toBe(
        `You spent 100.20 at the market and 23.25 at the bakery: 123.45 USD in all.\n\n${EN_DISCLAIMER}\n`,
      );
      expect(fake.requests.length - before).toBe(2);
    });
  });

  it('when the model offers no tool that writes, then every tool it gets is a reader', () => {
    for (const def of TOOL_DEFINITIONS) expect(def.function.name).toMatch(/^get_/);
  });

  it('when a session continues, then history holds both messages of every turn and the model sees the earlier turn', async () => {
    fake.script({ chunks: [{ content: 'First answer.' }] }, { chunks: [{ content: 'Second answer.' }] });
    const first = await ask(t, token, { message: 'First question' });
    const sessionId = first.headers.get('x-session-id')!;
    const before = fake.requests.length;
    const second = await ask(t, token, { message: 'Second question', session_id: sessionId });
    expect(second.headers.get('x-session-id')).toBe(sessionId);
    expect(fake.requests[before]!.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['First question', `First answer.\n\n${EN_DISCLAIMER}\n`, 'Second question']),
    );
    const history = await t.api.get(`/api/chat/history?session_id=${sessionId}`, token);
    expect(history.status).toBe(200);
    const [session] = history.body.sessions;
    expect(session).toMatchObject({ id: sessionId, title: 'First question', status: 'active', message_count: 4 });
    expect(session.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'First question'],
      ['assistant', `First answer.\n\n${EN_DISCLAIMER}\n`],
      ['user', 'Second question'],
      ['assistant', `Second answer.\n\n${EN_DISCLAIMER}\n`],
    ]);
    expect(session.last_message).toMatchObject({ role: 'assistant', content: `Second answer.\n\n${EN_DISCLAIMER}\n` });
    const list = await t.api.get('/api/chat/history', token);
    expect(list.body.sessions[0].id).toBe(sessionId);
    expect(list.body.sessions[0].messages).toBeUndefined();
  });

  it('when a session is deleted, then it leaves the history and cannot be continued', async () => {
    fake.script({ chunks: [{ content: 'ok' }] });
    const answer = await ask(t, token, { message: 'Delete me later' });
    const sessionId = answer.headers.get('x-session-id')!;
    const del = await t.api.delete(`/api/chat/session/${sessionId}`, token);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const list = await t.api.get('/api/chat/history', token);
    expect(list.body.sessions.map((s: { id: string }) => s.id)).not.toContain(sessionId);
    expect((await t.api.get(`/api/chat/history?session_id=${sessionId}`, token)).status).toBe(404);
    const again = await ask(t, token, { message: 'Still there?', session_id: sessionId });
    expect(again.status).toBe(404);
    expect(JSON.parse(again.text).code).toBe('NOT_FOUND');
    expect((await t.api.delete(`/api/chat/session/${sessionId}`, token)).status).toBe(404);
  });

  it('when the message is empty, blank, too long or the session unknown, then it is refused before anything streams', async () => {
    for (const body of [{}, { message: '' }, { message: '   ' }, { message: 'x'.repeat(4001) }, { message: 7 }]) {
      const res = await t.api.post('/api/chat', body, token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const unknown = await t.api.post('/api/chat', { message: 'hi', session_id: crypto.randomUUID() }, token);
    expect(unknown.status).toBe(404);
    const other = await registerUser(t.api);
    fake.script({ chunks: [{ content: 'mine' }] });
    const mine = await ask(t, token, { message: 'private' });
    const foreign = await t.api.post(
      '/api/chat',
      { message: 'hi', session_id: mine.headers.get('x-session-id') },
      other.token,
    );
    expect(foreign.status).toBe(404);
  });

  it('when the client goes away mid-answer, then the model request is aborted and the partial answer is kept', async () => {
    const never = gate();
    fake.script({ chunks: [{ content: 'Thinking about ' }, { content: 'never sent', before: never.promise }] });
    const controller = new AbortController();
    const aborted = fake.nextAbort();
    let sessionId = '';
    const asking = ask(t, token, { message: 'Long question' }, () => controller.abort(), controller.signal).catch(
      (e: Error) => e,
    );
    await aborted;
    expect(fake.abortedStreams).toBeGreaterThanOrEqual(1);
    await asking;
    const list = await t.api.get('/api/chat/history', token);
    sessionId = list.body.sessions.find((s: { title: string }) => s.title === 'Long question').id;
    // the answer is stored once the server has noticed
    let stored: { role: string; content: string }[] = [];
    for (let i = 0; i < 50 && stored.length < 2; i++) {
      stored = (await t.api.get(`/api/chat/history?session_id=${sessionId}`, token)).body.sessions[0].messages;
      if (stored.length < 2) await new Promise((r) => setImmediate(r));
    }
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]!.content).toBe('Thinking about \n\n(stopped)');
    never.open();
  });

  it('when the model fails after the stream started, then the answer ends with a readable line and the disclaimer', async () => {
    fake.script({ chunks: [{ content: 'Partial ' }, { error: 'model runner crashed' }] });
    const answer = await ask(t, token, { message: 'Break please' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(`Partial \n\n[The advisor stopped: model runner crashed]\n\n${EN_DISCLAIMER}\n`);
  });

  it('when text carries a card number, then neither the stored message nor the streamed answer shows it', async () => {
    fake.script({ chunks: [{ content: 'Card 4111 1111 ' }, { content: '1111 1234 is noted.' }] });
    const answer = await ask(t, token, { message: 'My card is 4111-1111-1111-1234' });
    expect(answer.text).toBe(`Card ••••1234 is noted.\n\n${EN_DISCLAIMER}\n`);
    const sessionId = answer.headers.get('x-session-id')!;
    const stored = (await t.api.get(`/api/chat/history?session_id=${sessionId}`, token)).body.sessions[0];
    expect(JSON.stringify(stored)).not.toMatch(/4111/);
    expect(stored.messages[0].content).toBe('My card is ••••1234');
  });
});

describe('without a reachable model', () => {
  let down: TestServer;
  let tok: string;

  beforeAll(async () => {
    // a port nothing listens on: the real client gets ECONNREFUSED
    const closed = new FakeOllama();
    await closed.start();
    const url = closed.url;
    await closed.stop();
    down = await startTestServer({ env: { OLLAMA_HOST: url } });
    ({ token: tok } = await registerUser(down.api));
    await setUpBooks(down, tok);
  });
  afterAll(() => down.stop());

  it('when Ollama is not running, then an English question still gets a 200 streamed answer from the books, saying how to start the model', async () => {
    const answer = await ask(down, tok, { message: 'What did I spend on groceries last month?' });
    expect(answer.status).toBe(200);
    const lines = answer.text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'The local AI model is not running, so the built-in advisor answers from your books. To use the model, start it with: ollama serve',
    );
    expect(answer.text).toContain(`You spent ${groceriesLastMonth} USD on Groceries last month`);
    expect(lines.at(-1)).toBe(EN_DISCLAIMER);
    const status = await down.api.get('/api/chat/status', tok);
    expect(status.body).toMatchObject({ available: false, model: 'qwen2.5:3b' });
    expect(status.body.detail).toMatch(/ollama serve/);
  });

  it('when Ollama is not running, then a Chinese question gets the Chinese built-in answer and disclaimer', async () => {
    const answer = await ask(down, tok, { message: '我上个月在Groceries上花了多少钱？' });
    expect(answer.status).toBe(200);
    const lines = answer.text.trimEnd().split('\n');
    expect(lines[0]).toBe('本地 AI 模型未运行，由内置顾问根据您的账本回答。如需使用模型，请运行：ollama serve');
    expect(answer.text).toContain(`在Groceries上花了 ${groceriesLastMonth} USD`);
    expect(lines.at(-1)).toBe(ZH_DISCLAIMER);
  });

  it('when asked for net worth, balances, top expenses or reconciliation, then the built-in advisor answers each from the books', async () => {
    expect((await ask(down, tok, { message: 'What is my net worth?' })).text).toContain('Net worth (USD): 2,876.55');
    expect((await ask(down, tok, { message: 'What is my balance in Checking?' })).text).toContain(
      'Checking: 2,876.55 USD',
    );
    const top = (await ask(down, tok, { message: 'What were my top expenses last month?' })).text;
    expect(top).toContain(`- Groceries: ${groceriesLastMonth} USD`);
    expect((await ask(down, tok, { message: 'How is my reconciliation going?' })).text).toContain(
      'No bank statements have been imported yet',
    );
  });

  it('when a conversation goes on without the model, then only its first answer says so, each in the conversation’s language', async () => {
    const first = await ask(down, tok, { message: 'What is my net worth?' });
    const sessionId = first.headers.get('x-session-id')!;
    expect(first.text.split('\n')[0]).toMatch(/^The local AI model is not running/);
    const second = await ask(down, tok, { message: 'And my income last month?', session_id: sessionId });
    expect(second.text).not.toMatch(/local AI model|ollama/);
    expect(second.text.split('\n')[0]).toMatch(/^Income last month \(.*\): 3,000\.00 USD\.$/);
    const zh = await ask(down, tok, { message: '我的净资产是多少？' });
    expect(zh.text.split('\n')[0]).toMatch(/^本地 AI 模型未运行/);
    expect(zh.text).toContain('净资产（USD）：2,876.55');
    const zhAgain = await ask(down, tok, { message: '上个月的收入呢？', session_id: zh.headers.get('x-session-id') });
    expect(zhAgain.text).not.toMatch(/本地 AI 模型|ollama/);
    expect(zhAgain.text.trimEnd().split('\n').at(-1)).toBe(ZH_DISCLAIMER);
  });

  it('when a question is not about the books, then the answer says politely what the advisor can answer, in its language', async () => {
    const weather = await ask(down, tok, { message: 'What will the weather be in Paris tomorrow?' });
    const lines = weather.text.trimEnd().split('\n').filter(Boolean);
    expect(lines.slice(1)).toEqual([
      'I can only answer questions about your own books: balances, net worth, income and spending, budgets, bills and reconciliation. For example: “What is my net worth?”',
      EN_DISCLAIMER,
    ]);
    const zh = await ask(down, tok, { message: '给我讲个笑话' });
    expect(zh.text).toContain('我只能回答与您自己账本有关的问题');
    expect(zh.text).not.toMatch(/Net worth|净资产（USD）/);
    // a question about the books in general still gets the overview
    expect((await ask(down, tok, { message: 'How am I doing with my money?' })).text).toContain(
      'Net worth (USD): 2,876.55',
    );
    // books with no accounts yet: still the scope, not advice to create accounts
    const { token: newcomer } = await registerUser(down.api);
    const poem = (await ask(down, newcomer, { message: 'Write me a poem about the sea' })).text;
    expect(poem).toContain('I can only answer questions about your own books');
    expect(poem).not.toContain('You have no accounts yet');
  });

  it('when the model is not pulled, then the answer says how to pull it', async () => {
    fake.models = [];
    const answer = await ask(t, token, { message: 'What is my net worth?' });
    expect(answer.text.split('\n')[0]).toBe(
      'The local AI model is not installed, so the built-in advisor answers from your books. To use the model, run: ollama pull qwen2.5:3b',
    );
    expect(answer.text).toContain('Net worth (USD)');
    const status = await t.api.get('/api/chat/status', token);
    expect(status.body).toMatchObject({ available: false });
    expect(status.body.detail).toMatch(/ollama pull/);
  });
});

describe('status and suggestions', () => {
  it('when the model server has the model, then status says available', async () => {
    const res = await t.api.get('/api/chat/status', token);
    expect(res.body).toMatchObject({ available: true, model: 'qwen2.5:3b', host: fake.url });
  });

  it('when asking for suggestions, then 4 to 8 questions come in the asked or detected language, some naming the user’s accounts', async () => {
    const en = (await t.api.get('/api/chat/suggestions', token)).body.suggestions as string[];
    expect(en.length).toBeGreaterThanOrEqual(4);
    expect(en.length).toBeLessThanOrEqual(8);
    expect(en.some((s) => s.includes('Groceries'))).toBe(true);
    const zh = (await t.api.get('/api/chat/suggestions?language=zh', token)).body.suggestions as string[];
    expect(zh.every((s) => /[\u4e00-\u9fff]/.test(s))).toBe(true);
    const detected = (await t.api.get(`/api/chat/suggestions?message=${encodeURIComponent('你好')}`, token)).body
      .suggestions;
    expect(detected).toEqual(zh);
    expect((await t.api.get('/api/chat/suggestions?language=fr', token)).body.code).toBe('VALIDATION_ERROR');
  });
});

import { gate } from '../test/support/fake-ollama.ts';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

test.describe('the advisor', () => {
  test('when a question is asked, then the answer streams in as it is written, and Stop ends it', async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const seed = await Seed.user(ledger.api);
    await seed.account('Checking', 'ASSET');
    const rest = gate();
    ledger.fake.script({ chunks: [{ content: 'Your net worth ' }, { content: 'is 0.00 USD.', before: rest.promise }] });

    await app.openSignedIn(seed);
    await app.chat.open();
    const chat = app.chat.panel;
    await expect(chat.getByRole('group', { name: 'Suggested questions' }).getByRole('button').first()).toBeVisible();
    await expect(chat.getByTestId('model-unavailable')).toHaveCount(0);

    await app.chat.ask('What is my net worth?');
    // the first piece is on screen while the model is still holding back the rest
    await expect(app.chat.answers.last()).toHaveText(/Your net worth\s*$/);
    const stop = chat.getByRole('button', { name: 'Stop' });
    await expect(stop).toBeVisible();
    const modelRequestClosed = ledger.fake.nextAbort();
    await stop.click();
    await modelRequestClosed; // the server stopped the model when the reader went away
    rest.open();
    await expect(app.chat.answers.last()).toContainText('(stopped)');
    await expect(app.chat.answers.last()).not.toContainText('is 0.00 USD');
    await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible();

    // the same conversation goes on, and a whole answer ends with the disclaimer
    ledger.fake.script({ chunks: [{ content: 'You spent ' }, { content: 'nothing ' }, { content: 'this month.' }] });
    await app.chat.ask('How much did I spend this month?');
    await expect(app.chat.answers.last()).toContainText('You spent nothing this month.');
    await expect(app.chat.answers.last()).toContainText('The above analysis is for reference only.');
    await expect(chat.getByText('Conversations (1)')).toBeVisible();
    expect(ledger.fake.requests).toHaveLength(2);
    await captureScreen(page, testInfo, 'advisor');
    await expectEveryControlNamed(page);

    // the conversation is kept: a new one starts empty, the old one opens again
    await chat.getByText('Conversations (1)').click();
    await chat.getByRole('button', { name: 'New conversation' }).click();
    await expect(app.chat.answers).toHaveCount(0);
    await chat.getByRole('listitem').getByRole('button', { name: 'What is my net worth?', exact: true }).click();
    await expect(app.chat.answers).toHaveCount(2);
    await expect(app.chat.answers.first()).toContainText('(stopped)');
  });

  for (const language of [
    { code: 'en', question: 'What is my net worth?', label: "unverified: not found in your books' figures" },
    { code: 'zh', question: '我的净资产是多少？', label: '未核实：账本中找不到这个数字' },
  ] as const) {
    test(`when the model gives a figure its tools did not, twice, then the answer shows it marked unverified (${language.code})`, async ({
      app,
      page,
      ledger,
    }) => {
      const seed = await Seed.user(ledger.api);
      await seed.account('Checking', 'ASSET');
      const netWorth = { chunks: [{ tool_calls: [{ function: { name: 'get_net_worth', arguments: {} } }] }] };
      // the books hold 0.00; the model says 1,250.00, and again after it is told
      ledger.fake.script(
        netWorth,
        { chunks: [{ content: 'Net worth: 1,250.00 USD.' }] },
        { chunks: [{ content: 'Net worth: 1,250.00 USD.' }] },
      );
      await app.openSignedIn(seed);
      await app.chooseLanguage(language.code);
      await app.chat.open();
      await app.chat.ask(language.question);
      const mark = app.chat.answers.last().locator('mark.unverified');
      await expect(mark).toHaveText(`1,250.00 (${language.label})`);
      await expect(mark).toHaveAttribute('title', language.label);
      expect(ledger.fake.requests).toHaveLength(3);
      expect(ledger.fake.requests[2]!.messages.at(-1)!.content).toContain('1,250.00');
    });
  }

  for (const language of [
    {
      code: 'en',
      question: 'How much did I spend on bank fees in April 2011?',
      answer: 'You spent 20.00 USD on Bank fees in April 2011 (2011-04-01 to 2011-04-30).',
    },
    {
      code: 'zh',
      question: '2011年4月Bank fees花了多少？',
      answer: '2011年4月（2011-04-01 至 2011-04-30）您在Bank fees上花了 20.00 USD。',
    },
  ] as const) {
    test(`when asked about a named month without the model, then that month is answered, not this one (${language.code})`, async ({
      app,
      ledger,
    }) => {
      ledger.fake.models = [];
      const seed = await Seed.user(ledger.api);
      const bank = await seed.account('Checking', 'ASSET');
      const fees = await seed.account('Bank fees', 'EXPENSE');
      await seed.posted('2011-04-12', 'Account fee', fees, bank, '12.34');
      await seed.posted('2011-04-28', 'Wire fee', fees, bank, '7.66');
      await seed.posted(new Date().toISOString().slice(0, 10), 'Fee this month', fees, bank, '3.21');
      await app.openSignedIn(seed);
      await app.chooseLanguage(language.code);
      await app.chat.open();
      await app.chat.ask(language.question);
      await expect(app.chat.answers.last()).toContainText(language.answer);
      await expect(app.chat.answers.last()).not.toContainText('3.21');
    });
  }

  test('when the interface is switched to Chinese, then the suggestions are in Chinese', async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await app.openSignedIn(seed);
    await app.chooseLanguage('zh');
    await expect(page.getByRole('link', { name: '概览' })).toBeVisible();
    await app.chat.open();
    const suggestions = app.chat.panel.getByRole('group', { name: '推荐问题' }).getByRole('button');
    await expect(suggestions.first()).toHaveText(/[\u4e00-\u9fff]/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  });

  test('when the local model is not available, then the panel says so and the built-in advisor answers', async ({
    app,
    page,
    ledger,
  }) => {
    ledger.fake.models = [];
    const seed = await Seed.user(ledger.api);
    await app.openSignedIn(seed);
    await app.chat.open();
    await expect(app.chat.panel.getByTestId('model-unavailable')).toContainText(
      'The local model (qwen2.5:3b) is not available',
    );
    await app.chat.ask('What is my net worth?');
    await expect(app.chat.answers.last()).toContainText(
      'The local AI model is not installed, so the built-in advisor answers from your books. To use the model, run: ollama pull qwen2.5:3b',
    );
    await expect(app.chat.answers.last()).toContainText('The above analysis is for reference only.');
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    // the notice once per conversation; a question not about the books gets the scope, politely
    await app.chat.ask('Write me a poem about the sea');
    await expect(app.chat.answers).toHaveCount(2);
    await expect(app.chat.answers.last()).toContainText('I can only answer questions about your own books');
    await expect(app.chat.answers.last()).not.toContainText('ollama');
  });
});

import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import type { Api } from '../test/support/server.ts';
import { Seed } from './support/seed.ts';

/** What the screens say in each language: the navigation, the starter set's names, the review list. */
const LANGUAGES = [
  {
    code: 'en',
    nav: { main: 'Main', accounts: 'Accounts', statements: 'Statements' },
    starter: 'Add a starter set',
    names: { checking: 'Checking', groceries: 'Groceries', salary: 'Salary', opening: 'Opening balances' },
    unmatched: 'Unmatched',
    suggested: 'Suggested',
    choose: 'Choose an account',
    accountFor: (name: string) => `Account for ${name}`,
    create: (name: string) => `Create entry for ${name}`,
    select: (name: string) => `Select ${name}`,
  },
  {
    code: 'zh',
    nav: { main: '主导航', accounts: '账户', statements: '对账单' },
    starter: '添加常用账户',
    names: { checking: '活期账户', groceries: '日常购物', salary: '工资', opening: '期初余额' },
    unmatched: '未匹配',
    suggested: '推荐',
    choose: '请选择账户',
    accountFor: (name: string) => `${name} 的对方账户`,
    create: (name: string) => `为 ${name} 生成分录`,
    select: (name: string) => `选择 ${name}`,
  },
] as const;

type Language = (typeof LANGUAGES)[number];

const TESCO = 'CARD PAYMENT TESCO STORES 3021 12/03';
const TESCO_AGAIN = 'CARD PAYMENT TESCO STORES 4410 09/04';
const SALARY = 'ACME LTD SALARY MARCH';
const SALARY_AGAIN = 'ACME LTD SALARY APRIL';
const POWER = 'CITY POWER AND WATER';
const MOM = 'TRANSFER FROM MOM';

async function statement(api: Api, token: string, accountId: string, month: string, lines: [string, string, string][]) {
  const res = await api.post(
    '/api/statements',
    {
      account_id: accountId,
      name: `Bank ${month}`,
      transactions: lines.map(([description, amount, type], i) => ({
        date: `2026-${month}-${String(3 + i).padStart(2, '0')}`,
        description,
        amount,
        type,
      })),
    },
    token,
  );
  expect(res.status).toBe(201);
}

async function openUnmatched(page: Page, language: Language): Promise<Locator> {
  await page
    .getByRole('navigation', { name: language.nav.main })
    .getByRole('link', { name: language.nav.statements })
    .click();
  await page.getByRole('tab', { name: language.unmatched }).click();
  return page.getByRole('tabpanel');
}

/** A line's chips: none offers equity or the account in euros, and none says 0 %. */
async function expectNoNoiseChips(line: Locator, language: Language): Promise<void> {
  const chips = line.getByRole('group', { name: language.suggested }).getByRole('button');
  for (const text of await chips.allTextContents()) {
    expect(text).not.toContain(language.names.opening);
    expect(text).not.toContain('Travel EUR');
    expect(text).not.toMatch(/(^|\D)0%/);
  }
}

for (const language of LANGUAGES) {
  test(`when a new user reviews their first statement (${language.code}), then no account is guessed for them, no chip offers equity, another currency or 0 %, and a payee booked once is chosen the next month`, async ({
    app,
    page,
    ledger,
  }) => {
    const seed = await Seed.user(ledger.api);
    await app.openSignedIn(seed);
    await app.chooseLanguage(language.code);
    // the starter chart a new user begins with, and one account in another currency
    await page
      .getByRole('navigation', { name: language.nav.main })
      .getByRole('link', { name: language.nav.accounts })
      .click();
    await page.getByRole('button', { name: language.starter }).click();
    await expect(page.getByText(language.names.opening).first()).toBeVisible();
    await seed.account('Travel EUR', 'EXPENSE', 'EUR');
    const accounts = (await ledger.api.get('/api/accounts?per_page=100', seed.token)).body.items as {
      id: string;
      name: string;
    }[];
    const checking = accounts.find((a) => a.name === language.names.checking)!.id;

    // month one: nothing booked yet, so nothing is suggested and nothing chosen
    await statement(ledger.api, seed.token, checking, '03', [
      [TESCO, '32.10', 'debit'],
      [SALARY, '2500.00', 'credit'],
      [POWER, '80.00', 'debit'],
    ]);
    let unmatched = await openUnmatched(page, language);
    for (const description of [TESCO, SALARY, POWER]) {
      const line = app.statements.unmatched(description);
      await expect(line).toContainText(language.choose);
      await expect(line.getByRole('checkbox', { name: language.select(description) })).toBeDisabled();
      await expect(line.getByRole('group', { name: language.suggested })).toHaveCount(0);
    }
    await expect(unmatched).not.toContainText('0%');
    await expectEveryControlNamed(page);

    // the person books two lines by hand
    for (const [description, account] of [
      [TESCO, language.names.groceries],
      [SALARY, language.names.salary],
    ] as const) {
      const line = app.statements.unmatched(description);
      const picker = line.getByRole('combobox', { name: language.accountFor(description) });
      await picker.fill(account);
      await picker.press('Enter');
      await line.getByRole('button', { name: language.create(description) }).click();
      await expect(line).toBeHidden();
    }

    // month two: the payees booked before are chosen; a new payer is offered only what fits, or nothing
    await statement(ledger.api, seed.token, checking, '04', [
      [TESCO_AGAIN, '41.00', 'debit'],
      [SALARY_AGAIN, '2500.00', 'credit'],
      [MOM, '50.00', 'credit'],
    ]);
    await page.reload();
    unmatched = await openUnmatched(page, language);
    for (const [description, account] of [
      [TESCO_AGAIN, language.names.groceries],
      [SALARY_AGAIN, language.names.salary],
    ] as const) {
      const line = app.statements.unmatched(description);
      await expect(line.getByRole('combobox', { name: language.accountFor(description) })).toHaveValue(account);
      const chip = line
        .getByRole('group', { name: language.suggested })
        .getByRole('button', { name: new RegExp(account) });
      await expect(chip).toHaveAttribute('aria-pressed', 'true');
      await expect(chip).toHaveText(/[1-9]\d*%/);
      await expect(line.getByRole('checkbox', { name: language.select(description) })).toBeEnabled();
    }
    const mom = app.statements.unmatched(MOM);
    await expect(mom).toContainText(language.choose);
    for (const description of [TESCO_AGAIN, SALARY_AGAIN, POWER, MOM])
      await expectNoNoiseChips(app.statements.unmatched(description), language);
    await expect(unmatched).not.toContainText(' 0%');
  });
}

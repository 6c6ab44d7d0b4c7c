import type { Page } from '@playwright/test';
import type { LedgerApp } from './pages/ledger-app.ts';
import { test, expect } from './support/fixtures.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';
import { Seed } from './support/seed.ts';

/**
 * The Unmatched list books what a bank statement holds as a person does their books: a GBP line into
 * a USD category at the rate of its date (shown, changed, and asked for when the table has none), a
 * line split across categories, and a transfer between two of the person's accounts, in English and
 * Chinese.
 */

const FEE = 'MONTHLY FEE';
const CAFE = 'CAFE PARIS';
const TESCO = 'TESCO STORES';
const TO_SAVINGS = 'To savings';
const FROM_CURRENT = 'From current';

const LANGUAGES = [
  {
    code: 'en',
    nav: ['Main', 'Statements'],
    unmatchedTab: 'Unmatched',
    accountFor: (name: string) => `Account for ${name}`,
    amountFor: (name: string, currency: string) => `Amount in ${currency} for ${name}`,
    create: (name: string) => `Create entry for ${name}`,
    atRate: 'at 1 GBP = 1.25 USD (rate of 2024-01-02)',
    missing: 'No GBP → EUR rate on or before 2024-01-05.',
    rateLabel: '1 GBP in EUR',
    saveRate: 'Save rate',
    split: (name: string) => `Split ${name} across accounts`,
    partAccount: (n: number) => `Account of part ${n}`,
    partAmount: (n: number) => `Amount of part ${n}`,
    partConverted: (n: number, currency: string) => `Amount of part ${n} in ${currency}`,
    left: '40.00 GBP left to book.',
    exact: 'The parts add up to 100.00 GBP.',
    looksLike: 'Looks like a transfer to UK savings:',
    bookTransfer: (name: string) => `Book ${name} as a transfer with UK savings`,
    transferBooked: 'Booked as a transfer with UK savings',
    rulesTab: 'Rules',
    newRule: 'New rule',
    ruleName: 'Name',
    ruleText: 'Text of the description',
    ruleAccount: 'Book to account',
    addSplit: 'Add a part',
    splitAccount: 'Account of part 1',
    splitValue: 'Part 1',
    saveRule: 'Save rule',
  },
  {
    code: 'zh',
    nav: ['主导航', '对账单'],
    unmatchedTab: '未匹配',
    accountFor: (name: string) => `${name} 的对方账户`,
    amountFor: (name: string, currency: string) => `${name} 的 ${currency} 金额`,
    create: (name: string) => `为 ${name} 生成分录`,
    atRate: '按 1 GBP = 1.25 USD（2024-01-02 的汇率）',
    missing: '2024-01-05 及之前没有 GBP → EUR 的汇率。',
    rateLabel: '1 GBP 折合 EUR',
    saveRate: '保存汇率',
    split: (name: string) => `将 ${name} 拆分到多个账户`,
    partAccount: (n: number) => `第 ${n} 部分的账户`,
    partAmount: (n: number) => `第 ${n} 部分的金额`,
    partConverted: (n: number, currency: string) => `第 ${n} 部分的 ${currency} 金额`,
    left: '还剩 40.00 GBP 未分配。',
    exact: '各部分合计 100.00 GBP。',
    looksLike: '看起来是转入 UK savings 的转账：',
    bookTransfer: (name: string) => `将 ${name} 记为与 UK savings 之间的转账`,
    transferBooked: '已记为与 UK savings 之间的转账',
    rulesTab: '规则',
    newRule: '新建规则',
    ruleName: '名称',
    ruleText: '描述文字',
    ruleAccount: '记入账户',
    addSplit: '添加一部分',
    splitAccount: '第 1 部分的账户',
    splitValue: '第 1 部分',
    saveRule: '保存规则',
  },
] as const;

type Language = (typeof LANGUAGES)[number];

/** A UK current account in GBP with its statement, categories in USD, GBP and EUR, and a GBP/USD rate. */
async function books(seed: Seed) {
  const current = await seed.account('UK current', 'ASSET', 'GBP');
  const savings = await seed.account('UK savings', 'ASSET', 'GBP');
  const fees = await seed.account('Bank fees', 'EXPENSE', 'USD');
  const groceries = await seed.account('Groceries', 'EXPENSE', 'USD');
  const household = await seed.account('Household', 'EXPENSE', 'GBP');
  const travel = await seed.account('Travel', 'EXPENSE', 'EUR');
  await seed.price('2024-01-02', 'GBP', 'USD', '1.25');
  const lines = await seed.bankLines(current, [
    { date: '2024-01-05', description: FEE, amount: '10.10', type: 'debit' },
    { date: '2024-01-05', description: CAFE, amount: '10.10', type: 'debit' },
    { date: '2024-01-06', description: TESCO, amount: '100.00', type: 'debit' },
    { date: '2024-01-07', description: TO_SAVINGS, amount: '250.00', type: 'debit' },
  ]);
  const saved = await seed.bankLines(savings, [
    { date: '2024-01-08', description: FROM_CURRENT, amount: '250.00', type: 'credit' },
  ]);
  return { current, savings, fees, groceries, household, travel, lines: { ...lines, ...saved } };
}

/** Signs in, switches to the language, and opens the Unmatched list. */
async function openUnmatched(page: Page, app: LedgerApp, seed: Seed, l: Language) {
  await app.openSignedIn(seed);
  if (l.code !== 'en') await app.chooseLanguage(l.code);
  await page.getByRole('navigation', { name: l.nav[0] }).getByRole('link', { name: l.nav[1] }).click();
  await page.getByRole('tab', { name: l.unmatchedTab }).click();
}

async function choose(page: Page, combobox: string, account: string) {
  const box = page.getByRole('combobox', { name: combobox, exact: true });
  await box.fill(account);
  await box.press('Enter');
  await expect(box).toHaveValue(account);
}

for (const l of LANGUAGES) {
  test.describe(`in ${l.code}`, () => {
    test('when a GBP line is booked to a USD category, then the amount at the rate of its date is shown, can be changed, and is booked as an exchange; without a rate the screen asks for one', async ({
      app,
      page,
      ledger,
    }, testInfo) => {
      const seed = await Seed.user(ledger.api);
      const b = await books(seed);
      await openUnmatched(page, app, seed, l);
      const fee = app.statements.unmatched(FEE);
      await choose(page, l.accountFor(FEE), 'Bank fees');
      const amount = fee.getByRole('textbox', { name: l.amountFor(FEE, 'USD') });
      // 10.10 GBP at 1.25 is 12.625: the even cent
      await expect(amount).toHaveValue('12.62');
      await expect(fee.getByTestId('exchange-rate')).toHaveText(l.atRate);
      await amount.fill('12.70');
      await expect(fee.getByTestId('exchange-rate')).toContainText('1 GBP = 1.2574 USD');

      // no GBP/EUR rate: the screen says so and takes one
      const cafe = app.statements.unmatched(CAFE);
      await choose(page, l.accountFor(CAFE), 'Travel');
      await expect(cafe.getByRole('note')).toContainText(l.missing);
      await cafe.getByLabel(l.rateLabel).fill('0.85');
      await cafe.getByRole('button', { name: l.saveRate }).click();
      // 10.10 at 0.85 is 8.585: the even cent
      await expect(cafe.getByRole('textbox', { name: l.amountFor(CAFE, 'EUR') })).toHaveValue('8.58');
      await captureScreen(page, testInfo, `unmatched-exchange-${l.code}`);
      await expectEveryControlNamed(page);

      await fee.getByRole('button', { name: l.create(FEE) }).click();
      await expect(fee).toBeHidden();
      await cafe.getByRole('button', { name: l.create(CAFE) }).click();
      await expect(cafe).toBeHidden();
      const [feeEntry] = await seed.entriesOf(b.fees);
      expect(
        feeEntry.lines
          .filter((x: { automatic: boolean }) => !x.automatic)
          .map((x: any) => [x.account_name, x.amount, x.currency, x.cost]),
      ).toEqual([
        ['Bank fees', '12.70', 'USD', { amount: '10.10', currency: 'GBP' }],
        ['UK current', '10.10', 'GBP', null],
      ]);
      const [travelEntry] = await seed.entriesOf(b.travel);
      expect(travelEntry.lines[0]).toMatchObject({
        amount: '8.58',
        currency: 'EUR',
        cost: { amount: '10.10', currency: 'GBP' },
      });
    });

    test('when a line is split across a GBP and a USD category, then what is left is shown until the parts add up, and one entry books them', async ({
      app,
      page,
      ledger,
    }) => {
      const seed = await Seed.user(ledger.api);
      const b = await books(seed);
      await openUnmatched(page, app, seed, l);
      const tesco = app.statements.unmatched(TESCO);
      await choose(page, l.accountFor(TESCO), 'Household');
      await tesco.getByRole('button', { name: l.split(TESCO) }).click();
      await expect(tesco.getByRole('combobox', { name: l.partAccount(1) })).toHaveValue('Household');
      await tesco.getByRole('textbox', { name: l.partAmount(1), exact: true }).fill('60.00');
      await expect(tesco.getByTestId('split-rest')).toHaveText(l.left);
      await expect(tesco.getByRole('button', { name: l.create(TESCO) })).toBeDisabled();
      await choose(page, l.partAccount(2), 'Groceries');
      await tesco.getByRole('textbox', { name: l.partAmount(2), exact: true }).fill('40.00');
      await expect(tesco.getByTestId('split-rest')).toHaveText(l.exact);
      await expect(tesco.getByRole('textbox', { name: l.partConverted(2, 'USD') })).toHaveValue('50.00');
      await expectEveryControlNamed(page);
      await tesco.getByRole('button', { name: l.create(TESCO) }).click();
      await expect(tesco).toBeHidden();
      const [entry] = await seed.entriesOf(b.household);
      expect(
        entry.lines
          .filter((x: { automatic: boolean }) => !x.automatic)
          .map((x: any) => [x.account_name, x.amount, x.currency]),
      ).toEqual([
        ['Household', '60.00', 'GBP'],
        ['Groceries', '50.00', 'USD'],
        ['UK current', '100.00', 'GBP'],
      ]);
    });

    test('when money to savings and into savings are both on the list, then each offers the transfer, and booking it books one entry matched to both lines', async ({
      app,
      page,
      ledger,
    }, testInfo) => {
      const seed = await Seed.user(ledger.api);
      const b = await books(seed);
      await openUnmatched(page, app, seed, l);
      const out = app.statements.unmatched(TO_SAVINGS);
      await expect(out).toContainText(l.looksLike);
      await expect(app.statements.unmatched(FROM_CURRENT)).toBeVisible();
      await captureScreen(page, testInfo, `unmatched-transfer-${l.code}`);
      await out.getByRole('button', { name: l.bookTransfer(TO_SAVINGS) }).click();
      await expect(page.getByTestId('booked')).toContainText(l.transferBooked);
      await expect(out).toBeHidden();
      await expect(app.statements.unmatched(FROM_CURRENT)).toBeHidden();
      const [entry] = await seed.entriesOf(b.savings);
      expect(entry.lines.map((x: any) => [x.account_name, x.direction, x.amount, x.cleared])).toEqual([
        ['UK savings', 'DEBIT', '250.00', 'cleared'],
        ['UK current', 'CREDIT', '250.00', 'cleared'],
      ]);
    });

    test('when a rule splits Tesco 40 % to groceries, then the review list shows the line split, the rule’s account taking the rest, and books it', async ({
      app,
      page,
      ledger,
    }) => {
      const seed = await Seed.user(ledger.api);
      const b = await books(seed);
      await openUnmatched(page, app, seed, l);
      await page.getByRole('tab', { name: l.rulesTab }).click();
      await page.getByRole('button', { name: l.newRule }).click();
      const form = page.getByRole('form', { name: l.newRule });
      await form.getByLabel(l.ruleName).fill('Tesco');
      await form.getByLabel(l.ruleText).fill('tesco');
      await choose(page, l.ruleAccount, 'Household');
      await form.getByRole('button', { name: l.addSplit }).click();
      await choose(page, l.splitAccount, 'Groceries');
      await form.getByRole('textbox', { name: l.splitValue, exact: true }).fill('40');
      await expectEveryControlNamed(page);
      await form.getByRole('button', { name: l.saveRule }).click();
      await expect(form).toBeHidden();

      await page.getByRole('tab', { name: l.unmatchedTab }).click();
      const tesco = app.statements.unmatched(TESCO);
      await expect(tesco.getByRole('combobox', { name: l.partAccount(1) })).toHaveValue('Groceries');
      await expect(tesco.getByRole('textbox', { name: l.partAmount(1), exact: true })).toHaveValue('40.00');
      await expect(tesco.getByRole('combobox', { name: l.partAccount(2) })).toHaveValue('Household');
      await expect(tesco.getByRole('textbox', { name: l.partAmount(2), exact: true })).toHaveValue('60.00');
      await expect(tesco.getByTestId('split-rest')).toHaveText(l.exact);
      await tesco.getByRole('button', { name: l.create(TESCO) }).click();
      await expect(tesco).toBeHidden();
      const [entry] = await seed.entriesOf(b.household);
      expect(
        entry.lines.filter((x: { automatic: boolean }) => !x.automatic).map((x: any) => [x.account_name, x.amount]),
      ).toEqual([
        ['Groceries', '50.00'],
        ['Household', '60.00'],
        ['UK current', '100.00'],
      ]);
    });
  });
}

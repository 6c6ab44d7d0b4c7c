import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { STATEMENT_FIXTURES } from './support/paths.ts';
import { newEmail } from './support/people.ts';
import { captureScreen } from './support/screenshots.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import type { ShownTable } from './pages/reports-page.ts';

/**
 * A person's whole month, driven only through the screens, in English and in Chinese: sign up,
 * the starter chart, a bank's GBP CSV and a USD OFX (Intuit's QBO flavour: checking and savings in
 * one file), rules, bulk booking, a split, a transfer, the first reconciliation to the bank's
 * balance, the register, the balance sheet, a budget, a corrected entry, the advisor. Every figure
 * checked is worked out here from the bank files' own lines, never read back from the app's API.
 */

const CSV = path.join(STATEMENT_FIXTURES, 'csv_lloyds_uk_debit_credit_ddmmyyyy.csv');
const OFX = path.join(STATEMENT_FIXTURES, 'qbo_own_checking_savings_card.qbo');

/** An amount in cents, exactly, from a decimal string ("-64.18", "2000"). */
function cents(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  const value = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -value : value;
}

/** Cents as the screens print them: "4,215.37". */
function shown(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100n).padStart(2, '0')}`;
}

/** `amount` × `rate` (4 decimals at most) rounded to the cent, half to even. */
function convert(amount: bigint, rate: string): bigint {
  const [whole, fraction = ''] = rate.split('.');
  const scaled = BigInt(whole! + fraction.padEnd(4, '0'));
  const product = amount * scaled;
  const quotient = product / 10_000n;
  const rest = product % 10_000n;
  if (rest > 5_000n || (rest === 5_000n && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** The statements of an OFX file: account number, lines (name, amount) and the ledger balance. */
function readOfx(file: string) {
  const text = fs.readFileSync(file, 'latin1');
  return [...text.matchAll(/<STMTRS>([\s\S]*?)<\/STMTRS>/g)].map(([, body]) => ({
    account: /<ACCTID>([^\s<]+)/.exec(body!)![1]!,
    lines: [...body!.matchAll(/<STMTTRN>([\s\S]*?)<\/STMTTRN>/g)].map(([, t]) => ({
      name: /<NAME>([^\r\n<]+)/.exec(t!)![1]!.trim(),
      amount: cents(/<TRNAMT>([^\s<]+)/.exec(t!)![1]!),
    })),
    balance: cents(/<LEDGERBAL>\s*<BALAMT>([^\s<]+)/.exec(body!)![1]!),
    asOf: /<LEDGERBAL>[\s\S]*?<DTASOF>(\d{4})(\d{2})(\d{2})/.exec(body!)!.slice(1, 4).join('-'),
  }));
}

/** A Lloyds CSV's rows: date, description, money out and in (cents). */
function readCsv(file: string) {
  const [, ...rows] = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  return rows.map((row) => {
    const cells = row.split(',');
    const [d, m, y] = cells[0]!.split('/');
    return {
      date: `${y}-${m}-${d}`,
      description: cells[4]!,
      out: cells[5] ? cents(cells[5]) : 0n,
      in: cells[6] ? cents(cells[6]) : 0n,
    };
  });
}

const [checkingFile, savingsFile] = readOfx(OFX);
const csvRows = readCsv(CSV);
const SAFEWAY = checkingFile!.lines[0]!;
const PAYROLL = checkingFile!.lines[1]!;
const TRANSFER = checkingFile!.lines[2]!;
const ACME = csvRows[0]!; // the newest line of the CSV, bought in pounds
const RATE = '1.2700'; // the GBP → USD rate the person types when the line asks for one
const GROCERIES_BUDGET = cents('100.00');
const RENT_TYPED = cents('1250.00');
const RENT_CORRECTED = cents('1200.00');
const MONTH = checkingFile!.asOf.slice(0, 7);

function assertBalanceSheetAddsUp(tables: ShownTable[], labels: { totalLe: string }) {
  expect(tables.length).toBeGreaterThan(0);
  for (const table of tables) {
    const totals: bigint[] = [];
    for (const section of table.sections) {
      const total = section.rows.find((r) => r.kind === 'total');
      if (!total || section.heading === null) continue;
      const sum = section.rows
        .filter((r) => r.kind !== 'total' && r.depth === 0)
        .reduce((s, r) => s + cents(r.cells[0]!.replace(/[,\s]/g, '').replace('−', '-')), 0n);
      const printed = cents(total.cells[0]!.replace(/[,\s]/g, '').replace('−', '-'));
      expect(printed, `${table.name}, ${section.heading}: its total is the sum of the rows above it`).toBe(sum);
      totals.push(printed);
    }
    expect(totals, `${table.name}: assets, liabilities and equity each have a total`).toHaveLength(3);
    const [assets, liabilities, equity] = totals as [bigint, bigint, bigint];
    const closing = table.sections.find((s) => s.heading === null)!.rows.find((r) => r.label === labels.totalLe)!;
    const printed = cents(closing.cells[0]!.replace(/[,\s]/g, '').replace('−', '-'));
    expect(printed, `${table.name}: liabilities and equity`).toBe(liabilities + equity);
    expect(printed, `${table.name}: assets = liabilities + equity`).toBe(assets);
  }
}

for (const language of ['en', 'zh'] as const) {
  test(`when a person keeps a whole month of books through the screens (${language}), then every step shows the figures the bank files hold`, async ({
    app,
    page,
    ledger,
  }, testInfo) => {
    const t = (...args: Parameters<typeof app.words.t>) => app.words.t(...args);
    const shot = (name: string) =>
      captureScreen(page, testInfo, language === 'en' ? `month-${name}` : `month-${name}-zh`);

    // sign up, and the interface in the person's language
    await app.open();
    await app.signIn.signUp({ email: newEmail('month'), name: language === 'en' ? 'Mary' : '李梅' });
    if (language === 'zh') await app.chooseLanguage('zh');
    const checking = t('starter.checking');
    const savings = t('starter.savings');
    const groceries = t('starter.groceries');
    const salary = t('starter.salary');
    const utilities = t('starter.utilities');
    const card = t('starter.creditCard');

    // the starter chart, and an account in pounds for the UK bank
    await app.goTo('accounts');
    await app.accounts.addStarterSet();
    await app.accounts.create('UK current', 'Asset', { currency: 'GBP' });

    // the bank files: the GBP CSV, then the OFX holding checking and savings (the card skipped)
    await app.goTo('statements');
    await app.statements.importFile('UK current (GBP)', CSV, { count: csvRows.length });
    await app.statements.importFile(`${checking} (USD)`, OFX, {
      count: checkingFile!.lines.length + savingsFile!.lines.length,
      into: { [savingsFile!.account]: `${savings} (USD)` },
    });
    // each statement of the OFX keeps the bank's closing balance
    const imported = app.statements.importedStatements;
    await expect(imported).toContainText(shown(checkingFile!.balance));
    await expect(imported).toContainText(shown(savingsFile!.balance));
    await shot('import');

    // rules made from two lines, then both booked at once
    await app.statements.openUnmatched();
    await app.statements.makeRule(SAFEWAY.name, groceries);
    await app.statements.makeRule(PAYROLL.name, salary);
    await expect(app.statements.select(SAFEWAY.name)).toBeChecked();
    await expect(app.statements.select(PAYROLL.name)).toBeChecked();
    await app.statements.bookSelected(2);

    // a pound line split across two dollar categories, at the rate the person types
    await app.statements.chooseAccount(ACME.description, groceries);
    await app.statements.saveMissingRate(ACME.description, 'GBP', 'USD', RATE);
    await app.statements.openSplit(ACME.description);
    const part1 = cents('5.00');
    const part2 = ACME.out - part1;
    await app.statements.part(ACME.description, 1).amount.fill(shown(part1));
    const second = app.statements.part(ACME.description, 2);
    await second.account.fill(utilities);
    await second.account.press('Enter');
    await second.amount.fill(shown(part2));
    await expect(app.statements.unmatched(ACME.description).getByTestId('split-rest')).toHaveText(
      t('split.exact', { amount: shown(ACME.out), currency: 'GBP' }),
    );
    await expect(second.converted('USD')).toHaveValue(shown(convert(part2, RATE)));
    await expectEveryControlNamed(page);
    await shot('split');
    await app.statements.createEntry(ACME.description);

    // the money to savings and into savings: one transfer
    await app.statements.bookTransfer(TRANSFER.name, savings);
    await expect(app.statements.unmatched(TRANSFER.name)).toBeHidden();
    await expect(app.statements.unmatched(savingsFile!.lines[0]!.name)).toBeHidden();

    // the first reconciliation: what checking held before the file's lines, then every line ticked
    const linesSum = checkingFile!.lines.reduce((s, l) => s + l.amount, 0n);
    await app.finishFirstReconciliation({
      account: checking,
      label: `${checking} (USD)`,
      currency: 'USD',
      statement: { date: checkingFile!.asOf, balance: shown(checkingFile!.balance).replace(/,/g, '') },
      opening: {
        date: `${MONTH}-01`,
        memo: language === 'en' ? 'Opening balance' : '期初余额',
        amount: shown(checkingFile!.balance - linesSum).replace(/,/g, ''),
        equity: t('starter.opening'),
      },
    });
    // the bank's three lines and the opening balance
    await expect(app.statements.reconcile.getByTestId('reconciled')).toHaveText(
      t('reconcile.done', {
        count: checkingFile!.lines.length + 1,
        balance: shown(checkingFile!.balance).replace(/,/g, ''),
        date: checkingFile!.asOf,
      }),
    );
    await expectEveryControlNamed(page);
    await shot('reconcile');

    // the register of checking: its newest balance is the bank's
    await app.goTo('accounts');
    const register = await app.accounts.openRegister(checking);
    await expect(register.getByRole('row').nth(1)).toContainText(shown(checkingFile!.balance));
    await shot('register');

    // an entry typed with a wrong amount, corrected: the wrong one void, the right one linked
    await app.goTo('journal');
    await app.journal.typeEntry({
      date: `${MONTH}-25`,
      memo: 'May rent',
      lines: [
        { account: t('starter.rent'), debit: shown(RENT_TYPED).replace(/,/g, '') },
        { account: card, credit: shown(RENT_TYPED).replace(/,/g, '') },
      ],
    });
    await app.journal.correctAmount('May rent', shown(RENT_CORRECTED).replace(/,/g, ''));
    await shot('corrected');

    // the balance sheet: each total the sum of its rows, assets = liabilities + equity
    await app.goTo('reports');
    const tables = await app.reports.show('balance-sheet');
    assertBalanceSheetAddsUp(tables, { totalLe: t('reports.totalLiabilitiesAndEquity') });
    const checkingRows = tables.flatMap((table) =>
      table.sections.flatMap((section) => section.rows.filter((row) => row.label === checking)),
    );
    expect(checkingRows.map((row) => row.cells[0])).toEqual([shown(checkingFile!.balance)]);
    await shot('balance-sheet');

    // a budget for the month: what groceries took, from the file
    const spent = -SAFEWAY.amount;
    await app.goTo('budget');
    await app.budget.chooseMonth(MONTH);
    await app.budget.add(groceries, shown(GROCERIES_BUDGET));
    await expect(app.budget.meter(groceries)).toHaveAttribute(
      'aria-valuetext',
      app.budget.leftOf(shown(GROCERIES_BUDGET - spent), shown(GROCERIES_BUDGET)),
    );
    await shot('budget');

    // the advisor asked about the month by name: the built-in advisor (no model) answers that month
    ledger.fake.models = [];
    await app.chat.open();
    await app.chat.askAboutMonth(MONTH, groceries, language);
    await expect(app.chat.answers.last()).toContainText(shown(spent));
    const [year, m] = MONTH.split('-') as [string, string];
    const last = new Date(Date.UTC(Number(year), Number(m), 0)).toISOString().slice(0, 10);
    await expect(app.chat.answers.last()).toContainText(
      language === 'en' ? `May ${year} (${MONTH}-01 to ${last})` : `${year}年${Number(m)}月（${MONTH}-01 至 ${last}）`,
    );
    await expect(app.chat.answers.last().locator('mark.unverified')).toHaveCount(0);
    await shot('advisor');
  });
}

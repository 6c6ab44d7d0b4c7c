import { expect, type Locator, type Page } from '@playwright/test';
import { Words } from './words.ts';

/** A description as an accessible name reads it: runs of spaces as one. */
const spoken = (description: string) => description.replace(/\s+/g, ' ');

export class StatementsPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  private t(...args: Parameters<Words['t']>): string {
    return this.words.t(...args);
  }

  get wizard(): Locator {
    return this.page.getByRole('article', { name: this.t('import.title') });
  }

  async chooseFile(account: string, file: string): Promise<void> {
    await this.wizard.getByLabel(this.t('import.account')).selectOption({ label: account });
    await this.wizard.getByLabel(this.t('import.file')).setInputFiles(file);
  }

  async preview(): Promise<void> {
    await this.wizard.getByRole('button', { name: this.t('import.preview'), exact: true }).click();
    await expect(this.wizard.getByTestId('preview-count')).toBeVisible();
  }

  /**
   * Imports a bank file into an account: preview, each further account of the file sent where
   * `into` says (by its number in the file; the rest skipped), then the import of `count` lines.
   */
  async importFile(
    account: string,
    file: string,
    { count, into = {} }: { count: number; into?: Record<string, string> },
  ): Promise<void> {
    const another = this.wizard.getByRole('button', { name: this.t('import.another') });
    if (await another.isVisible()) await another.click();
    await this.chooseFile(account, file);
    await this.preview();
    for (const [ref, target] of Object.entries(into))
      await this.wizard.getByLabel(this.t('import.importIntoLabel', { ref })).selectOption({ label: target });
    await expect(this.wizard.getByTestId('preview-count')).toHaveText(String(count));
    await this.wizard.getByRole('button', { name: this.t('import.import', { count }) }).click();
    await expect(another).toBeVisible();
  }

  async tab(name: 'Review queue' | 'Unmatched' | 'Rules' | 'Statistics'): Promise<Locator> {
    await this.page.getByRole('tab', { name }).click();
    return this.page.getByRole('tabpanel');
  }

  /** The Unmatched list, in the interface's language. */
  async openUnmatched(): Promise<Locator> {
    await this.page.getByRole('tab', { name: this.t('unmatched.title') }).click();
    return this.page.getByRole('tabpanel');
  }

  matchCard(description: string): Locator {
    return this.page.locator(`article.match-card[data-match="${description}"]`);
  }

  get importedStatements(): Locator {
    return this.page.getByRole('article', { name: this.t('statements.title') });
  }

  get reconcile(): Locator {
    return this.page.getByRole('article', { name: this.t('reconcile.title') });
  }

  unmatched(description: string): Locator {
    return this.page
      .locator('article.unmatched-item')
      .filter({ has: this.page.getByRole('heading', { name: spoken(description), exact: true }) });
  }

  /** Chooses the account of an unmatched line by typing its name, as the picker invites. */
  async chooseAccount(description: string, account: string): Promise<void> {
    const box = this.unmatched(description).getByRole('combobox', {
      name: this.t('unmatched.counterAccount', { name: spoken(description) }),
      exact: true,
    });
    await box.fill(account);
    await box.press('Enter');
    await expect(box).toHaveValue(account);
  }

  /** "Make a rule" on a line: the form prefilled from it, the account chosen, saved. */
  async makeRule(description: string, account: string): Promise<void> {
    const line = this.unmatched(description);
    await line.getByRole('button', { name: this.t('unmatched.makeRuleLabel', { name: spoken(description) }) }).click();
    const form = line.getByRole('form', { name: this.t('rules.new') });
    const box = form.getByRole('combobox', { name: this.t('rules.account') });
    await box.fill(account);
    await box.press('Enter');
    await form.getByRole('button', { name: this.t('rules.save') }).click();
    await expect(form).toBeHidden();
  }

  select(description: string): Locator {
    return this.unmatched(description).getByRole('checkbox', {
      name: this.t('unmatched.select', { name: spoken(description) }),
    });
  }

  /** Books the ticked lines of the Unmatched list at once. */
  async bookSelected(count: number): Promise<void> {
    await this.page.getByRole('button', { name: this.t('unmatched.bookSelected', { count }) }).click();
    await expect(this.page.getByTestId('booked-count')).toHaveText(this.t('unmatched.bookedCount', { count }));
  }

  /** Saves the rate a line in another currency asks for (none in the table on or before its date). */
  async saveMissingRate(description: string, from: string, to: string, rate: string): Promise<void> {
    const line = this.unmatched(description);
    await line.getByLabel(this.t('exchange.rateLabel', { from, to })).fill(rate);
    await line.getByRole('button', { name: this.t('exchange.saveRate') }).click();
  }

  /** Opens the split of a line whose account is chosen; part 1 is that account. */
  async openSplit(description: string): Promise<void> {
    await this.unmatched(description)
      .getByRole('button', { name: this.t('split.openLabel', { name: spoken(description) }) })
      .click();
  }

  part(
    description: string,
    n: number,
  ): { account: Locator; amount: Locator; converted: (currency: string) => Locator } {
    const line = this.unmatched(description);
    return {
      account: line.getByRole('combobox', { name: this.t('split.accountOf', { n }), exact: true }),
      amount: line.getByRole('textbox', { name: this.t('split.amountOf', { n }), exact: true }),
      converted: (currency) => line.getByRole('textbox', { name: this.t('split.convertedOf', { n, currency }) }),
    };
  }

  /** "Create entry" on a line; the line leaves the list. */
  async createEntry(description: string): Promise<void> {
    const line = this.unmatched(description);
    await line.getByRole('button', { name: this.t('unmatched.createLabel', { name: spoken(description) }) }).click();
    await expect(line).toBeHidden();
  }

  /** Books a line as the transfer the list offers with another of the person's accounts. */
  async bookTransfer(description: string, account: string): Promise<void> {
    await this.unmatched(description)
      .getByRole('button', { name: this.t('transfer.bookLabel', { name: spoken(description), account }) })
      .click();
    await expect(this.page.getByTestId('booked')).toContainText(this.t('transfer.booked', { account }));
  }
}

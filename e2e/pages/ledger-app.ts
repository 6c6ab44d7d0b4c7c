import { expect, type Locator, type Page } from '@playwright/test';
import { AccountsPage } from './accounts-page.ts';
import { ChatPanel } from './chat-panel.ts';
import { JournalPage } from './journal-page.ts';
import { SettingsPage } from './settings-page.ts';
import { SignInPage } from './sign-in-page.ts';
import { HistoryPage } from './history-page.ts';
import { SyncPanel } from './sync-panel.ts';
import { StatementsPage } from './statements-page.ts';
import { BudgetPage } from './budget-page.ts';
import { ReportsPage } from './reports-page.ts';
import { Words } from './words.ts';

/** The whole app as a person sees it: the sign-in screen, the navigation, the screens. */
export class LedgerApp {
  readonly page: Page;
  readonly signIn: SignInPage;
  readonly accounts: AccountsPage;
  readonly journal: JournalPage;
  readonly statements: StatementsPage;
  readonly settings: SettingsPage;
  readonly chat: ChatPanel;
  readonly reports: ReportsPage;
  readonly budget: BudgetPage;
  readonly sync: SyncPanel;
  readonly history: HistoryPage;
  /** The words of the interface's language, which the page objects find controls by. */
  readonly words = new Words();

  /** `password`: the one people sign up and sign in with unless a test names another. */
  constructor(page: Page, { password }: { password: string }) {
    this.page = page;
    this.signIn = new SignInPage(page, password);
    this.accounts = new AccountsPage(page, this.words);
    this.journal = new JournalPage(page, this.words);
    this.statements = new StatementsPage(page, this.words);
    this.settings = new SettingsPage(page);
    this.chat = new ChatPanel(page);
    this.reports = new ReportsPage(page, this.words);
    this.budget = new BudgetPage(page, this.words);
    this.sync = new SyncPanel(page, this.words);
    this.history = new HistoryPage(page, this.words);
  }

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  async open(): Promise<void> {
    await this.page.goto('/');
  }

  /** Opens the app and signs in as a seeded user, with the password people sign in with. */
  async openSignedIn(user: { email: string }): Promise<void> {
    await this.open();
    await this.signIn.signIn({ email: user.email });
  }

  async go(
    screen: 'Dashboard' | 'Accounts' | 'Journal' | 'Reports' | 'Statements' | 'Budget' | 'History' | 'Settings',
  ): Promise<void> {
    const link = this.nav.getByRole('link', { name: screen });
    await this.reveal(link);
    await link.click();
    await expect(this.page.getByRole('heading', { level: 1, name: screen })).toBeVisible();
  }

  /** Opens a screen from the navigation, through the menu button where the window is too narrow for the whole of it. */
  async openFromNav(path: string): Promise<void> {
    const link = this.page.locator(`#main-nav a[href="${path}"]`);
    await this.reveal(link);
    await link.click();
  }

  /** Waits for the navigation (its link, or the menu button of a narrow window), and opens the menu when the link is behind it. */
  private async reveal(link: Locator): Promise<void> {
    const menu = this.page.locator('.menu-button');
    await expect(link.or(menu).filter({ visible: true }).first()).toBeVisible();
    if (!(await link.isVisible())) await menu.click();
  }

  /** Switches the interface language in Settings, then goes back to the screen it was on. */
  async chooseLanguage(code: 'en' | 'zh'): Promise<void> {
    await this.openFromNav('/settings');
    await this.page.getByRole('combobox', { name: /^(Language|语言)$/ }).selectOption(code);
    await expect(this.page.locator('html')).toHaveAttribute('lang', code === 'zh' ? 'zh-CN' : 'en');
    this.words.language = code;
    await this.page.goBack();
  }

  /** Opens a screen from the navigation, in whatever language it speaks. */
  async goTo(screen: 'accounts' | 'journal' | 'reports' | 'statements' | 'budget' | 'history'): Promise<void> {
    await this.openFromNav(`/${screen}`);
    await expect(this.page.getByRole('heading', { level: 1, name: this.words.t(`nav.${screen}`) })).toBeVisible();
  }

  /**
   * The first reconciliation of an account to its bank's balance: every line ticked in Reconcile
   * account (its statement date and balance come from the import), the difference left booked with
   * "Set the opening balance" against an equity account after checking the entry's preview, then
   * finished at a zero difference.
   */
  async finishFirstReconciliation(r: {
    account: string;
    /** As the account lists show it: "Checking (USD)". */
    label: string;
    currency: string;
    statement: { date: string; balance: string };
    opening: { date: string; memo: string; amount: string; equity: string };
  }): Promise<void> {
    const t = (...args: Parameters<Words['t']>) => this.words.t(...args);
    await this.goTo('statements');
    const reconcile = this.statements.reconcile;
    await reconcile.getByLabel(t('reconcile.account')).selectOption({ label: r.label });
    await expect(reconcile.getByRole('textbox', { name: t('reconcile.date') })).toHaveValue(r.statement.date);
    await expect(reconcile.getByLabel(t('reconcile.balance'))).toHaveValue(r.statement.balance);
    const ticks = reconcile.getByRole('checkbox');
    await expect(ticks.first()).toBeVisible();
    for (const tick of await ticks.all()) if (!(await tick.isChecked())) await tick.check();
    // every line ticked, the difference is what the account held before them: its opening balance
    const amount = new RegExp(r.opening.amount.replace(/\B(?=(\d{3})+\.)/g, ',?').replace('.', '\\.'));
    await expect(reconcile.getByTestId('reconcile-difference')).toHaveText(amount);
    await reconcile.getByRole('button', { name: t('reconcile.setOpening') }).click();
    const preview = reconcile.getByRole('region', { name: t('reconcile.openingPreview') });
    await preview.getByRole('textbox', { name: t('reconcile.entryDate') }).fill(r.opening.date);
    await preview
      .getByLabel(t('reconcile.equityAccount'))
      .selectOption({ label: `${r.opening.equity} (${r.currency})` });
    const lines = preview.getByRole('table', { name: t('reconcile.previewLines') });
    await expect(lines.getByRole('row')).toHaveCount(3);
    await expect(lines.getByRole('row').nth(1)).toContainText(r.account);
    await expect(lines.getByRole('row').nth(2)).toContainText(r.opening.equity);
    await expect(lines).toContainText(amount);
    await preview.getByRole('button', { name: t('reconcile.bookIt') }).click();
    await expect(reconcile.getByTestId('difference-booked')).toContainText(r.opening.memo);
    await expect(reconcile.getByTestId('reconcile-difference')).toHaveText(`0.00 ${r.currency}`);
    await reconcile.getByRole('button', { name: t('reconcile.finish') }).click();
    await expect(reconcile.getByTestId('reconciled')).toContainText(r.statement.balance);
    await expect(reconcile.getByText(t('reconcile.noLines'))).toBeVisible();
  }

  async signOut(): Promise<void> {
    await this.page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await expect(this.signIn.submit).toBeVisible();
  }
}

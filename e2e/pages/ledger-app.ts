import { expect, type Locator, type Page } from '@playwright/test';
import { AccountsPage } from './accounts-page.ts';
import { ChatPanel } from './chat-panel.ts';
import { JournalPage } from './journal-page.ts';
import { SettingsPage } from './settings-page.ts';
import { SignInPage } from './sign-in-page.ts';
import { StatementsPage } from './statements-page.ts';

/** The whole app as a person sees it: the sign-in screen, the navigation, the screens. */
export class LedgerApp {
  readonly page: Page;
  readonly signIn: SignInPage;
  readonly accounts: AccountsPage;
  readonly journal: JournalPage;
  readonly statements: StatementsPage;
  readonly settings: SettingsPage;
  readonly chat: ChatPanel;

  /** `password`: the one people sign up and sign in with unless a test names another. */
  constructor(page: Page, { password }: { password: string }) {
    this.page = page;
    this.signIn = new SignInPage(page, password);
    this.accounts = new AccountsPage(page);
    this.journal = new JournalPage(page);
    this.statements = new StatementsPage(page);
    this.settings = new SettingsPage(page);
    this.chat = new ChatPanel(page);
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
    screen: 'Dashboard' | 'Accounts' | 'Journal' | 'Reports' | 'Statements' | 'Budget' | 'Settings',
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
    await this.page.goBack();
  }

  async signOut(): Promise<void> {
    await this.page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await expect(this.signIn.submit).toBeVisible();
  }
}

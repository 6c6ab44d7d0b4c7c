import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { Seed } from './support/seed.ts';
import { AttachmentsPanel } from './pages/attachments-panel.ts';
import { expectEveryControlNamed } from './support/accessibility.ts';
import { captureScreen } from './support/screenshots.ts';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/attachments/', import.meta.url));
const file = (name: string) => path.join(FIXTURES, name);

const LANGUAGES = [
  {
    code: 'en',
    nav: ['Main', 'Statements'],
    unmatchedTab: 'Unmatched',
    register: 'Journal entries',
    files: 'Receipts and files',
    attachTo: (name: string) => `Attach files to ${name}`,
    preview: (name: string) => `Preview of ${name}`,
    pdf: 'PDF file',
    clip: (n: number) => `${n} files attached`,
    save: (name: string) => `Save ${name}`,
    deleteLabel: (name: string) => `Delete ${name}`,
    confirm: 'Delete',
    refused: 'Only PDF, JPEG, PNG and HEIC files can be attached',
  },
  {
    code: 'zh',
    nav: ['主导航', '对账单'],
    unmatchedTab: '未匹配',
    register: '日记账分录',
    files: '收据与文件',
    attachTo: (name: string) => `为${name}附加文件`,
    preview: (name: string) => `${name}的预览`,
    pdf: 'PDF 文件',
    clip: (n: number) => `已附加 ${n} 个文件`,
    save: (name: string) => `保存${name}`,
    deleteLabel: (name: string) => `删除${name}`,
    confirm: '删除',
    refused: '只能附加 PDF、JPEG、PNG 和 HEIC 文件',
  },
] as const;

for (const l of LANGUAGES) {
  test.describe(`in ${l.code}`, () => {
    test('when receipts are attached to an entry by the picker and by dropping, then they show with a preview and a paperclip count, download, and delete after a confirmation by keyboard', async ({
      app,
      page,
      ledger,
    }, testInfo) => {
      const seed = await Seed.user(ledger.api);
      const checking = await seed.account('Checking', 'ASSET');
      const food = await seed.account('Food', 'EXPENSE');
      await seed.posted('2026-03-02', 'Corner cafe', food, checking, '12.50');
      await seed.posted('2026-03-03', 'Groceries', food, checking, '40.00');

      await app.openSignedIn(seed);
      if (l.code !== 'en') await app.chooseLanguage(l.code);
      await page.getByRole('navigation', { name: l.nav[0] }).locator('a[href="/journal"]').click();
      const register = page.getByRole('table', { name: l.register });
      await register.getByRole('row').filter({ hasText: 'Corner cafe' }).getByRole('button').first().click();
      const panel = new AttachmentsPanel(app.journal.details);
      await expect(panel.root.getByRole('heading', { name: new RegExp(l.files) })).toBeVisible();

      await panel.pick(l.attachTo('Corner cafe'), file('receipt.png'));
      await expect(panel.item('receipt.png').getByRole('img', { name: l.preview('receipt.png') })).toBeVisible();
      await panel.drop(file('receipt.pdf'), 'application/pdf');
      await panel.expectNames(['receipt.png', 'receipt.pdf']);
      await expect(panel.item('receipt.pdf').getByRole('img', { name: l.pdf })).toBeVisible();
      const cafeRow = register.getByRole('row').filter({ hasText: 'Corner cafe' });
      await expect(cafeRow.getByRole('img', { name: l.clip(2) })).toBeVisible();
      await expect(register.getByRole('row').filter({ hasText: 'Groceries' }).getByTestId('paperclip')).toHaveCount(0);

      // an HTML page named .png is refused, and the list stays as it was
      await panel.pick(l.attachTo('Corner cafe'), file('page.html'));
      await expect(panel.root.getByRole('alert')).toContainText(l.refused);
      await panel.expectNames(['receipt.png', 'receipt.pdf']);

      const download = page.waitForEvent('download');
      await panel.root.getByRole('button', { name: l.save('receipt.png') }).click();
      expect((await download).suggestedFilename()).toBe('receipt.png');

      await expectEveryControlNamed(page);
      await captureScreen(page, testInfo, `attachments-${l.code}`);

      // delete from the keyboard: the confirmation takes the focus
      await panel.root.getByRole('button', { name: l.deleteLabel('receipt.pdf') }).focus();
      await page.keyboard.press('Enter');
      await expect(panel.root.getByRole('button', { name: l.confirm, exact: true })).toBeFocused();
      await page.keyboard.press('Enter');
      await panel.expectNames(['receipt.png']);
      await expect(cafeRow.getByRole('img', { name: l.clip(1) })).toBeVisible();

      // the account's register shows the paperclip too
      if (l.code === 'en') {
        await app.go('Accounts');
        await page.getByRole('link', { name: 'Open the register of Food' }).click();
        const lines = page.getByRole('table', { name: 'Register of Food' }).locator('tbody tr');
        await expect(lines.filter({ hasText: 'Corner cafe' }).getByRole('img', { name: l.clip(1) })).toBeVisible();
        await expect(lines.filter({ hasText: 'Groceries' }).getByTestId('paperclip')).toHaveCount(0);
        // a file attached from the register's entry counts at once
        await lines.filter({ hasText: 'Corner cafe' }).click();
        const inRegister = new AttachmentsPanel(page.locator('article.entry-details'));
        await inRegister.pick(l.attachTo('Corner cafe'), file('receipt.jpg'));
        await inRegister.expectNames(['receipt.png', 'receipt.jpg']);
        await expect(lines.filter({ hasText: 'Corner cafe' }).getByRole('img', { name: l.clip(2) })).toBeVisible();
      }
    });

    test('when a receipt is attached to an unmatched bank line, then it is listed under the line', async ({
      app,
      page,
      ledger,
    }) => {
      const seed = await Seed.user(ledger.api);
      const checking = await seed.account('Checking', 'ASSET');
      await seed.bankLines(checking, [{ date: '2026-03-04', description: 'TAXI RIDE', amount: '9.00', type: 'debit' }]);

      await app.openSignedIn(seed);
      if (l.code !== 'en') await app.chooseLanguage(l.code);
      await page.getByRole('navigation', { name: l.nav[0] }).getByRole('link', { name: l.nav[1] }).click();
      await page.getByRole('tab', { name: l.unmatchedTab }).click();
      const line = app.statements.unmatched('TAXI RIDE');
      await line.locator('summary', { hasText: l.files }).click();
      const panel = new AttachmentsPanel(line);
      await panel.pick(l.attachTo('TAXI RIDE'), file('receipt.jpg'));
      await expect(panel.item('receipt.jpg').getByRole('img', { name: l.preview('receipt.jpg') })).toBeVisible();
    });
  });
}

import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator } from '@playwright/test';

/** The receipts and files of an entry or a bank line (components/attachments-panel.tsx). */
export class AttachmentsPanel {
  readonly root: Locator;
  constructor(root: Locator) {
    this.root = root.getByTestId('attachments');
  }

  /** Attaches a file through the file picker (its input, named "Attach files to …"). */
  async pick(inputLabel: string, file: string): Promise<void> {
    await this.root.getByLabel(inputLabel).setInputFiles(file);
  }

  /** Drops a file on the panel as a person drags it from their file manager. */
  async drop(file: string, type: string): Promise<void> {
    const bytes = [...fs.readFileSync(file)];
    const name = path.basename(file);
    const transfer = await this.root.page().evaluateHandle(
      ({ bytes, name, type }) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], name, { type }));
        return data;
      },
      { bytes, name, type },
    );
    await this.root.dispatchEvent('dragover', { dataTransfer: transfer });
    await this.root.dispatchEvent('drop', { dataTransfer: transfer });
  }

  item(name: string): Locator {
    return this.root.getByRole('listitem').filter({ hasText: name });
  }

  async expectNames(names: string[]): Promise<void> {
    await expect(this.root.locator('.attachment-name')).toHaveText(names);
  }
}

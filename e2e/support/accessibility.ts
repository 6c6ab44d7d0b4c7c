import { expect, type Page } from '@playwright/test';

const CONTROL_ROLES =
  'button|link|textbox|searchbox|combobox|listbox|option|checkbox|radio|spinbutton|slider|switch|tab|menuitem|meter';
/** An aria snapshot line of a control with no accessible name: `- button`, `- textbox [disabled]`, `- combobox:`. */
const UNNAMED = new RegExp(`^\\s*- (${CONTROL_ROLES})(?=\\s*(\\[|:|$))`, 'gm');

/** Every control on the page has an accessible name (a label, aria-label or its own text). */
export async function expectEveryControlNamed(page: Page): Promise<void> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const unnamed = [...snapshot.matchAll(UNNAMED)].map((m) => m[0].trim());
  expect(unnamed, `controls without an accessible name in:\n${snapshot}`).toEqual([]);
}

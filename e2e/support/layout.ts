import { expect, type Page } from '@playwright/test';

/**
 * Controls and table cells whose box reaches outside their scroll container (the nearest ancestor
 * that clips sideways) or outside the window: something a person cannot see without scrolling a
 * box sideways, such as a table's last column. Described as `tag "text" left-right in box left-right`.
 */
export function clippedElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const selector = 'button, a, input, select, textarea, label, th, td, [role="tab"], [role="combobox"]';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) continue; // not drawn, or visually hidden
      let container = element.parentElement;
      while (container && container !== document.body && getComputedStyle(container).overflowX === 'visible')
        container = container.parentElement;
      const bounds =
        container && container !== document.body
          ? container.getBoundingClientRect()
          : { left: 0, right: document.documentElement.clientWidth };
      if (box.left < bounds.left - 1 || box.right > bounds.right + 1) {
        const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        const where = container && container !== document.body ? `.${container.className}` : 'the window';
        out.push(
          `${element.tagName.toLowerCase()} "${text}" ${Math.round(box.left)}-${Math.round(box.right)} in ${where} ${Math.round(bounds.left)}-${Math.round(bounds.right)}`,
        );
      }
    }
    return out;
  });
}

/** Column headers drawn one character per line (银/行/账/户): a line holding a single character of a longer header. */
export function headersBrokenPerCharacter(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const header of document.querySelectorAll<HTMLElement>('thead th')) {
      const text = (header.textContent ?? '').trim();
      if ([...text].length < 2 || header.getBoundingClientRect().width < 2) continue;
      const lines = new Map<number, number>();
      const walker = document.createTreeWalker(header, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.nodeValue ?? '';
        for (let i = 0; i < value.length; i++) {
          if (/\s/.test(value[i]!)) continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getBoundingClientRect();
          if (rect.width === 0) continue;
          const top = Math.round(rect.top);
          lines.set(top, (lines.get(top) ?? 0) + 1);
        }
      }
      if (lines.size > 1 && [...lines.values()].some((count) => count === 1)) out.push(text);
    }
    return out;
  });
}

/** Nothing on the screen is cut off sideways, and no column header breaks one character per line. */
export async function expectNothingClipped(page: Page, where: string): Promise<void> {
  expect(await clippedElements(page), `clipped controls on ${where}`).toEqual([]);
  expect(await headersBrokenPerCharacter(page), `headers one character per line on ${where}`).toEqual([]);
}

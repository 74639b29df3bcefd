/** Layout checks the e2e specs share. */
import type { Page } from '@playwright/test';

/**
 * Elements that stick out past either edge of the screen (a right-to-left page overflows to the left) and are not
 * inside a box that scrolls or clips them (a wide table in its own scroll box is fine); the editor draws its own
 * lines, and the skip link and screen-reader-only text are off screen on purpose. Each as "tag.class left…right".
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (el.closest('.monaco-editor, .monaco-aria-container, .skip-link, .visually-hidden')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || (box.right <= width + 1 && box.left >= -1)) continue;
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') {
          clipped = true;
          break;
        }
      }
      if (!clipped) out.push(`${el.tagName.toLowerCase()}.${String(el.className)} ${Math.round(box.left)}…${Math.round(box.right)}`);
    }
    return out;
  });
}

/**
 * Pages and layout, in a real browser against the production build: a
 * lesson run at phone width (nothing wider than the screen, the verdict
 * before the node cards and never under the sticky Run bar), and the
 * playground opened after a lesson in the same tab (client-side navigation:
 * nothing of the lesson's run, one clock, "Recent events" in sane words).
 * Screenshots go to test-results/screenshots/pages-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { overflowing } from './support/layout';

const LESSON = '/lessons/pauses-and-clocks';
const BREAK_IT = 'Break it: a long pause while holding the lock';
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const verdictRegion = (page: Page) => page.getByRole('region', { name: 'Verdict', exact: true });

async function screenshot(page: Page, name: string, fullPage = false) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage });
}

/** Runs the lesson's "Break it" and waits for its final verdict, which is a violation. */
async function runBreakIt(page: Page) {
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: BREAK_IT });
  await button(page, 'Run').click();
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-final', 'true', { timeout: 45_000 });
  await expect(verdict).toHaveAttribute('data-valid', 'violated');
}

/** Whether the element's top line is what a person sees there (not covered by the sticky toolbar). */
function topIsUncovered(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + Math.min(40, box.width / 2), box.top + 4);
    return box.top >= 0 && hit !== null && el.contains(hit);
  });
}

test('a lesson at phone width: nothing wider than the screen, the verdict before the node cards and clear of the Run bar', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(LESSON);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  // The lesson text is part of the page on a phone, not a box scrolling inside it.
  const text = page.getByRole('article', { name: 'Lesson: Pauses and clocks' });
  expect(await text.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);

  await runBreakIt(page);
  await page.getByText('Timeline as text').click();
  expect(await overflowing(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The verdict comes before the five node cards, and its headline shows when scrolled to.
  const verdictTop = (await verdictRegion(page).boundingBox())?.y ?? Infinity;
  const firstCardTop = (await page.getByRole('region', { name: 'Node 1', exact: true }).boundingBox())?.y ?? -Infinity;
  expect(verdictTop).toBeLessThan(firstCardTop);
  await verdictRegion(page).evaluate((el) => el.scrollIntoView());
  expect(await topIsUncovered(page, 'verdict')).toBe(true);
  await screenshot(page, 'pages-01-phone-verdict');

  // On a laptop the Run bar stays on top while scrolling: scrolled to, the verdict lands below it.
  await page.setViewportSize({ width: 1280, height: 720 });
  await verdictRegion(page).evaluate((el) => el.scrollIntoView());
  expect(await topIsUncovered(page, 'verdict')).toBe(true);
  await screenshot(page, 'pages-02-laptop-verdict');
});

test('the playground opened after a lesson in the same tab shows nothing of the lesson: no verdict, one clock, sane recent events', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(LESSON);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await runBreakIt(page);

  // Time travel: at the run's first moment the cards show the nodes as they were, without fault buttons.
  const scrub = page.getByRole('slider', { name: 'Scrub through the run' });
  await scrub.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('nodes-moment')).toContainText('As they were at');
  await expect(button(page, 'Kill Node 1')).toHaveCount(0);
  await page.getByTestId('nodes-moment').getByRole('button', { name: 'Back to now' }).click();
  await expect(button(page, 'Kill Node 1')).toBeVisible();

  // A check still going when the learner leaves stops with the page: none of its runs show on the next one.
  await button(page, 'Check my solution').click();
  await expect(page.getByTestId('run-progress')).not.toHaveText('Finished · violated');

  // Client-side navigation: the same document, so the same tab's socket layer and storage.
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  await page.getByRole('link', { name: 'Course', exact: true }).click();
  const leftLessonAt = Date.now();
  await page.getByRole('link', { name: 'Open the playground' }).click();
  await expect(page).toHaveURL(/\/playground$/);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);

  // Nothing of the lesson's run: no verdict, no run going on, the playground's own program.
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'none');
  await expect(page.getByTestId('verdict')).toHaveText('Run your program to get a verdict.');
  await expect(page.getByTestId('run-progress')).toHaveText('Ready');
  await expect(page.getByText('VIOLATED')).toHaveCount(0);

  // One clock: a node killed now is told at a time counted from this page, not from the lab's start.
  await button(page, 'Kill Node 2').click();
  const recent = page.getByRole('region', { name: 'Recent events' });
  const line = recent.getByRole('listitem').filter({ hasText: 'Node 2 killed' });
  await expect(line).toBeVisible();
  const shown = (await line.locator('time').textContent()) ?? '';
  const match = /^at (\d+(?:\.\d+)?) (ms|s)$/.exec(shown.trim());
  expect(match, `"${shown}" is a time on this page's clock`).not.toBeNull();
  const shownMs = Number(match![1]) * (match![2] === 's' ? 1_000 : 1);
  expect(shownMs).toBeLessThanOrEqual(Date.now() - leftLessonAt);
  await expect(recent).toContainText('times count from when you opened this page');
  // Each node named once per line ("Nodes 1, 1, 1, 2, …" was the lesson's fresh labs run together).
  for (const text of await recent.getByRole('listitem').allTextContents()) expect(text).not.toMatch(/\b(\d), (?:\d, )*\1\b/);

  // Still nothing of the lesson once the lab has answered a command of this page.
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'none');
  await expect(page.getByTestId('run-progress')).toHaveText('Ready');
  // A fault button that does nothing for a node's state is not a tab stop; the ones that act are.
  await expect(button(page, 'Restart Node 1')).toHaveAttribute('tabindex', '-1');
  await expect(button(page, 'Kill Node 1')).not.toHaveAttribute('tabindex', '-1');
  await screenshot(page, 'pages-03-playground-after-lesson', true);
});

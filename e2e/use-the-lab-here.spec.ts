/**
 * "Use the lab here": three tabs of one browser, which may hold two labs
 * (LOCKLAB_LABS_PER_BROWSER, 2 by default). The third tab shows one message
 * and "Use the lab here"; clicking it moves the lab of the tab idle longest
 * to it — a working lab: a run plays, Node 1 is there — and that tab says,
 * in words, where its lab went, with a way to take one back.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

const node = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true });

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('a third tab uses the lab here; the tab it came from says where it went', async ({ page, context }) => {
  test.setTimeout(240_000);
  // One browser (this context's cookie): a lesson in the first tab, another in the second, the playground in the third.
  await page.goto('/lessons/naive-lock');
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  const second = await context.newPage();
  await second.goto('/lessons/safe-release');
  await expect(second.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  // The second tab is in use (a command a moment ago); the first is the one idle longest.
  await button(second, 'Kill Node 1').click();
  await expect(node(second, 1).getByTestId('node-state')).toHaveText('down');

  const third = await context.newPage();
  await third.goto('/playground');
  const message = third.getByTestId('lab-elsewhere');
  await expect(message).toHaveText(
    "This browser's labs are all open in other tabs. Use one here (it moves from the tab that used it least recently), or close a Lock Lab tab and try again.",
    { timeout: 30_000 },
  );
  await expect(third.getByRole('alert').filter({ hasText: 'A lab is freed' })).toHaveCount(0);
  await screenshot(third, 'use-here-01-third-tab-one-message');

  await button(third, 'Use the lab here').click();
  await expect(third.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  // The lab is the playground's now: five nodes, all up.
  for (let n = 1; n <= 5; n++) await expect(node(third, n).getByTestId('node-state')).toHaveText('up');
  await button(third, 'Run').click();
  await expect(third.getByTestId('run-progress')).toContainText(/Running|Finished/, { timeout: 30_000 });
  await expect(node(third, 1)).toContainText('Node 1');
  await screenshot(third, 'use-here-02-third-tab-running');

  // The first tab is told where its lab went, in words, and can take one back the same way.
  const title = await third.title();
  await expect(page.getByTestId('lab-elsewhere')).toHaveText(
    `This lab moved to another tab (${title}). To carry on here, use a lab here: it moves from the tab of this browser that used it least recently.`,
  );
  await expect(button(page, 'Use the lab here')).toBeVisible();
  // Its nodes are the other tab's now: none shown here to kill.
  await expect(node(page, 1)).toHaveCount(0);
  await screenshot(page, 'use-here-03-first-tab-moved');
  // The second tab kept its lab.
  await expect(second.getByText('Lab running')).toBeVisible();
  await expect(node(second, 1).getByTestId('node-state')).toHaveText('down');
});

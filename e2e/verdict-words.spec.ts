/**
 * The verdict's headline in a real browser: a break's headline names the property that failed and the
 * root cause a learner can check against the timeline, not a generic "safety was violated". Lesson 1's
 * holder crash is a liveness failure caused by a lock without TTL; lesson 5's split-brain runs the
 * starter's quorum of ⌊5/2⌋ = 2 on a network split: safety fails, and the root cause is the quorum that
 * is not a majority. Screenshots under test-results/screenshots/verdict-words-*.png.
 */
import { expect, test, type Page } from '@playwright/test';

/** Opens a lesson, runs one of its scenarios and waits for the final verdict. */
async function runScenario(page: Page, slug: string, title: string) {
  await page.goto(`/lessons/${slug}`);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: title });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-final', 'true', { timeout: 40_000 });
}

test('a holder crash with a lock without TTL: the headline says liveness failed, with the no-TTL root cause', async ({ page }) => {
  test.setTimeout(60_000);
  await runScenario(page, 'naive-lock', 'Break it: the holder crashes');
  // The scenario runs the program it was written for (SET NX without TTL), shown in the editor.
  await expect(page.getByTestId('editor-shows')).toContainText('programs/nx-without-ttl.ts');
  await expect(page.getByTestId('verdict-about')).toContainText('Ran programs/nx-without-ttl.ts');
  const verdict = page.getByTestId('verdict');
  await expect(page.getByTestId('verdict-headline')).toHaveText(/Liveness failed/);
  const cause = page.getByTestId('root-cause');
  await expect(cause).toHaveAttribute('data-kind', 'lock-without-ttl-never-frees');
  await expect(cause).toContainText('whose key has no TTL: it never frees');
  await expect(verdict).not.toContainText(/Safety (was violated|failed)/);
  await verdict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/verdict-words-holder-crash.png' });
});

test('a split brain: the headline says safety failed, with the quorum that is not a majority as its root cause', async ({ page }) => {
  test.setTimeout(60_000);
  await runScenario(page, 'redlock', 'Break it: two data centres, a quorum of two');
  const verdict = page.getByTestId('verdict');

  await expect(page.getByTestId('verdict-headline')).toHaveText(/Safety failed: two clients were in the critical section at once/);
  const cause = page.getByTestId('root-cause');
  await expect(cause).toHaveAttribute('data-kind', 'quorum-not-majority');
  await expect(cause).toContainText('Root cause: Client 1 counted');
  await expect(cause).toContainText('2 is not a majority of 5');
  await expect(cause.getByRole('button', { name: 'Show the root cause on the timeline' })).toBeVisible();
  await expect(verdict).not.toContainText('Safety was violated');
  await verdict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/verdict-words-split-brain.png' });
});

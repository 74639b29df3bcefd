/**
 * Lesson 8's experiment, as a learner sees it: "Run the experiment" plays the
 * Arabic production write-up's measurement in the lab, and its table fills in
 * row by row — each variant's percentiles and duplicates, the write-up's
 * column beside them — and still reads at phone width.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

test.beforeEach(async ({ page }) => startAsNewLearner(page));

const rowOf = (table: Locator, page: Page, heading: RegExp) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: heading }) });
const MS = /^\d+(\.\d+)? ms$/;

/** The figures a person reads in a row: P50, P95, P99, duplicates, the write-up's column. */
async function cells(row: Locator): Promise<string[]> {
  return (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
}

test('lesson 8: the experiment fills the write-up\'s table, row by row', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/lessons/choosing-a-lock');
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  const panel = page.getByRole('region', { name: 'Experiment: the write-up\'s table' });
  // Said plainly: the days are compressed, and by how much.
  await expect(panel).toContainText('The days are compressed: a day lasts 50 ms here, 1,728,000 times faster than a real one');
  const table = panel.getByRole('table', { name: /this lab, next to the Arabic production write-up/ });
  const noLock = rowOf(table, page, /^No lock/);
  const single = rowOf(table, page, /^Single node/);
  const redlock = rowOf(table, page, /^Redlock, 5 nodes a majority/);
  const loopback = rowOf(table, page, /^Redlock, 5 nodes, links not delayed/);
  // The write-up's column is there before anything runs.
  await expect(redlock.getByRole('cell').last()).toHaveText('P50 3.2 ms · P95 8.7 ms · P99 14.1 ms; 0 duplicates in 47 days');
  await expect(noLock.getByRole('cell').last()).toHaveText('4 duplicates a day (before the lock)');

  await button(page, 'Run the experiment').click();
  const progress = panel.getByTestId('experiment-progress');
  // It says which variant plays, out of four (the first, without a lock, may already be over when this looks).
  await expect(progress).toContainText(/Playing .+ \([1-4] of 4\)/);
  // The table fills in as each run ends: the first row has its figures while the last variant is still to come
  // (three more runs of a few seconds each; a state read once, not a moment waited for).
  await expect(noLock).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(await loopback.getAttribute('data-state')).not.toBe('done');

  await expect(panel.getByText(/^Done in [\d.]+ s \(random seed \d+\)\.$/)).toBeVisible({ timeout: 90_000 });
  // Without a lock all five workers send the invoices every morning: four duplicates a day, the write-up's figure.
  const [p50, p95, p99, duplicates] = await cells(noLock);
  expect([p50, p95, p99]).toEqual(['—', '—', '—']);
  expect(duplicates).toMatch(/^4\.00 a day\n188 in 47 days/);
  // Each lock's row has its percentiles, in order, and its duplicates per simulated day.
  for (const row of [single, redlock, loopback]) {
    const figures = await cells(row);
    expect(figures.slice(0, 3)).toEqual([expect.stringMatching(MS), expect.stringMatching(MS), expect.stringMatching(MS)]);
    const [a, b, c] = figures.slice(0, 3).map((f) => Number.parseFloat(f));
    expect(a).toBeLessThanOrEqual(b!);
    expect(b).toBeLessThanOrEqual(c!);
    expect(figures[3]).toMatch(/^(0 in 47 days|\d+\.\d\d a day)/);
  }
  // Why the numbers differ is said next to them.
  await expect(panel.getByText('Loopback, not a data centre.')).toBeVisible();
  await expect(panel.getByText('A compressed day.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/experiment-desktop.png', fullPage: true });
  await panel.screenshot({ path: 'test-results/screenshots/experiment-desktop-panel.png' });

  // At phone width each row reads as a card of labelled figures, and nothing runs off the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await redlock.scrollIntoViewIfNeeded();
  await expect(redlock.getByRole('rowheader')).toBeVisible();
  await expect(redlock.getByRole('cell').last()).toBeVisible();
  expect(await redlock.getByRole('cell').last().evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"The write-up"');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await panel.screenshot({ path: 'test-results/screenshots/experiment-390.png' });
});

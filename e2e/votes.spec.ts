/**
 * Who voted for whom: lesson 5's "a node restarts empty" run, seen node by
 * node. Client 1 holds Nodes 1–3; Node 3 restarts without its data; Client 2
 * collects Nodes 3–5. The vote view shows the two majorities and the node
 * that voted for both, follows the time-travel cursor, and shows the same for
 * the run exported and opened again.
 */
import { expect, test } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

test.beforeEach(async ({ page }) => startAsNewLearner(page));

const SPLIT = 'Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it restarted empty and forgot its vote for Client 1).';

test('the split-brain run shows its two majorities and the node that voted for both, and follows the cursor', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/lessons/redlock');
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });

  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'Break it: a node restarts empty' });
  await button(page, 'Run').click();
  await expect(page.getByTestId('run-progress')).toContainText('Finished', { timeout: 40_000 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'violated');

  // The timeline area offers the votes of this Redlock run.
  const views = page.getByRole('group', { name: 'Timeline view' });
  await views.getByRole('button', { name: 'Votes per node' }).click();
  await expect(views.getByRole('button', { name: 'Votes per node' })).toHaveAttribute('aria-pressed', 'true');
  const view = page.getByTestId('votes-view');
  await expect(view.getByRole('heading', { name: 'Who voted for whom' })).toBeVisible();
  await expect(view.getByTestId('two-holders')).toContainText(SPLIT);
  await expect(view.getByTestId('double-vote')).toContainText('Node 3 voted twice: for Client 1');
  await expect(view.getByRole('img', { name: /Votes per node, 5 nodes/ })).toBeVisible();
  // The table: both holders, Node 3 marked in each row.
  const table = view.getByRole('table', { name: 'Who held the lock, with whose votes' });
  for (const client of [1, 2]) {
    const row = table.getByRole('row', { name: new RegExp(`^Client ${client}\\b`) }).first();
    await expect(row).toContainText('OK (voted for both)');
    await expect(row).toContainText('3 of 5, a majority');
  }
  await view.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/votes-split-brain.png', fullPage: false });

  // The moment Client 1 got its majority: one holder, Nodes 1–3, no shared node yet (the list follows the cursor too).
  await view.getByText('Every vote as text').click();
  await view.getByRole('button', { name: /^Show the moment Client 1, attempt \d+ acquired$/ }).first().click();
  await expect(view.getByTestId('votes-now')).toContainText('Client 1 holds Nodes 1, 2, 3 (3 of 5, a majority)');
  await expect(view.getByTestId('votes-now')).not.toContainText('Client 2');
  await expect(view.getByTestId('two-holders')).toHaveCount(0);
  await view.getByTestId('votes-now').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/votes-cursor-client-1.png', fullPage: false });

  // The cursor at the run's start: nobody has voted yet.
  await page.getByRole('slider', { name: 'Scrub through the run' }).press('Home');
  await expect(view.getByTestId('votes-now')).toHaveText(/nobody holds the lock/);
  await expect(view.getByTestId('two-holders')).toHaveCount(0);
  await expect(view.getByTestId('votes-findings')).toContainText('no two clients held the lock at once');

  // Back to the whole run, exported and opened again: the same two majorities.
  await button(page, 'Show all').click();
  await expect(view.getByTestId('two-holders')).toContainText(SPLIT);
  const download = page.waitForEvent('download');
  await button(page, 'Export run').click();
  const file = await (await download).path();
  await page.getByLabel('Run file').setInputFiles(file);
  await expect(page.getByText(/Showing a saved run/)).toBeVisible();
  await expect(page.getByTestId('votes-view').getByTestId('two-holders')).toContainText(SPLIT);

  // At phone width it still reads: the grid fits its box and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('votes-view').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('votes-grid')).toHaveAttribute('width', /^(2[4-9]\d|3\d\d)$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/votes-phone.png', fullPage: false });
});

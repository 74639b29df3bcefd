/**
 * Each scenario runs the program it was written for, and the learner's own
 * code is never overwritten: picking a scenario, "Show solution" and a saved
 * run's program are shown read-only in its place, with "Back to my code".
 * The verdict says whose program ran, in which scenario.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

const editorText = (page: Page) => page.locator('.monaco-editor .view-lines');

test.beforeEach(async ({ page }) => startAsNewLearner(page));

async function openNaiveLock(page: Page) {
  await page.goto('/lessons/naive-lock');
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

test('a "Fix it" scenario with the starter still in the editor runs the reference solution, and says so', async ({ page }) => {
  test.setTimeout(90_000);
  await openNaiveLock(page);
  await expect(page.getByTestId('editor-shows')).toHaveCount(0);

  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'Fix it: one atomic SET … NX PX' });
  const shows = page.getByTestId('editor-shows');
  await expect(shows).toContainText('the reference solution');
  await expect(shows).toContainText('read-only');
  await expect(editorText(page)).toContainText('the naive lock, fixed');

  await button(page, 'Run').click();
  await expect(page.getByTestId('run-progress')).toContainText('Finished', { timeout: 40_000 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'held');
  await expect(page.getByTestId('verdict-about')).toHaveText('Ran the reference solution in “Fix it: one atomic SET … NX PX”');
  await page.screenshot({ path: 'test-results/screenshots/scenario-program-fix-it.png' });

  // Back to my code: the starter, editable, and the scenario's note says what Run would do now.
  await button(page, 'Back to my code').click();
  await expect(shows).toHaveCount(0);
  await expect(editorText(page)).toContainText('EXERCISE: complete acquire()');
  await expect(page.getByTestId('my-code-in-scenario')).toContainText('written for the reference solution; Run runs your code in it instead');
  await button(page, "Show the scenario's program").click();
  await expect(shows).toContainText('the reference solution');
});

test('a break shows its own program; "Show solution" never overwrites the learner’s code', async ({ page }) => {
  test.setTimeout(90_000);
  await openNaiveLock(page);

  // The learner's own edit: a line of their own at the top.
  await page.locator('.monaco-editor .view-line').first().click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.insertText('// my own attempt\n');
  await expect(editorText(page)).toContainText('// my own attempt');

  // A break written for another program shows that program, read-only.
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'Break it: the holder crashes' });
  await expect(page.getByTestId('editor-shows')).toContainText('programs/nx-without-ttl.ts');
  await expect(editorText(page)).toContainText('halfway there');
  await page.keyboard.type('typing here changes nothing');
  await expect(editorText(page)).not.toContainText('typing here changes nothing');
  await button(page, 'Back to my code').click();
  await expect(editorText(page)).toContainText('// my own attempt');

  // Run my code once with no scenario (a try, which offers "Show solution").
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'None: just run' });
  await expect(page.getByTestId('editor-shows')).toHaveCount(0);
  await button(page, 'Run').click();
  await expect(page.getByTestId('verdict-about')).toHaveText('Ran your code, no scenario', { timeout: 30_000 });
  await expect(page.getByTestId('run-progress')).toContainText('Finished', { timeout: 40_000 });

  await button(page, 'Show solution').click();
  await expect(page.getByTestId('editor-shows')).toContainText('the reference solution');
  await expect(editorText(page)).toContainText('the naive lock, fixed');
  await page.screenshot({ path: 'test-results/screenshots/scenario-program-show-solution.png' });
  await button(page, 'Back to my code').click();
  await expect(editorText(page)).toContainText('// my own attempt');

  // Kept in this browser too.
  await page.reload();
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(editorText(page)).toContainText('// my own attempt');
});

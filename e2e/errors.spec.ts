/**
 * A program that fails says so where the learner looks: a syntax error is a program that did not run (no
 * "unknown" verdict, no run to export, no negative time on the axis), an endless loop is marked at its line.
 * Screenshots go to test-results/screenshots/ for a person to look at.
 */
import { expect, test } from '@playwright/test';
import { button, openPlayground, setCode, startAsNewLearner } from './support/learner';

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('a syntax error: the program did not run, nothing to export, the axis starts at 0', async ({ page }) => {
  await openPlayground(page);
  await setCode(page, "import lab from 'lab';\n\nconst answer = ;\nlab.log(answer);\n");
  await button(page, 'Run').click();
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('Your program did not run', { timeout: 30_000 });
  await expect(verdict).toContainText('syntax error');
  await expect(verdict).toContainText('(line 3)');
  await expect(verdict).not.toContainText(/unknown|not proven|either way/i);
  await expect(page.getByTestId('diagnostics')).toContainText('at line 3');
  await expect(button(page, 'Export run')).toBeDisabled();
  // The timeline counts from the run's start: no negative time anywhere on it.
  const timeline = page.getByRole('img', { name: /^Timeline of/ });
  await expect(timeline).toHaveAttribute('aria-label', /from 0 ms to /);
  await expect(timeline).not.toHaveAttribute('aria-label', /-\d/);
  await expect(page.getByTestId('time-readout')).not.toContainText(/-\d/);
  await page.screenshot({ path: 'test-results/screenshots/errors-01-syntax-error.png', fullPage: true });
});

test('an endless loop is marked at its line, not at line 1', async ({ page }) => {
  await openPlayground(page);
  await setCode(page, "import lab from 'lab';\nlet spins = lab.client;\nwhile (true) {\n  spins++;\n}\n");
  await button(page, 'Run').click();
  const problems = page.getByTestId('diagnostics');
  await expect(problems).toContainText('without yielding', { timeout: 30_000 });
  await expect(problems).toContainText('at line 3');
  await expect(problems).not.toContainText('at line 1,');
  // The editor's marker sits on line 3.
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  await expect(squiggle).toBeVisible();
  const line3 = page.locator('.monaco-editor .view-line').nth(2);
  const [s, l] = await Promise.all([squiggle.boundingBox(), line3.boundingBox()]);
  expect(Math.abs((s?.y ?? 0) - (l?.y ?? -100))).toBeLessThan(20);
  await page.screenshot({ path: 'test-results/screenshots/errors-02-endless-loop.png', fullPage: true });
});

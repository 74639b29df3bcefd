/**
 * What the e2e specs share: a page as a new learner sees it (no saved code or
 * progress, kept across the test's own navigations), buttons by their
 * accessible names, and the playground with its editor ready.
 */
import { expect, type Page } from '@playwright/test';

/** Call in `test.beforeEach`: each test starts as a new learner. */
export async function startAsNewLearner(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e-started')) {
      localStorage.clear();
      sessionStorage.setItem('e2e-started', '1');
    }
  });
}

export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

export async function openPlayground(page: Page): Promise<void> {
  await page.goto('/playground');
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

/** Replaces the editor's text as a learner would (select all, then type it in one go, without auto-closing brackets). */
export async function setCode(page: Page, code: string): Promise<void> {
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(code.split('\n')[0] ?? '');
}

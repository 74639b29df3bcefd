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

/** Checks a learner makes in a row while the answer is "too busy to tell", as the page invites them to. */
const CHECKS_WHILE_BUSY = 3;

/**
 * "Check my solution" until the grader decides, as a learner would: "too busy to tell" is the grader declining
 * to judge while the machine holds the lab up (server/grading/disturbance.ts), neither a pass nor a failure, and
 * the page says to try again. Answers the decided result's `data-passed` ('true' or 'false'); three undecided
 * checks in a row fail the test. `checkName` is the button's name in the page's language.
 */
export async function checkUntilDecided(page: Page, checkName: string, timeoutMs = 120_000): Promise<string> {
  const result = page.getByTestId('exercise-result');
  for (let n = 1; ; n++) {
    await button(page, checkName).click();
    // The last answer goes as the check starts (a check takes seconds): what is read next is this check's.
    await expect(result).toHaveCount(0);
    await expect(result).toHaveAttribute('data-passed', /true|false|busy/, { timeout: timeoutMs });
    const passed = (await result.getAttribute('data-passed')) ?? '';
    if (passed !== 'busy') return passed;
    if (n >= CHECKS_WHILE_BUSY) throw new Error(`the machine was too busy to decide, ${n} checks in a row: ${(await result.textContent()) ?? ''}`);
  }
}

/**
 * Clicks Run and waits for the run's final verdict; answers its `data-valid`. A break that did not show in a run
 * the page marked busy (components/verdict/busy-run-note.tsx: "Run it again to see") is run again, as the page asks
 * the learner to, up to CHECKS_WHILE_BUSY runs: a timing-dependent break may slip on a starved machine, and the page
 * says so. A held verdict with no busy note is answered as it is.
 */
export async function runUntilUndisturbed(page: Page, expected: 'violated' | 'held'): Promise<string> {
  const verdict = page.getByTestId('verdict');
  for (let n = 1; ; n++) {
    const progress = page.getByTestId('run-progress');
    const before = await progress.getAttribute('data-run-id');
    await button(page, 'Run').click();
    // This run's verdict, not the last one's: another run id, ended. (Waiting to see the phase leave "ended" missed
    // a run that started and ended while a busy machine's click was still returning.)
    await expect(progress).not.toHaveAttribute('data-run-id', before ?? '', { timeout: 40_000 });
    await expect(progress).toHaveAttribute('data-phase', 'ended', { timeout: 40_000 });
    await expect(progress).toContainText('Finished');
    await expect(verdict).toHaveAttribute('data-final', 'true');
    const valid = (await verdict.getAttribute('data-valid')) ?? '';
    const busy = (await page.getByTestId('verdict-busy').count()) > 0;
    if (valid === expected || !busy || n >= CHECKS_WHILE_BUSY) return valid;
  }
}

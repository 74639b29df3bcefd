/**
 * The grader's and the run's own sentences in the page's language (issue 18): in Arabic, a wrong answer's
 * failure (with the command trace when a probe names the call) and a run's note in its console (a run ended
 * early) read in Arabic, with the commands still as Redis spells them. Screenshots: test-results/screenshots/words-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { composeWrongAnswer } from '../lib/lessons/wrong-answers';
import { button, checkUntilDecided, startAsNewLearner } from './support/learner';

const ARABIC = /[\u0600-\u06FF]/;

function readJson<T>(...parts: string[]): T {
  return JSON.parse(fs.readFileSync(path.join(...parts), 'utf8')) as T;
}

async function openLesson(page: Page, slug: string): Promise<void> {
  await page.goto(`/ar/lessons/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
}

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('ar: a wrong release is rejected in Arabic, its command trace with the commands as Redis spells them', async ({ page }) => {
  test.setTimeout(120_000);
  await openLesson(page, 'safe-release');
  // The corpus's GET-then-DEL release: two commands where one script is needed.
  const read = (...parts: string[]) => fs.readFileSync(path.join('lessons', '02-safe-release', ...parts), 'utf8');
  const wrong = composeWrongAnswer(read('solution.ts'), read('wrong', 'get-compare-then-del.ts')).replace(/^(\/\/.*\n)+/, '');
  // A long program: the editor follows the cursor to its end, so its first line is checked from the top.
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(wrong);
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText("import Redis from 'ioredis';");
  expect(await checkUntilDecided(page, readJson<{ check: string }>('messages', 'ar', 'exercise.json').check, 90_000)).toBe('false');
  const said = page.getByTestId('exercise-counter-example');
  await expect(said).toContainText(ARABIC);
  // No sentence of the grader's is left in English (the trace's and the checker's included).
  await expect(said).not.toContainText(/ was \d+ commands|Between them another client| at \d+ ms|the verdict is|crashed holding/);
  // When the failure quotes the call's commands, each is as Redis spells it, with its time in Arabic words.
  const text = (await said.textContent()) ?? '';
  if (/\bGET\b/.test(text)) expect(text).toMatch(/GET عند/);
  await said.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/words-ar-trace.png' });
});

test("ar: a run ended early says so in its console and its outcome, in Arabic", async ({ page }) => {
  await openLesson(page, 'naive-lock');
  const crash = readJson<{ scenarios: Record<string, { title: string }> }>('lessons', '01-naive-lock', 'i18n', 'ar', 'texts.json').scenarios['holder-crash']!.title;
  await page.locator('select').filter({ has: page.locator(`option:text-is("${crash}")`) }).selectOption({ label: crash });
  await button(page, readJson<{ toolbar: { run: string } }>('messages', 'ar', 'workspace.json').toolbar.run).click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-final', 'true', { timeout: 45_000 });
  await expect(page.getByTestId('run-outcome')).toContainText('العميل 1');
  await expect(page.getByTestId('run-outcome')).not.toContainText('crashed holding');

  await page.getByRole('tab', { name: 'وحدة التحكم' }).click();
  const log = page.getByRole('log', { name: 'مخرجات وحدة التحكم' });
  await expect(log).toContainText('أُنهي التشغيل مبكرًا');
  await expect(log).not.toContainText('The run was ended early');
  await log.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/words-ar-console.png' });
});

/**
 * "Check my solution" answers in the page's language: in Norwegian, a wrong
 * answer caught by a hidden probe is named by the probe's Norwegian title,
 * its counter-example is the probe's Norwegian sentence (the server writes it
 * from the lesson's translation), and the hint is the lesson's Norwegian one.
 * Screenshot: test-results/screenshots/check-words-nb.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { composeWrongAnswer } from '../lib/lessons/wrong-answers';
import { checkUntilDecided, startAsNewLearner } from './support/learner';

const lesson = path.join('lessons', '05-redlock');
const read = (...parts: string[]) => fs.readFileSync(path.join(lesson, ...parts), 'utf8');
const nbTexts = JSON.parse(read('i18n', 'nb', 'texts.json')) as { adversaries: Record<string, { title: string }> };
/** The first Norwegian hint, as the page shows it (the hints file's sections, headings dropped). */
const nbHint = read('i18n', 'nb', 'hints.md').split(/^## .*$/m)[1]?.trim() ?? '';

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('in Norwegian, a hidden probe\'s counter-example and the hint are the Norwegian ones', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/nb/lessons/redlock');
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  // quorum(n) = ⌈n/2⌉: quorum(2) is 1, so two clients could each hold the lock with one vote of two.
  const wrong = composeWrongAnswer(read('solution.ts'), read('wrong', 'quorum-ceil-half.ts'));
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(wrong);
  // A long program scrolls the editor to its end: back to the top to see it is the one pasted.
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(wrong.split('\n')[0] ?? '');
  expect(await checkUntilDecided(page, 'Sjekk løsningen min', 60_000)).toBe('false');
  const result = page.getByTestId('exercise-result');
  await expect(result).toContainText(`En skjult sjekk feilet: «${nbTexts.adversaries['quorum-property']?.title}»`);
  await expect(page.getByTestId('exercise-counter-example')).toHaveText(
    'quorum(2) returnerte 1: to klienter kunne hver samle 1 av 2 stemmer fra forskjellige noder og begge holde låsen. Et quorum må være et strengt flertall: ⌊n/2⌋ + 1 = 2.',
  );
  await expect(page.getByTestId('exercise-hint')).toContainText(nbHint);
  await page.getByTestId('exercise').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/check-words-nb.png' });
});

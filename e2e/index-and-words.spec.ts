/**
 * The course index as a learner finds it — a way into classes, and after a
 * lesson "Continue where you left off" — and the quick check's "Try again":
 * a wrong answer explained, tried again, the right one recorded, the score
 * still counting the first answer. Screenshots under test-results/screenshots/index-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startAsNewLearner } from './support/learner';

interface QuizFile {
  questions: { id: string; prompt: string; choices: { text: string; correct: boolean; why: string }[] }[];
}
const quiz = JSON.parse(fs.readFileSync(path.join('lessons', '02-safe-release', 'quiz.json'), 'utf8')) as QuizFile;

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: false });
}

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('a first-time visitor finds classes on the index, and nothing to continue', async ({ page }) => {
  await page.goto('/');
  // The saved progress has been read once a lesson says where it stands.
  await expect(page.getByTestId('progress-naive-lock')).toHaveAttribute('data-standing', 'not-started');
  await expect(page.getByRole('region', { name: 'Continue where you left off' })).toHaveCount(0);
  const classes = page.getByRole('region', { name: 'Classes' });
  await expect(classes.getByRole('link', { name: 'Start a class' })).toHaveAttribute('href', '/classroom');
  await screenshot(page, 'index-first-visit');

  await classes.getByRole('link', { name: 'Join a class' }).click();
  await expect(page).toHaveURL(/\/classroom#join$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Start or join a class' })).toBeVisible();
  await expect(page.getByLabel('Join code')).toBeFocused();
});

test('a wrong quick-check answer is explained and tried again, and the index then offers to continue the lesson', async ({ page }) => {
  await page.goto('/lessons/safe-release');
  await expect(page.getByRole('heading', { level: 1, name: 'Safe release' })).toBeVisible();
  // "seed" is a random seed, and the page says what one is.
  await expect(page.getByText(/with random seeds 21, 22, 23 \(each fixes every random choice of its run/)).toBeVisible();

  const q = quiz.questions[0]!;
  const right = q.choices.find((c) => c.correct)!;
  const wrong = q.choices.find((c) => !c.correct)!;
  const form = page.getByTestId('quick-check').locator('form', { hasText: q.prompt });
  await form.getByLabel(wrong.text, { exact: true }).check();
  await form.getByRole('button', { name: 'Check answer' }).click();
  // Why this choice is wrong, without giving the right one away.
  await expect(form.getByRole('status')).toHaveText('✗ Not quite. Read why, then try again.');
  await expect(form.getByText(wrong.why)).toBeVisible();
  await expect(form.getByText(right.why)).toHaveCount(0);
  await expect(page.getByTestId('quiz-score')).toHaveText(`1 of ${quiz.questions.length} answered · 0 correct so far.`);
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'index-quiz-wrong');

  await form.getByRole('button', { name: 'Try again' }).click();
  await expect(form.getByLabel(wrong.text, { exact: true })).not.toBeChecked();
  await expect(form.getByRole('button', { name: 'Check answer' })).toBeDisabled();
  await form.getByLabel(right.text, { exact: true }).check();
  await form.getByRole('button', { name: 'Check answer' }).click();
  await expect(form.getByRole('status')).toHaveText('✓ Correct, on try 2. Your score counts the first answer.');
  await expect(form.getByText(right.why)).toBeVisible();
  // Recorded: the right answer stays after a reload, and the score still counts the wrong first one.
  await page.reload();
  await expect(form.getByRole('status')).toHaveText('✓ Correct, on try 2. Your score counts the first answer.');
  await expect(form.getByLabel(right.text, { exact: true })).toBeChecked();
  await expect(page.getByTestId('quiz-score')).toHaveText(`1 of ${quiz.questions.length} answered · 0 correct so far (1 more right after trying again).`);
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'index-quiz-tried-again');

  await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Course' }).click();
  const next = page.getByRole('region', { name: 'Continue where you left off' });
  await expect(next.getByRole('link', { name: 'Lesson 2: Safe release' })).toHaveAttribute('href', '/lessons/safe-release');
  await expect(next).toContainText('In progress');
  await expect(page.getByTestId('progress-safe-release')).toContainText(`Quick check: 1 of ${quiz.questions.length} answered`);
  await screenshot(page, 'index-continue');
});

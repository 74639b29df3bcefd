/**
 * The course in English, Arabic and Norwegian Bokmål, in a real browser
 * against the production build: each language's index and two lessons (one
 * run to a violation) render with the right `lang` and `dir`, show none of the
 * English catalogue's words where the language has its own, and stay within
 * the screen (Arabic at 1280 and 390 px); in Arabic the page mirrors but the
 * timeline's time and the editor still run left to right; switching language
 * keeps the learner's code and progress. Screenshots: test-results/screenshots/lang-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { expect, test, type Page } from '@playwright/test';
import { messageLeaves as leaves } from '../messages/leaves';
import { weaveComments } from '../lib/lessons/program-comments';
import { overflowing } from './support/layout';
import { button, setCode, startAsNewLearner } from './support/learner';

type Locale = 'en' | 'ar' | 'nb';
const home = (locale: Locale) => (locale === 'en' ? '/' : `/${locale}`);
const at = (locale: Locale, pathname: string) => (locale === 'en' ? pathname : `/${locale}${pathname}`);

function readJson<T>(...parts: string[]): T {
  return JSON.parse(fs.readFileSync(path.join(...parts), 'utf8')) as T;
}

/** The literal text of an ICU message, in pieces between its arguments and tags (code is code in every language). */
function literals(elements: MessageFormatElement[]): string[] {
  const out: string[] = [];
  for (const e of elements) {
    if (e.type === TYPE.literal) out.push(e.value);
    else if (e.type === TYPE.tag && e.value !== 'code') out.push(...literals(e.children));
    else if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) out.push(...literals(o.value));
  }
  return out;
}

/**
 * English a page in `locale` must not show: the pieces of every English message the language translated
 * differently, long enough to be words and not a name (two words of three letters or more).
 */
function englishWords(locale: Exclude<Locale, 'en'>): string[] {
  const words = new Set<string>();
  for (const file of fs.readdirSync(path.join('messages', 'en'))) {
    const english = leaves(readJson(path.join('messages', 'en', file)));
    const own = leaves(readJson(path.join('messages', locale, file)));
    for (const [key, text] of english) {
      if (own.get(key) === text) continue;
      for (const piece of literals(parse(text, { ignoreTag: false }))) {
        const trimmed = piece.trim();
        if ((trimmed.match(/[A-Za-z]{3,}/g) ?? []).length >= 2) words.add(trimmed);
      }
    }
  }
  return [...words];
}

/**
 * Visible text of the interface: without the lesson's own prose (a translation may quote an English term in
 * parentheses), the editor, and what is marked as the server's or the program's words (`data-server-words`).
 */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    for (const el of Array.from(clone.querySelectorAll('[data-server-words], [data-lesson-text], .monaco-editor, script, style'))) el.remove();
    return clone.innerText;
  });
}

async function expectNoEnglish(page: Page, locale: Exclude<Locale, 'en'>) {
  const text = await visibleText(page);
  expect(englishWords(locale).filter((w) => text.includes(w))).toEqual([]);
}

async function expectLanguage(page: Page, locale: Locale) {
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
  const current = page.getByRole('navigation', { name: { en: 'Language', ar: 'اللغة', nb: 'Språk' }[locale] }).locator('[aria-current="true"]');
  await expect(current).toHaveAttribute('lang', locale);
}

const direction = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).direction);

interface LessonFront {
  title: string;
}
function lessonTitle(folder: string, locale: Locale): string {
  const file = locale === 'en' ? path.join('lessons', folder, 'lesson.mdx') : path.join('lessons', folder, 'i18n', locale, 'lesson.mdx');
  const front = /^---\n([\s\S]*?)\n---/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '';
  return (/^title: (.+)$/m.exec(front)?.[1] ?? '').replace(/^["']|["']$/g, '') as LessonFront['title'];
}
function scenarioTitle(folder: string, id: string, locale: Locale): string {
  if (locale === 'en') return readJson<{ title: string }>('lessons', folder, 'scenarios', `${id}.json`).title;
  return readJson<{ scenarios: Record<string, { title: string }> }>('lessons', folder, 'i18n', locale, 'texts.json').scenarios[id]?.title ?? '';
}

/** The Run button's name in a language, as its catalogue has it. */
const runLabel = (locale: Locale) => readJson<{ toolbar: { run: string } }>('messages', locale, 'workspace.json').toolbar.run;

test.beforeEach(async ({ page }) => startAsNewLearner(page));

for (const locale of ['en', 'ar', 'nb'] as const) {
  test(`${locale}: the index and the Redlock lesson, in the language, inside the screen`, async ({ page }) => {
    await page.goto(home(locale));
    await expectLanguage(page, locale);
    await expect(page.getByRole('link', { name: lessonTitle('01-naive-lock', locale), exact: true })).toBeVisible();
    if (locale !== 'en') await expectNoEnglish(page, locale);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/lang-${locale}-index.png`, fullPage: true });

    await page.getByRole('link', { name: lessonTitle('05-redlock', locale), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${at(locale, '/lessons/redlock')}$`));
    await expectLanguage(page, locale);
    await expect(page.getByRole('heading', { level: 1, name: lessonTitle('05-redlock', locale) })).toBeVisible();
    await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    if (locale !== 'en') await expectNoEnglish(page, locale);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/lang-${locale}-redlock.png` });
  });

  test(`${locale}: a violation in lesson 1, with the page mirrored in Arabic and time still left to right`, async ({ page }) => {
    await page.goto(at(locale, '/lessons/naive-lock'));
    await expectLanguage(page, locale);
    await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await page.locator('select').filter({ has: page.locator(`option:text-is("${scenarioTitle('01-naive-lock', 'race', locale)}")`) }).selectOption({ label: scenarioTitle('01-naive-lock', 'race', locale) });
    await button(page, runLabel(locale)).click();
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-final', 'true', { timeout: 45_000 });
    await expect(verdict).toHaveAttribute('data-valid', 'violated');

    // Time runs left to right in every language; code is code.
    expect(await direction(page, '[data-testid="timeline"] canvas')).toBe('ltr');
    expect(await direction(page, '.monaco-editor')).toBe('ltr');
    if (locale === 'ar') {
      // The page mirrors: the text column starts at the right.
      expect(await direction(page, 'main')).toBe('rtl');
    }
    if (locale !== 'en') await expectNoEnglish(page, locale);
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/lang-${locale}-violation.png` });

    // The lab events under "Timeline as text" are said in the language too: the scenario's line comes as words.
    const asText = readJson<{ asText: string }>('messages', locale, 'timeline.json').asText;
    await page.getByText(asText, { exact: true }).click();
    const events = page.getByTestId('timeline-lab-events');
    await expect(events).toContainText({ en: 'random seed 1', ar: 'البذرة العشوائية 1', nb: 'tilfeldig frø 1' }[locale]);
    if (locale !== 'en') await expect(events).not.toContainText('random seed');
    await events.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/lang-${locale}-lab-events.png` });

    if (locale === 'ar') {
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => overflowing(page)).toEqual([]);
      await page.screenshot({ path: `test-results/screenshots/lang-ar-violation-390.png`, fullPage: true });
    }
  });
}

test('switching language keeps the code and the progress, and is remembered', async ({ page }) => {
  await page.goto('/lessons/naive-lock');
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  const mine = '// my own line, kept across languages\nimport lab from "lab";\nawait lab.job("x").run(10);';
  await setCode(page, mine);
  // A quick-check answer is progress: answer the first question.
  const quiz = readJson<{ questions: { prompt: string; choices: { text: string; correct: boolean }[] }[] }>('lessons', '01-naive-lock', 'quiz.json');
  const right = quiz.questions[0]?.choices.find((c) => c.correct)?.text ?? '';
  await page.getByRole('radio', { name: right, exact: true }).check();
  await button(page, 'Check answer').first().click();

  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'العربية' }).click();
  await expect(page).toHaveURL(/\/ar\/lessons\/naive-lock$/);
  await expectLanguage(page, 'ar');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('my own line, kept across languages', { timeout: 30_000 });
  const arQuiz = readJson<typeof quiz>('lessons', '01-naive-lock', 'i18n', 'ar', 'quiz.json');
  const arRight = arQuiz.questions[0]?.choices.find((c) => c.correct)?.text ?? '';
  await expect(page.getByRole('radio', { name: arRight, exact: true })).toBeChecked();

  // Remembered: the course's root now opens in Arabic; choosing English again sticks too.
  await page.goto('/');
  await expect(page).toHaveURL(/\/ar$/);
  await page.getByRole('navigation', { name: 'اللغة' }).getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/lessons/naive-lock');
  await expect(page).toHaveURL(/\/lessons\/naive-lock$/);
  await expectLanguage(page, 'en');
});

test('ar: the lesson programs are the English code with Arabic comments, on the same lines (the starter in the editor, "Show solution")', async ({ page }) => {
  const comments = readJson<Record<string, string>>('lessons', '02-safe-release', 'i18n', 'ar', 'comments.json');
  const woven = (file: string) => weaveComments(fs.readFileSync(path.join('lessons', '02-safe-release', file), 'utf8'), (k) => comments[k]);
  const starter = woven('starter.ts');
  const solution = woven('solution.ts');
  expect(starter.untranslated).toEqual([]);
  // The first line of each is an Arabic comment; the line of release() is the English program's.
  const first = (code: string) => code.split('\n')[0] ?? '';
  expect(first(starter.code)).toMatch(/^\/\/ [\u0600-\u06FF]/);
  const english = fs.readFileSync(path.join('lessons', '02-safe-release', 'starter.ts'), 'utf8').split('\n');
  expect(starter.code.split('\n').findIndex((l) => l.startsWith('async function release('))).toBe(english.findIndex((l) => l.startsWith('async function release(')));

  await page.goto('/ar/lessons/safe-release');
  const lines = page.locator('.monaco-editor .view-lines');
  await expect(lines).toContainText(first(starter.code).slice(3), { timeout: 30_000 });
  await button(page, runLabel('ar')).click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-final', 'true', { timeout: 45_000 });
  await button(page, readJson<{ toolbar: { showSolution: string } }>('messages', 'ar', 'workspace.json').toolbar.showSolution).click();
  await expect(lines).toContainText(first(solution.code).slice(3));
  await expect(lines).not.toContainText('a reference solution');
  await page.screenshot({ path: 'test-results/screenshots/lang-ar-solution-comments.png' });
});

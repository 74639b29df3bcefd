/**
 * The server's refusals and the classroom's built-in demos in the learner's language: a class code that does
 * not exist is refused in Arabic on the join page, and the instructor's demo list reads in Norwegian and Arabic.
 * Screenshots go to test-results/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const TOKEN = process.env.E2E_INSTRUCTOR_TOKEN ?? 'e2e-instructor-token';
const readJson = <T,>(...parts: string[]): T => JSON.parse(fs.readFileSync(path.join(...parts), 'utf8')) as T;
type Classroom = { create: { token: string; create: string; code: string; go: string }; learner: { name: string; join: string }; demos: { run: string; failureDemos: string } };
type Demos = { builtin: Record<'gcPause' | 'failover' | 'fencing', { title: string }> };

test('ar: joining a class that does not exist is refused in Arabic', async ({ page }) => {
  const t = readJson<Classroom>('messages', 'ar', 'classroom.json');
  await page.goto('/ar/classroom');
  // A well-formed code no class has: the server refuses it (not-found), in the page's language.
  await page.getByLabel(t.create.code).fill('K7M2Q-9XR4T-HB3WZ');
  await page.getByRole('button', { name: t.create.go }).click();
  await page.getByLabel(t.learner.name).fill('ليلى');
  await page.getByRole('button', { name: t.learner.join, exact: true }).click();
  const refusal = page.getByText('لا يوجد صف بالرمز K7M2Q-9XR4T-HB3WZ (ربما انتهى)');
  await expect(refusal).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('There is no classroom')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/refusal-ar-no-class.png' });
});

for (const locale of ['nb', 'ar'] as const) {
  test(`${locale}: the instructor's built-in demos are listed in the language`, async ({ page }) => {
    test.setTimeout(90_000);
    const t = readJson<Classroom>('messages', locale, 'classroom.json');
    const demos = readJson<Demos>('messages', locale, 'demos.json');
    await page.goto(`/${locale}/classroom`);
    await page.getByLabel(t.create.token).fill(TOKEN);
    await page.getByRole('button', { name: t.create.create }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/classroom/[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}/instructor$`), { timeout: 30_000 });
    for (const demo of Object.values(demos.builtin)) {
      await expect(page.getByRole('button', { name: t.demos.run.replace('{title}', demo.title) })).toBeVisible({ timeout: 30_000 });
    }
    await expect(page.getByRole('button', { name: /GC pause breaks Redlock|Fencing saves the day/ })).toHaveCount(0);
    const list = page.locator('details', { has: page.getByText(t.demos.failureDemos, { exact: true }) });
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/refusal-${locale}-demos.png`, fullPage: true });
  });
}

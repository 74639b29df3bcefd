/**
 * "Do it yourself" (issue 30): in every lesson that has the task, a scripted learner presses "Set up and run",
 * waits for the run to stop at the suggested breakpoint, presses the fault buttons the steps name, lets the run
 * go on, and reads that their own fault made the lesson's break; the task then shows as done. Each run lasts a
 * few seconds. Screenshots at 1280×800 under test-results/screenshots/diy-*.png (lesson 5 in English and Arabic).
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

interface Words {
  prefix: string;
  setUp: string;
  resume: string;
  pauseWhen: string;
}
const EN: Words = { prefix: '', setUp: 'Set up and run', resume: 'Resume', pauseWhen: 'Pause the run when' };
const AR: Words = { prefix: '/ar', setUp: 'جهّز وشغّل', resume: 'استئناف', pauseWhen: 'أوقِف التشغيل مؤقتًا عندما' };

interface Task {
  slug: string;
  /** What the learner presses while the run stands at the breakpoint (in English). */
  faults: (page: Page) => Promise<void>;
}

const node = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true });

const TASKS: Task[] = [
  { slug: 'naive-lock', faults: (page) => button(page, 'Crash Client 1').click() },
  {
    slug: 'ttl-and-watchdog',
    faults: async (page) => {
      await page.getByRole('tab', { name: 'Links' }).click();
      await button(page, 'Cut Client 1 → Node 1').click();
    },
  },
  { slug: 'failover', faults: (page) => button(page, 'Fail over').click() },
  {
    slug: 'redlock',
    faults: async (page) => {
      await button(page, 'Kill Node 3').click();
      await expect(node(page, 3).getByTestId('node-state')).toHaveText('down');
      await expect(button(page, 'Restart Node 3')).not.toHaveAttribute('aria-disabled', 'true');
      await button(page, 'Restart Node 3').click();
    },
  },
];

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/** Opens the lesson, sets the task's run up, and waits for it to stand at the breakpoint. */
async function setUpAndStop(page: Page, slug: string, words: Words) {
  await page.goto(`${words.prefix}/lessons/${slug}`);
  await expect(page.getByTestId('cluster').getByTestId('node-state').first()).toBeVisible({ timeout: 60_000 });
  const diy = page.getByTestId('do-it-yourself');
  await diy.scrollIntoViewIfNeeded();
  await button(page, words.setUp).click();
  await expect(page.getByTestId('breakpoint-stop')).toBeVisible({ timeout: 60_000 });
  return diy;
}

/** Clears the breakpoint (it would stop the run again at the same moment) and lets the run go on. */
async function resume(page: Page, words: Words) {
  await page.getByLabel(words.pauseWhen, { exact: true }).selectOption({ value: '' });
  await button(page, words.resume).click();
}

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test.describe('Do it yourself: a scripted learner completes every lesson’s task', () => {
  for (const task of TASKS) {
    test(task.slug, async ({ page }) => {
      test.setTimeout(150_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      const diy = await setUpAndStop(page, task.slug, EN);
      await task.faults(page);
      await resume(page, EN);
      const outcome = diy.getByTestId('diy-outcome');
      await expect(outcome).toHaveAttribute('data-outcome', 'done', { timeout: 60_000 });
      await expect(outcome).toHaveText(/^Done: your “.+” at \d+(\.\d+)? m?s/);
      await expect(diy.getByTestId('diy-completed')).toHaveText(/Done it yourself/);
      if (task.slug === 'redlock') {
        await expect(outcome).toContainText('“restart Node 3”');
        await expect(outcome).toContainText('while Client 1 held the lock, let Client 2 take it too');
        await screenshot(page, 'diy-01-redlock-done');
      }
      // The course index counts it with the lesson's other tasks.
      await page.goto('/');
      await expect(page.getByTestId(`progress-${task.slug}`)).toContainText('Done it yourself');
    });
  }
});

test('in Arabic: lesson 5’s task reads right to left and completes', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const diy = await setUpAndStop(page, 'redlock', AR);
  await expect(diy.getByRole('heading', { name: 'افعلها بنفسك' })).toBeVisible();
  await button(page, 'اقتل العقدة 3').click();
  // The restart is offered once the node is down.
  await expect(button(page, 'أعد تشغيل العقدة 3')).not.toHaveAttribute('aria-disabled', 'true');
  await button(page, 'أعد تشغيل العقدة 3').click();
  await resume(page, AR);
  const outcome = diy.getByTestId('diy-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'done', { timeout: 60_000 });
  await expect(outcome).toContainText('تمّ');
  await screenshot(page, 'diy-02-redlock-ar-done');
});

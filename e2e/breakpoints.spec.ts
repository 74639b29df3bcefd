/**
 * Breakpoints (issue 30, item 2), in a real browser: on lesson 5 the learner
 * asks to pause the run when a client enters its job; the run stops there with
 * every client frozen and says so; two kills land while it stands; the lock's
 * TTL runs out on the nodes meanwhile (the clients are frozen, Redis is not);
 * Resume, and the verdict shows the break the learner caused: the other client
 * takes the lock the first still believes it holds. The timeline draws the
 * stop as its own band ("stopped at the breakpoint", in its legend, its text
 * view and its canvas's name), never as a pause the learner injected.
 * Screenshots under test-results/screenshots/breakpoint-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

const LESSON = '/lessons/redlock';

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

const node = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true });

test.beforeEach(async ({ page }) => startAsNewLearner(page));

/** While the run stands at the breakpoint: the timeline says so in its name, its legend, its text and its hover words. */
async function expectStopOnTimeline(page: Page) {
  const timeline = page.getByTestId('timeline');
  await timeline.scrollIntoViewIfNeeded();
  const canvas = timeline.getByRole('img');
  await expect(canvas).toHaveAccessibleName(/the run stopped at the breakpoint at .+, every client frozen/);
  const legend = timeline.getByRole('list', { name: 'Legend' });
  await expect(legend.getByRole('listitem').filter({ hasText: 'stopped at the breakpoint' })).toHaveCount(1);
  await expect(legend.getByRole('listitem').filter({ hasText: /^\s*paused\s*$/ })).toHaveCount(1);
  // The text view: a stop on each frozen client's row, no pause.
  await timeline.getByText('Timeline as text').click();
  const lanes = page.getByTestId('timeline-lanes');
  for (const c of [1, 2]) {
    const row = lanes.locator(`tr[data-client="${c}"]`);
    await expect(row).toHaveAttribute('data-breakpoint-stops', '1');
    await expect(row).toHaveAttribute('data-pauses', '0');
    await expect(row).toContainText('stopped at the breakpoint once');
    await expect(row).not.toContainText('paused');
  }
  // Hovering the band at its live end (the view's right edge) names it; the section row, so no lock bar above it.
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the timeline canvas has no box');
  await page.mouse.move(box.x + box.width - 6, box.y + 20 + 18 + 26);
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText('Client 1:');
  await expect(tooltip).toContainText("stopped at the breakpoint: every client frozen, the nodes' clock running");
  await expect(tooltip).not.toContainText('paused');
  await screenshot(page, 'breakpoint-01a-timeline-stop-band');
  await page.mouse.move(box.x - 10, box.y - 10);
  await expect(tooltip).toHaveCount(0);
  await timeline.getByText('Timeline as text').click();
}

test('a breakpoint stops the run when a client enters its job; two kills, Resume, and the verdict shows the break', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(LESSON);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  for (let n = 1; n <= 5; n++) await expect(node(page, n).getByTestId('node-state')).toHaveText('up');
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'None: just run' });

  await page.getByLabel('Pause the run when').selectOption({ label: 'a client enters its job' });
  await button(page, 'Run').click();

  const stop = page.getByTestId('breakpoint-stop');
  await expect(stop).toContainText('Stopped at your breakpoint: a client enters its job.', { timeout: 60_000 });
  await expect(stop).toHaveAttribute('role', 'status');
  // Every client stands still, frozen by the run's own stop, not paused by a fault; the timeline marks where.
  for (const c of [1, 2]) {
    await expect(page.getByTestId(`client-${c}-status`)).toHaveAttribute('data-status', 'held');
    await expect(page.getByTestId(`client-${c}-status`)).toHaveText('frozen');
  }
  await expectStopOnTimeline(page);

  // Faults go in while the world stands still.
  await button(page, 'Kill Node 1').click();
  await button(page, 'Kill Node 2').click();
  await expect(node(page, 1).getByTestId('node-state')).toHaveText('down');
  await expect(node(page, 2).getByTestId('node-state')).toHaveText('down');
  // The nodes' clocks go on: the holder's key runs out on Node 3 while the holder is frozen inside its job.
  await expect(node(page, 3).getByTestId('key-holder')).toHaveCount(0, { timeout: 15_000 });
  await expect(stop).toBeVisible();
  await screenshot(page, 'breakpoint-01-stopped-two-killed');

  // A breakpoint stays set across Resume (the other client entering its job would stop the run again): cleared first.
  await page.getByLabel('Pause the run when').selectOption({ label: 'never (run straight through)' });
  await button(page, 'Resume').click();
  await expect(stop).toBeHidden();
  // The other client collects Nodes 3–5 while the holder still runs its job: two holders at once.
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'violated', { timeout: 60_000 });
  await expect(page.getByTestId('timeline-lab-events')).toContainText('breakpoint');
  // The stop stays on the timeline after Resume, counted as a stop and not as a pause.
  const lanes = page.getByTestId('timeline-lanes');
  await expect(lanes.locator('tr[data-client="1"]')).toHaveAttribute('data-breakpoint-stops', '1');
  await expect(lanes.locator('tr[data-client="1"]')).toHaveAttribute('data-pauses', '0');
  await expect(page.getByTestId('timeline').getByRole('img')).not.toHaveAccessibleName(/stopped at the breakpoint/);
  await screenshot(page, 'breakpoint-02-resumed-violated');
});

test('in Arabic the stop reads right to left, in the page’s words, with its two buttons', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/ar${LESSON}`);
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('cluster').getByTestId('node-state')).toHaveCount(5, { timeout: 60_000 });
  const when = page.getByLabel('أوقِف التشغيل مؤقتًا عندما');
  await when.selectOption({ value: 'enter-any' });
  await expect(when.locator('option:checked')).toHaveText('يدخل عميلٌ ما مهمته');
  await button(page, 'شغّل').click();
  const stop = page.getByTestId('breakpoint-stop');
  await expect(stop).toContainText('توقّف التشغيل عند نقطة التوقّف', { timeout: 60_000 });
  await expect(button(page, 'استئناف')).toBeVisible();
  await expect(button(page, 'خطوة')).toBeVisible();
  await screenshot(page, 'breakpoint-03-ar-stopped');
  await when.selectOption({ value: '' });
  await button(page, 'استئناف').click();
  await expect(stop).toBeHidden({ timeout: 30_000 });
});

/**
 * The lab workspace (/playground) in a real browser against the production
 * build, real redis-server processes and the real sandbox: run the starter,
 * break things, read the verdict, travel in time, export and re-open a run.
 * Each test saves screenshots under test-results/screenshots/ for a person
 * to look at.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, openPlayground, setCode, startAsNewLearner } from './support/learner';

const nodeState = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true }).getByTestId('node-state');
const laneRow = (page: Page, client: number) => page.getByTestId('timeline-lanes').locator(`tr[data-client="${client}"]`);

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/** Every request the page makes must stay on this machine. */
function collectForeignRequests(page: Page): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const local = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
    if (!local && url.protocol !== 'data:' && url.protocol !== 'blob:') foreign.push(request.url());
  });
  return foreign;
}

const BROKEN = `import lab from 'lab';
// No lock at all: every client enters the job at once.
await lab.job('report').run(300);
`;

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('run the starter: lanes fill; Kill Node 3: the card reads down within 1 s and a marker appears', async ({ page }) => {
  const foreign = collectForeignRequests(page);
  await openPlayground(page);
  await screenshot(page, 'ws-01-ready');

  await button(page, 'Run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/Running|Finished/, { timeout: 30_000 });
  await expect.poll(async () => Number(await laneRow(page, 1).getAttribute('data-sections')), { timeout: 15_000 }).toBeGreaterThan(0);
  await expect.poll(async () => Number(await laneRow(page, 3).getAttribute('data-sections')), { timeout: 15_000 }).toBeGreaterThan(0);

  // Click → the card's state reads `down`, timed inside the page (no Playwright polling in the figure).
  const tookMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const kill = document.querySelector<HTMLButtonElement>('[aria-label="Kill Node 3"]');
        const card = kill?.closest('section');
        if (!kill || !card) throw new Error('no Kill Node 3 button in a card');
        const started = performance.now();
        const observer = new MutationObserver(() => {
          if (card.querySelector('[data-testid="node-state"]')?.textContent?.includes('down')) {
            observer.disconnect();
            resolve(performance.now() - started);
          }
        });
        observer.observe(card, { subtree: true, childList: true, characterData: true });
        kill.click();
      }),
  );
  expect(tookMs).toBeLessThan(1_000);
  await expect(nodeState(page, 3)).toHaveText('down');
  await expect(page.getByTestId('timeline-lab-events')).toContainText('Node 3');
  await screenshot(page, 'ws-02-running-node-3-killed');
  await expect(page.getByTestId('run-progress')).toContainText('Finished', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'held');
  await page.getByTestId('timeline').scrollIntoViewIfNeeded();
  await screenshot(page, 'ws-03-finished-held');
  console.log(`kill clicked → card reads down: ${tookMs.toFixed(0)} ms`);
  expect(foreign).toEqual([]);
});

const STEADY = `import lab from 'lab';
// Each client works on its own job for about 25 s (under the 30 s wall clock): long enough to pause one even on a machine so busy that the page
// takes seconds to answer a click (the test does not wait for the end; closing the page ends the lab).
for (let i = 0; i < 250; i++) await lab.job(\`work-\${lab.client}\`).run(100);
`;

test('Pause Client 1: its lane shows the pause', async ({ page }) => {
  const foreign = collectForeignRequests(page);
  await openPlayground(page);
  await setCode(page, STEADY);
  await button(page, 'Run').click();
  // The clients are in the instrument panel, beside the editor: no tab to open first.
  await expect(page.getByTestId('client-1-status')).toHaveText('running', { timeout: 30_000 });
  // Paused until resumed: on a busy machine a timed pause can be over before its card is looked at.
  await page.getByLabel('Pause length for Client 1').selectOption('0');
  await button(page, 'Pause Client 1').click();
  await expect(page.getByTestId('client-1-status')).toHaveText('paused');
  await screenshot(page, 'ws-04-client-1-paused');
  // Resumed at once: a pause held while the test looks elsewhere would count against the client's wall clock.
  await button(page, 'Resume Client 1').click();
  await expect(page.getByTestId('client-1-status')).not.toHaveText('paused', { timeout: 5_000 });
  await expect.poll(async () => Number(await laneRow(page, 1).getAttribute('data-pauses'))).toBeGreaterThan(0);
  await expect(laneRow(page, 1)).toContainText('paused once');
  expect(foreign).toEqual([]);
});

test('a broken program: verdict violated, a band on the timeline, "Show on timeline" highlights it', async ({ page }) => {
  await openPlayground(page);
  await setCode(page, BROKEN);
  await button(page, 'Run').click();
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'violated', { timeout: 30_000 });
  await expect(verdict).toHaveAttribute('data-final', 'true', { timeout: 30_000 });
  await expect(verdict).toContainText('violated');
  await expect(page.getByTestId('counter-example')).toContainText('Client');
  await expect(page.getByTestId('timeline-band')).toContainText('Violation band');
  await button(page, 'Show on timeline').click();
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-highlighted', 'true');
  await screenshot(page, 'ws-05-violated-band-highlighted');
});

test('a syntax error: a marker at the right line', async ({ page }) => {
  await openPlayground(page);
  await setCode(page, "import lab from 'lab';\n\nconst answer = ;\nlab.log(answer);\n");
  await button(page, 'Run').click();
  const problems = page.getByTestId('diagnostics');
  await expect(problems).toContainText('at line 3', { timeout: 30_000 });
  // The server's marker sits on line 3 of the editor.
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  await expect(squiggle).toBeVisible();
  const line3 = page.locator('.monaco-editor .view-line').nth(2);
  const [s, l] = await Promise.all([squiggle.boundingBox(), line3.boundingBox()]);
  expect(Math.abs((s?.y ?? 0) - (l?.y ?? -100))).toBeLessThan(20);
  await screenshot(page, 'ws-06-syntax-error');
});

test('a reload keeps the code and the progress', async ({ page }) => {
  await openPlayground(page);
  await setCode(page, BROKEN);
  await button(page, 'Run').click();
  await expect(page.getByTestId('run-progress')).toContainText(/Running|Finished/, { timeout: 30_000 });
  await page.reload();
  await expect(page.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('No lock at all');
  const progress = await page.evaluate(() => localStorage.getItem('lock-lab:progress'));
  expect(JSON.parse(progress ?? '{}').state.lessons.playground.runs).toBeGreaterThan(0);
  await button(page, 'Reset to starter').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('Playground: every client');
  await screenshot(page, 'ws-07-after-reload-reset');
});

test('keyboard only: focus the editor, Ctrl+Enter runs, Tab to "Kill Node 1", Enter', async ({ page }) => {
  await openPlayground(page);
  // Start from the toolbar's last button and Tab into the editor, as a keyboard user would.
  await button(page, 'Reset to starter').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor')))).toBe(true);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('run-progress')).toContainText(/Running|Finished/, { timeout: 30_000 });
  // Ctrl+M: Tab moves focus instead of indenting.
  await page.keyboard.press('Control+M');
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Kill Node 1');
  }
  expect(reached).toBe(true);
  await screenshot(page, 'ws-08-keyboard-focus-kill-node-1');
  await page.keyboard.press('Enter');
  await expect(nodeState(page, 1)).toHaveText('down');
});

test('export a run, reload, open it (even with no lab), scrub to the violation', async ({ page }) => {
  const foreign = collectForeignRequests(page);
  await openPlayground(page);
  await setCode(page, BROKEN);
  await button(page, 'Run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-final', 'true', { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export run').click()]);
  const file = await download.path();
  expect(download.suggestedFilename()).toMatch(/^lock-lab-playground-.*\.json$/);

  // No lab this time: the socket cannot connect, the file opens all the same.
  await page.route('**/socket.io/**', (route) => route.abort());
  await page.reload();
  await expect(page.getByText('Lab running')).toHaveCount(0);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, 'Open a run').click()]);
  await chooser.setFiles(file);
  await expect(page.getByText('Showing a saved run')).toBeVisible();
  // The lab page has a live lab to go back to (a shared run's page does not: shared-run.spec.ts).
  await expect(button(page, 'Back to the live lab')).toBeVisible();
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'violated');

  // Scrub: first to the start (nothing shown yet), then to the band.
  const slider = page.getByRole('slider', { name: 'Scrub through the run' });
  const min = Number(await slider.getAttribute('min'));
  await slider.fill(String(min));
  await expect(page.getByTestId('time-readout')).toContainText(/ · [01] of \d+ events/);
  const bandText = (await page.getByTestId('timeline-band').textContent()) ?? '';
  expect(bandText).toContain('Violation band');
  await button(page, 'Show on timeline').click();
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-highlighted', 'true');
  const max = Number(await slider.getAttribute('max'));
  await slider.fill(String(Math.round((min + max) / 2)));
  await expect(page.getByTestId('time-readout')).not.toContainText('all');
  await button(page, 'Step forward one event').click();
  await screenshot(page, 'ws-09-replay-scrubbed');
  // Leaving the saved run: the page shows its own lab again.
  await button(page, 'Back to the live lab').click();
  await expect(page.getByText('Showing a saved run')).toHaveCount(0);
  expect(foreign).toEqual([]);
});

test('"What your code can use" opens the reference in a new tab: modules, host names, limits, no developer notes', async ({ page, context }) => {
  await openPlayground(page);
  const link = page.getByRole('link', { name: /What your code can use/ });
  await expect(link).toHaveAttribute('target', '_blank');
  const [reference] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await reference.waitForLoadState();
  await expect(reference).toHaveTitle(/What your code can use/);
  await expect(reference.getByRole('heading', { level: 1, name: 'Running your code in the lab' })).toBeVisible();
  const hosts = reference.getByRole('table').first();
  await expect(hosts.getByRole('row').filter({ hasText: 'redis-2.internal:6379' })).toContainText('Node 2');
  await expect(reference.getByRole('cell', { name: '2,000 per second' })).toBeVisible();
  await expect(reference.getByText('multi()', { exact: false }).first()).toBeVisible();
  await expect(reference.getByRole('heading', { name: /For developers/ })).toHaveCount(0);
  // The playground tab is still there with the learner's program.
  await expect(page.locator('.monaco-editor')).toBeVisible();
  await reference.screenshot({ path: 'test-results/screenshots/ws-reference.png', fullPage: false });
  await reference.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => reference.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await reference.screenshot({ path: 'test-results/screenshots/ws-reference-phone.png', fullPage: false });
  // Nothing spills past the page's padding: the tables end inside the text column.
  const tableRight = await hosts.evaluate((t) => t.closest('div')?.getBoundingClientRect().right ?? Infinity);
  expect(tableRight).toBeLessThanOrEqual(390 - 8);
});

/**
 * Runs you can share (issue 33), in Chromium against the production build: lesson 1's "Break it" is run and shared;
 * its link opens in a new browser context — fresh storage, no identity, no lab — showing the verdict (re-checked
 * there) and the timeline, in English and Arabic; the sharer deletes it, and the link then says the run is gone (in
 * English, Norwegian and Arabic); a malformed id is refused in words. Screenshots go to
 * test-results/screenshots/shared-run-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

const LESSON = '/lessons/naive-lock';
// Deterministic: a crashed holder never frees a lock without a TTL, however busy the machine.
const BREAK_IT = 'Break it: the holder crashes';

async function screenshot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage });
}

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test("lesson 1's break, shared: the link opens read-only in a fresh browser with no lab; deleted, it says the run is gone", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await page.goto(LESSON);
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: BREAK_IT });
  // A fresh page has no verdict yet, so the final one that comes is this run's (it is seconds long: Client 1 crashes
  // holding a lock with no TTL, and the others wait past the liveness bound). It does not depend on timing.
  const verdictHere = page.getByTestId('verdict');
  await expect(verdictHere).toHaveAttribute('data-valid', 'none');
  await button(page, 'Run').click();
  await expect(verdictHere).toHaveAttribute('data-final', 'true', { timeout: 60_000 });
  await expect(verdictHere).toHaveAttribute('data-valid', 'violated');

  await button(page, 'Share this run').click();
  const link = page.getByRole('textbox', { name: 'Link to this run' });
  await expect(link).toHaveValue(/\/runs\/[A-Za-z0-9_-]{22}$/, { timeout: 30_000 });
  await expect(page.getByText('Anyone with the link can open this run')).toBeVisible();
  const url = await link.inputValue();
  await screenshot(page, 'shared-run-shared', false);

  // Another person's browser: nothing stored, no identity cookie, never on a lab page.
  const other = await browser.newContext();
  try {
    const viewer = await other.newPage();
    const sockets: string[] = [];
    viewer.on('websocket', (ws) => sockets.push(ws.url()));
    await viewer.goto(url);
    await expect(viewer.getByRole('heading', { name: 'A shared run', level: 1 })).toBeVisible();
    const verdict = viewer.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-valid', 'violated', { timeout: 30_000 });
    await expect(verdict).toHaveAttribute('data-final', 'true');
    await expect(viewer.getByRole('heading', { name: 'Verdict (saved run, checked again here)' })).toBeVisible();
    await expect(verdict).toContainText('Liveness failed: the lock could not be taken for too long');
    await expect(viewer.getByText(/Showing a saved run \(naive-lock, .*, \d+ events\)\./)).toBeVisible();
    const timeline = viewer.getByTestId('timeline');
    await expect(timeline).toBeVisible();
    await expect(timeline).toHaveAttribute('data-lanes', '3');
    expect(Number(await timeline.getAttribute('data-events'))).toBeGreaterThan(0);
    await expect(viewer.getByRole('img', { name: /^Timeline of 3 clients/ })).toBeVisible();
    // Read-only, for a stranger: no delete button, no lab, no socket.
    await expect(viewer.getByRole('button', { name: 'Delete the shared run' })).toHaveCount(0);
    // Time travel shows the saved run but offers no live lab to go back to: this page has none.
    await expect(viewer.getByRole('slider', { name: 'Scrub through the run' })).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Back to the live lab', exact: true })).toHaveCount(0);
    await expect(viewer.getByText('Lab running')).toHaveCount(0);
    expect(sockets).toEqual([]);
    expect((await other.cookies()).map((c) => c.name)).not.toContain('locklab_browser');
    await screenshot(viewer, 'shared-run-opened');
    // The same link in Arabic: the page's words and the verdict re-checked in its language, right to left.
    const inLanguage = (locale: string) => url.replace('/runs/', `/${locale}/runs/`);
    await viewer.goto(inLanguage('ar'));
    await expect(viewer.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(viewer.getByRole('heading', { name: 'تشغيل مشترك', level: 1 })).toBeVisible();
    await expect(viewer.getByTestId('verdict')).toHaveAttribute('data-valid', 'violated', { timeout: 30_000 });
    await screenshot(viewer, 'shared-run-opened-ar', false);
    // The page remembered Arabic (the language cookie, the only cookie this browser has): back to English for what follows.
    expect((await other.cookies()).map((c) => c.name)).toEqual(['LOCKLAB_LOCALE']);
    await other.clearCookies();

    // The sharer deletes it; the link then says the run is gone, and changes nothing more.
    await button(page, 'Delete the shared run').click();
    await expect(page.getByText('The shared run is deleted; its link now says it is gone.')).toBeVisible();
    await viewer.goto(url);
    await expect(viewer.getByTestId('shared-run-problem')).toHaveText('This shared run is gone: whoever shared it deleted it, or the link is wrong.');
    await expect(viewer.getByTestId('verdict')).toHaveCount(0);
    await screenshot(viewer, 'shared-run-gone', false);
    // A malformed id is refused in words, not opened.
    await viewer.goto(url.replace(/[A-Za-z0-9_-]{22}$/, 'not-an-id'));
    await expect(viewer.getByTestId('shared-run-problem')).toHaveText('This is not the link of a shared run: check that the whole link was copied.');
    // The gone link in Norwegian and Arabic.
    await viewer.goto(inLanguage('nb'));
    await expect(viewer.getByTestId('shared-run-problem')).toHaveText('Denne delte kjøringen finnes ikke lenger: den som delte den, slettet den, eller lenken er feil.');
    await viewer.goto(inLanguage('ar'));
    await expect(viewer.getByTestId('shared-run-problem')).toHaveText('لم يعد هذا التشغيل المشترك موجودًا: حذفه من شاركه، أو أن الرابط خاطئ.');
  } finally {
    await other.close();
  }
});

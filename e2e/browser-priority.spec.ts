/**
 * The browser these tests drive runs below the lab server (e2e/support/chromium-below-the-lab.sh), read from
 * /proc: every Chromium process this test worker started is at nice ≥ 10, though Chromium run as root would raise
 * its own; this worker, like the lab server, is not. A learner's browser is on the learner's machine; here it shares
 * the server's cores, and above the lab it made the lab's timing the browser's.
 */
import { expect, test } from '@playwright/test';
import { descendants, procStat } from '../tests/helpers/process-tree';

test('the browser runs below the lab server', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading').first()).toBeVisible();
  const browsers = descendants(process.pid).filter((p) => /chrom/i.test(p.comm));
  // The browser process and at least the page's renderer.
  expect(browsers.length).toBeGreaterThanOrEqual(2);
  for (const p of browsers) expect(p.nice, `${p.comm} (${p.pid})`).toBeGreaterThanOrEqual(10);
  expect(procStat(process.pid)!.nice).toBeLessThan(10);
});

/**
 * The browser these tests drive runs below the lab server (e2e/support/chromium-below-the-lab.sh), read from
 * /proc: every Chromium process this test worker started is at nice ≥ 10, though Chromium run as root would raise
 * its own; this worker, like the lab server, is not. A learner's browser is on the learner's machine; here it shares
 * the server's cores, and above the lab it made the lab's timing the browser's.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';

interface Proc {
  pid: number;
  ppid: number;
  nice: number;
  comm: string;
}

/** A process's name, parent and nice value, from /proc/<pid>/stat (fields 2, 4 and 19); null once it is gone. */
function stat(pid: number): Proc | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') return null;
    throw error;
  }
  const close = text.lastIndexOf(')');
  const rest = text.slice(close + 2).split(' ');
  return { pid, comm: text.slice(text.indexOf('(') + 1, close), ppid: Number(rest[1]), nice: Number(rest[16]) };
}

/** Every live process below `root`. */
function descendants(root: number): Proc[] {
  const all = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => stat(Number(entry)) ?? []);
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (below.has(p.pid) || !below.has(p.ppid)) continue;
      below.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid));
}

test('the browser runs below the lab server', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading').first()).toBeVisible();
  const browsers = descendants(process.pid).filter((p) => /chrom/i.test(p.comm));
  // The browser process and at least the page's renderer.
  expect(browsers.length).toBeGreaterThanOrEqual(2);
  for (const p of browsers) expect(p.nice, `${p.comm} (${p.pid})`).toBeGreaterThanOrEqual(10);
  expect(stat(process.pid)!.nice).toBeLessThan(10);
});

/**
 * One tab walking the course keeps one lab: lesson 1 → the next lessons by
 * their links → lesson 4 (a replicated topology) → the course → the
 * playground, and a reload. The server hands out exactly one lab for it (the
 * `locklab_labs_created_total` counter at /metrics), the same lab id all along, the page
 * working after each move, and nothing of the page left behind showing on
 * the next. Then the browser's share: a third tab while two hold labs is
 * told why in words (screenshot), and gets a lab once one of them closes.
 */
import { expect, test, type Page } from '@playwright/test';
import { button, startAsNewLearner } from './support/learner';

const node = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true });
const nodeState = (page: Page, n: number) => node(page, n).getByTestId('node-state');

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/**
 * Labs handed out by the server so far (the `locklab_labs_created_total` counter at /metrics). Other
 * tests' labs may still be within their grace, so the walk counts what it adds, not what is alive.
 */
async function labsCreated(page: Page): Promise<number> {
  const text = await (await page.request.get('/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith('locklab_labs_created_total '));
  if (!line) throw new Error('no locklab_labs_created_total counter at /metrics');
  return Number(line.split(' ')[1]);
}

const tabLabId = (page: Page) => page.evaluate(() => sessionStorage.getItem('lock-lab:lab-id'));

/** The page's lab is up with these nodes, each shown as "Node n" and up. */
async function labReady(page: Page, nodes: number) {
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`${nodes} ${nodes === 1 ? 'node' : 'nodes'}`, { exact: false }).first()).toBeVisible();
  for (let n = 1; n <= nodes; n++) await expect(nodeState(page, n)).toHaveText('up');
  await expect(node(page, nodes + 1)).toHaveCount(0);
}

test.beforeEach(async ({ page }) => startAsNewLearner(page));

test('one tab walks lesson 1 → lesson 4 → the playground with one lab', async ({ page }) => {
  test.setTimeout(180_000);
  const before = await labsCreated(page);
  const labsOnServer = async () => (await labsCreated(page)) - before;

  await page.goto('/lessons/naive-lock');
  await labReady(page, 1);
  const labId = await tabLabId(page);
  expect(labId).toBeTruthy();
  // Something to leave behind: Node 1 killed on this page.
  await button(page, 'Kill Node 1').click();
  await expect(nodeState(page, 1)).toHaveText('down');
  await expect(page.getByRole('region', { name: 'Recent events' })).toContainText('Node 1');
  await screenshot(page, 'tabs-01-lesson-1-node-killed');

  // Lessons 2 and 3 by their "next" links (client-side navigation), then lesson 4.
  for (const [title, slug] of [
    ['Safe release', 'safe-release'],
    ['TTL and the watchdog', 'ttl-and-watchdog'],
  ] as const) {
    await page.getByRole('link', { name: `${title} →` }).click();
    await expect(page).toHaveURL(new RegExp(`/lessons/${slug}$`));
    await labReady(page, 1);
    expect(await tabLabId(page)).toBe(labId);
    expect(await labsOnServer()).toBe(1);
  }
  // Lesson 2 started clean: the kill on lesson 1 is not listed.
  await expect(page.getByRole('region', { name: 'Recent events' })).not.toContainText('killed');

  await page.getByRole('link', { name: 'One master is a single point of failure →' }).click();
  await expect(page).toHaveURL(/\/lessons\/failover$/);
  await labReady(page, 2);
  await expect(node(page, 2)).toContainText('replica');
  expect(await tabLabId(page)).toBe(labId);
  expect(await labsOnServer()).toBe(1);
  await screenshot(page, 'tabs-02-lesson-4-replicated-same-lab');

  // The course, then the playground.
  await page.getByRole('link', { name: 'Course', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: 'Open the playground' }).click();
  await expect(page).toHaveURL(/\/playground$/);
  await labReady(page, 5);
  expect(await tabLabId(page)).toBe(labId);
  expect(await labsOnServer()).toBe(1);
  await button(page, 'Kill Node 3').click();
  await expect(nodeState(page, 3)).toHaveText('down');

  // A reload re-attaches to the lab as it was.
  await page.reload();
  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  await expect(nodeState(page, 3)).toHaveText('down');
  expect(await tabLabId(page)).toBe(labId);
  expect(await labsOnServer()).toBe(1);
  await screenshot(page, 'tabs-03-playground-after-reload');
});

test('a third tab of a browser holding two labs is told why, and served once one closes', async ({ page, context }) => {
  test.setTimeout(120_000);
  // Each test has its own browser context, so its own cookie: this browser starts with no lab.
  await page.goto('/playground');
  await labReady(page, 5);
  const second = await context.newPage();
  await second.goto('/playground');
  await labReady(second, 5);

  const third = await context.newPage();
  await third.goto('/playground');
  await expect(third.getByText('No lab for this tab right now')).toBeVisible({ timeout: 30_000 });
  // One message, not two that contradict each other: its labs are in the other tabs, and what to do about it.
  await expect(third.getByTestId('lab-elsewhere')).toHaveText(
    "This browser's labs are all open in other tabs. Use one here (it moves from the tab that used it least recently), or close a Lock Lab tab and try again.",
  );
  await expect(third.getByText(/A lab is freed about a minute/)).toHaveCount(0);
  await expect(third.getByText(/^Server:/)).toHaveCount(0);
  await screenshot(third, 'tabs-04-third-tab-refused');

  await second.close();
  // The closed tab's lab is reclaimed for this one once the server has seen it go.
  await expect(async () => {
    await button(third, 'Try again').click();
    await expect(third.getByText('Lab running')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await labReady(third, 5);
  await screenshot(third, 'tabs-05-third-tab-served');
});

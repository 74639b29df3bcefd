/**
 * The playground in a real browser against the production build and real
 * redis-server processes: five nodes come up, and a learner can kill,
 * restart, pause and resume them. A screenshot is saved after each step
 * (test-results/screenshots/) so a person can check what a learner sees.
 */
import { expect, test, type Page } from '@playwright/test';

const node = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true });
const nodeState = (page: Page, n: number) => node(page, n).getByTestId('node-state');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
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

test('the playground shows five live nodes and breaks them on demand', async ({ page }) => {
  const foreign = collectForeignRequests(page);
  await page.goto('/');
  await screenshot(page, '00-home');
  await page.getByRole('link', { name: 'Open the playground' }).click();
  await expect(page).toHaveURL(/\/playground$/);

  await expect(page.getByText('Lab running')).toBeVisible({ timeout: 30_000 });
  for (const n of [1, 2, 3, 4, 5]) await expect(nodeState(page, n)).toHaveText('up');
  await expect(button(page, 'Restart Node 2')).toBeDisabled();
  await screenshot(page, '01-five-nodes-up');

  await button(page, 'Kill Node 2').click();
  await expect(nodeState(page, 2)).toHaveText('down');
  await expect(button(page, 'Restart Node 2')).toBeEnabled();
  await expect(button(page, 'Kill Node 2')).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Recent events' })).toContainText('Node 2');
  await screenshot(page, '02-node-2-killed');

  await button(page, 'Restart Node 2').click();
  await expect(nodeState(page, 2)).toHaveText('up');
  await screenshot(page, '03-node-2-restarted');

  await button(page, 'Pause Node 4').click();
  await expect(nodeState(page, 4)).toHaveText('paused');
  await expect(button(page, 'Resume Node 4')).toBeEnabled();
  await screenshot(page, '04-node-4-paused');

  await button(page, 'Resume Node 4').click();
  await expect(nodeState(page, 4)).toHaveText('up');
  for (const n of [1, 2, 3, 4, 5]) await expect(nodeState(page, n)).toHaveText('up');
  await screenshot(page, '05-node-4-resumed');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '05-node-4-resumed-dark');

  expect(foreign).toEqual([]);
});

test('a reload re-attaches the tab to the same lab, and a delayed restart counts down', async ({ page }) => {
  await page.goto('/playground');
  const labId = page.locator('[data-connection="ready"] code');
  await expect(labId).toHaveText(/\S+/, { timeout: 30_000 });
  const before = await labId.textContent();

  await button(page, 'Kill Node 5').click();
  await expect(nodeState(page, 5)).toHaveText('down');

  await page.reload();
  await expect(labId).toHaveText(before ?? '', { timeout: 30_000 });
  // Same lab: the node killed before the reload is still down.
  await expect(nodeState(page, 5)).toHaveText('down');
  await screenshot(page, '06-after-reload');

  // A delayed restart with a persistence choice: the card says when it comes back.
  const card = node(page, 5);
  // In the instrument panel's tile the restart options sit under "More", with the port and the persistence.
  await card.getByLabel('More about Node 5').click();
  await card.getByText('Restart options').click();
  await card.getByLabel('Persistence').selectOption('aof-always');
  await card.getByLabel('Delay (seconds)').fill('2');
  await card.getByRole('button', { name: 'Restart with these options' }).click();
  await expect(card.getByText(/Restarts in/)).toBeVisible();
  await screenshot(page, '07-delayed-restart-pending');
  await expect(nodeState(page, 5)).toHaveText('up');
  await expect(card).toContainText('AOF, fsync on every write');
  await expect(card.getByText(/Restarts in/)).toHaveCount(0);
  await screenshot(page, '08-delayed-restart-done');
});

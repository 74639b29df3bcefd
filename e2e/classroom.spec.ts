/**
 * A class end to end in two browser contexts (an instructor and a learner)
 * against the production build and real redis-server processes: create a
 * class with the instructor token, a learner joins by name, the instructor
 * kills a node and runs a demo and the learner's page shows both, the roster
 * shows the learner's progress, "follow me", reloads re-join as the same
 * people, and the class ends. Screenshots go to test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';

const TOKEN = process.env.E2E_INSTRUCTOR_TOKEN ?? 'e2e-instructor-token';
const nodeState = (page: Page, n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true }).getByTestId('node-state');
const rosterRow = (page: Page, name: string) => page.getByTestId('roster').locator(`tr[data-learner="${name}"]`);

/** The second lab server (see playwright.config.ts). */
const SERVER_B = process.env.E2E_SERVER_B ?? `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}`;

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

test('an instructor runs a class across two lab servers: a demo reaches the learner live, the roster shows their progress, learners cannot act', async ({ browser }) => {
  test.setTimeout(150_000);
  const teacherContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  // The learner is served by the second lab server: the class's events cross servers through the coordination Redis.
  const learnerContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL: SERVER_B });
  try {
    // The instructor starts a class with the token.
    const teacher = await teacherContext.newPage();
    await teacher.goto('/classroom');
    await teacher.getByLabel('Instructor token').fill(TOKEN);
    await teacher.getByLabel('Class name (optional)').fill('Distributed locks 101');
    await screenshot(teacher, 'classroom-01-start');
    await teacher.getByRole('button', { name: 'Create class' }).click();
    await expect(teacher).toHaveURL(/\/classroom\/[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}\/instructor$/, { timeout: 30_000 });
    await expect(teacher.getByRole('status').filter({ hasText: 'In the class' })).toBeVisible({ timeout: 30_000 });
    await expect(nodeState(teacher, 3)).toHaveText(/up/);
    await expect(teacher.getByRole('button', { name: 'Run demo: GC pause breaks Redlock' })).toBeVisible();
    const code = (await teacher.getByTestId('join-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    await expect(teacher.getByTestId('join-link')).toHaveAttribute('href', `/classroom/${code}`);

    // A learner joins with a name, through the link.
    const learner = await learnerContext.newPage();
    await learner.goto(`/classroom/${code}`);
    await learner.getByLabel('Your name').fill('Ada Lovelace');
    await learner.getByRole('button', { name: 'Join' }).click();
    await expect(learner.getByTestId('watch-note')).toContainText('Your instructor drives this lab');
    await expect(nodeState(learner, 3)).toHaveText(/up/, { timeout: 30_000 });
    await expect(rosterRow(teacher, 'Ada Lovelace')).toHaveAttribute('data-connected', 'true');

    // The learner has no class-wide controls at all.
    await expect(learner.getByRole('button', { name: /^(Kill|Restart|Pause|Resume) Node \d$/ })).toHaveCount(0);
    await expect(learner.getByRole('button', { name: /^Run demo/ })).toHaveCount(0);
    await expect(learner.getByRole('button', { name: /^(End class|Move everyone there|Stop)$/ })).toHaveCount(0);
    await screenshot(learner, 'classroom-02-learner-joined');

    // The instructor kills Node 3: the learner's card reads `down` within 1 s.
    await teacher.getByRole('button', { name: 'Kill Node 3', exact: true }).click();
    await expect(nodeState(learner, 3)).toHaveText(/down/, { timeout: 1_000 });
    await expect(nodeState(teacher, 3)).toHaveText(/down/);

    // A one-click demo with a seed: the learner sees it start and its verdict.
    await teacher.getByLabel('Seed').fill('7');
    await teacher.getByRole('button', { name: 'Run demo: GC pause breaks Redlock' }).click();
    await expect(learner.getByTestId('current-demo')).toContainText('GC pause breaks Redlock', { timeout: 30_000 });
    await expect(learner.getByTestId('current-demo')).toContainText('seed 7');
    // A demo starts from a clean lab: Node 3 is back for it.
    await expect(nodeState(learner, 3)).toHaveText(/up/, { timeout: 30_000 });
    const teacherVerdict = teacher.getByTestId('verdict');
    await expect(teacherVerdict).toHaveAttribute('data-final', 'true', { timeout: 45_000 });
    await expect(teacherVerdict).toHaveAttribute('data-valid', 'violated');
    const learnerVerdict = learner.getByTestId('verdict');
    await expect(learnerVerdict).toHaveAttribute('data-final', 'true', { timeout: 1_000 });
    await expect(learnerVerdict).toHaveAttribute('data-valid', 'violated', { timeout: 1_000 });
    await screenshot(learner, 'classroom-03-learner-demo-verdict');
    await teacher.evaluate(() => window.scrollTo(0, 0));
    await screenshot(teacher, 'classroom-04-instructor-demo');

    // The learner reads a lesson in another tab: the class tab reports it, and the roster shows it.
    const lesson = await learnerContext.newPage();
    await lesson.goto('/lessons/naive-lock');
    const marker = lesson.getByTestId('read-marker');
    await marker.scrollIntoViewIfNeeded();
    await expect(marker).toHaveAttribute('data-read', 'true', { timeout: 10_000 });
    await expect(rosterRow(teacher, 'Ada Lovelace').getByTestId('lessons-read')).toHaveText(/^1\/\d+$/, { timeout: 10_000 });
    await expect(learner.getByTestId('my-progress')).toContainText('1 of');
    await lesson.close();

    // "Follow me": the learner gets a banner with a link to the lesson and scenario.
    await teacher.getByLabel('Lesson').selectOption({ label: 'The naive lock' });
    await teacher.getByLabel('Scenario').selectOption({ label: 'Break it: the holder crashes' });
    await teacher.getByRole('button', { name: 'Move everyone there' }).click();
    const banner = learner.getByTestId('follow-banner');
    await expect(banner).toContainText('The naive lock', { timeout: 1_000 });
    await expect(banner.getByRole('link')).toHaveAttribute('href', '/lessons/naive-lock?scenario=holder-crash');
    await screenshot(learner, 'classroom-05-learner-follow');
    // The link opens the lesson with that scenario picked, ready to run.
    const followed = await learnerContext.newPage();
    await followed.goto((await banner.getByRole('link').getAttribute('href')) ?? '');
    await expect(followed.getByLabel('Scenario')).toHaveValue('holder-crash');
    await followed.close();

    // Reloads re-join as the same people: one roster entry, still connected, progress kept.
    await learner.reload();
    await expect(learner.getByTestId('watch-note')).toBeVisible({ timeout: 30_000 });
    // The demo ended before this join: its end is read from the history, not shown as still running.
    await expect(learner.getByTestId('verdict')).toHaveAttribute('data-final', 'true');
    await expect(learner.getByTestId('verdict')).toHaveAttribute('data-valid', 'violated');
    await teacher.reload();
    await expect(teacher.getByRole('status').filter({ hasText: 'In the class' })).toBeVisible({ timeout: 30_000 });
    await expect(teacher.getByTestId('roster').locator('tbody tr')).toHaveCount(1);
    await expect(rosterRow(teacher, 'Ada Lovelace')).toHaveAttribute('data-connected', 'true');
    await expect(rosterRow(teacher, 'Ada Lovelace').getByTestId('lessons-read')).toHaveText(/^1\/\d+$/);
    // The "Follow me" form comes back showing where the class is, not the first lesson's defaults.
    await expect(teacher.getByLabel('Scenario')).toHaveValue('holder-crash');
    await screenshot(teacher, 'classroom-06-instructor-roster');

    // On a projector.
    await teacher.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(teacher, 'classroom-07-instructor-projector');
    await learner.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(learner, 'classroom-08-learner-1080');

    // The instructor ends the class; the learner is told.
    await teacher.getByRole('button', { name: 'End class' }).click();
    await teacher.getByRole('button', { name: 'End it now' }).click();
    await expect(learner.getByRole('alert').filter({ hasText: 'The class is over' })).toBeVisible({ timeout: 5_000 });
    await expect(teacher.getByRole('alert').filter({ hasText: 'The class is over' })).toBeVisible();
  } finally {
    await teacherContext.close();
    await learnerContext.close();
  }
});

test('the instructor removes a learner, leaves and comes back: the learner is told each time, and the console reopens without the token', async ({ browser }) => {
  test.setTimeout(120_000);
  const teacherContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const learnerContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const otherContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const teacher = await teacherContext.newPage();
    await teacher.goto('/classroom');
    await teacher.getByLabel('Instructor token').fill(TOKEN);
    await teacher.getByLabel('Class name (optional)').fill('Moderated class');
    await teacher.getByRole('button', { name: 'Create class' }).click();
    await expect(teacher.getByRole('status').filter({ hasText: 'In the class' })).toBeVisible({ timeout: 30_000 });
    const code = (await teacher.getByTestId('join-code').textContent())?.trim() ?? '';
    // The browser now holds the instructor cookie, out of the page scripts' reach.
    const cookie = (await teacherContext.cookies()).find((c) => c.name === 'locklab_instructor');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(TOKEN);

    const learner = await learnerContext.newPage();
    await learner.goto(`/classroom/${code}`);
    await learner.getByLabel('Your name').fill('Ada Lovelace');
    await learner.getByRole('button', { name: 'Join' }).click();
    await expect(nodeState(learner, 3)).toHaveText(/up/, { timeout: 30_000 });
    const other = await otherContext.newPage();
    await other.goto(`/classroom/${code}`);
    await other.getByLabel('Your name').fill('Mallory');
    await other.getByRole('button', { name: 'Join' }).click();
    await expect(rosterRow(teacher, 'Mallory')).toHaveAttribute('data-connected', 'true', { timeout: 30_000 });

    // The instructor closes their tab: the learners are told, and until when the class stays open.
    await teacher.close();
    const notice = learner.getByTestId('instructor-notice');
    await expect(notice).toContainText('The instructor left. The class stays open until', { timeout: 10_000 });
    await screenshot(learner, 'classroom-09-learner-instructor-left');

    // Reopening the console in that browser does not ask for the token: the cookie proves the instructor.
    const reopened = await teacherContext.newPage();
    await reopened.goto(`/classroom/${code}/instructor`);
    await expect(reopened.getByRole('status').filter({ hasText: 'In the class' })).toBeVisible({ timeout: 30_000 });
    await expect(reopened.getByLabel('Instructor token')).toHaveCount(0);
    await expect(notice).toHaveText('The instructor is back.', { timeout: 10_000 });

    // The instructor removes Mallory: her page says so and leaves the class; a reload does not take her back in.
    await reopened.getByRole('button', { name: 'Remove Mallory' }).click();
    await expect(other.getByRole('alert').filter({ hasText: 'You were removed from the class' })).toBeVisible({ timeout: 10_000 });
    await expect(other.getByRole('alert').filter({ hasText: 'The instructor removed you from this class' })).toBeVisible();
    await expect(rosterRow(reopened, 'Mallory')).toHaveAttribute('data-removed', 'true');
    await expect(reopened.getByRole('button', { name: 'Allow Mallory back' })).toBeVisible();
    await expect(rosterRow(reopened, 'Ada Lovelace')).toHaveAttribute('data-connected', 'true');
    await screenshot(other, 'classroom-10-learner-removed');
    await reopened.evaluate(() => document.querySelector('[data-testid="roster"]')?.scrollIntoView());
    await screenshot(reopened, 'classroom-11-instructor-roster-removed');
    await other.reload();
    await other.getByLabel('Your name').fill('Mallory again');
    await other.getByRole('button', { name: 'Join' }).click();
    await expect(other.getByRole('alert').filter({ hasText: 'The instructor removed you from this class' })).toBeVisible({ timeout: 10_000 });
    await expect(rosterRow(reopened, 'Mallory again')).toHaveCount(0);
  } finally {
    await teacherContext.close();
    await learnerContext.close();
    await otherContext.close();
  }
});

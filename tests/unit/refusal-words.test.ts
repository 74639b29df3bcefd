/**
 * The server's refusals as data: each English rendering is the sentence the server always sent (logs, tests
 * and old pages read `message`), and each key renders in Arabic and Norwegian with its values in place.
 */
import { describe, expect, it } from 'vitest';
import ar from '@/messages/ar/refusals.json';
import nb from '@/messages/nb/refusals.json';
import arChecker from '@/messages/ar/checker.json';
import nbChecker from '@/messages/nb/checker.json';
import arDemos from '@/messages/ar/demos.json';
import nbDemos from '@/messages/nb/demos.json';
import { english as catalogue } from '@/messages/catalogue';
import { linkWords, refusal, type RefusalKey } from '@/lib/refusal-words';
import { LabOperationError, fail, toFailure } from '@/lib/result';
import { render, words, type WordValue } from '@/lib/words';
import { BUILTIN_DEMO_KEYS } from '@/lib/classroom';
import { programFaultRefusal, programFaultRefusalWords } from '@/lib/faults/client-words';

const CATALOGUES = {
  ar: { checker: arChecker, refusals: ar, demos: arDemos },
  nb: { checker: nbChecker, refusals: nb, demos: nbDemos },
} as const;

/** Every refusal the server words, with representative values and the English it has always sent. */
const REFUSALS: [key: RefusalKey, values: Record<string, WordValue>, english: string][] = [
  ['lab.closed', {}, 'This lab has been closed'],
  ['lab.noNode', { node: { node: 7 }, n: 5 }, 'Node 7 does not exist in this lab (it has 5 nodes)'],
  ['lab.noMonitor', { node: { node: 7 } }, 'Node 7 does not exist in this lab'],
  ['lab.full', { max: 40 }, 'The lab server is full (40 labs running). Try again in a few minutes.'],
  ['lab.noDescriptors', {}, 'The lab server is down to the file descriptors it keeps for its own pages and sockets, so it cannot start another lab now. Try again in a few minutes.'],
  ['lab.shuttingDown', {}, 'The lab server is shutting down'],
  ['lab.perBrowser', { limit: 1 }, 'This browser already has 1 lab open in other tabs; close one and try again.'],
  ['lab.perBrowser', { limit: 3 }, 'This browser already has 3 labs open in other tabs; close one and try again.'],
  ['lab.takeBusy', { labs: 2 }, 'Every lab of this browser (2) has a run or a check going in another tab, and a lab never leaves a tab mid-run. Try again when one finishes, or close a Lock Lab tab.'],
  ['lab.noLab', {}, 'Join a lab first (lab:join); this socket has none'],
  ['lab.classroomLab', {}, 'That lab belongs to a classroom: join the classroom (classroom:join) to watch it'],
  ['node.restartNotDown', { node: { node: 2 }, state: 'up' }, 'Node 2 is up; kill it before restarting it'],
  ['node.restartNotDown', { node: { node: 2 }, state: 'paused' }, 'Node 2 is paused; kill it before restarting it'],
  ['node.restartPending', { node: { node: 2 } }, 'Node 2 already has a restart pending'],
  ['node.clockJumpNotUp', { node: { node: 4 }, state: 'down' }, 'Node 4 is down; a clock jump needs it up'],
  ['node.alreadyRunning', { node: { node: 1 } }, 'Node 1 is already running'],
  ['node.alreadyDown', { node: { node: 3 } }, 'Node 3 is already down'],
  ['node.notUp', { node: { node: 3 }, state: 'paused' }, 'Node 3 is paused, not up'],
  ['node.notPaused', { node: { node: 3 }, state: 'up' }, 'Node 3 is up, not paused'],
  ['node.wipeNotDown', { node: { node: 3 } }, 'Node 3 must be down to wipe its data'],
  ['node.replicaNotUp', { node: { node: 2 }, state: 'down' }, 'Node 2 is down; it must be up to be promoted'],
  ['link.alreadyCut', { link: { words: linkWords(2, 3) }, mode: 'refuse' }, 'Client 2 → Node 3 is already cut (refuse)'],
  ['link.alreadyCut', { link: { words: words('refusals.link.replication', { master: { node: 1 }, replica: { node: 2 } }) }, mode: 'blackhole' }, 'Node 1 → Node 2 replication is already cut (blackhole)'],
  ['link.notCut', { link: { words: linkWords(1, 5) } }, 'Client 1 → Node 5 is not cut'],
  ['link.closed', { link: { words: linkWords(1, 5) } }, 'Client 1 → Node 5 is closed'],
  ['link.processStopped', { how: 'killed by SIGKILL' }, "The lab server's link process stopped (killed by SIGKILL); try again."],
  ['replication.ended', {}, 'Replication has ended (the replica was promoted)'],
  ['replication.none', {}, 'This lab has no replica: use the replicated topology (Node 1 master, Node 2 replica)'],
  ['client.noProgram', {}, 'No program is running: press Run first'],
  ['client.notInRun', { client: { client: 4 }, n: 3 }, 'Client 4 is not part of this run (it has 3 clients)'],
  ['client.notInThisRun', { client: { client: 4 } }, 'Client 4 is not part of this run'],
  ['client.ended', { client: { client: 2 } }, 'Client 2 has already ended'],
  ['client.alreadyPaused', { client: { client: 2 } }, 'Client 2 is already paused'],
  ['client.notPaused', { client: { client: 2 } }, 'Client 2 is not paused'],
  ['client.noSuchClient', { client: { client: 9 }, n: 3 }, 'Client 9 does not exist: this lab has 3 clients'],
  ['run.gone', { runId: 'r-12' }, 'Run r-12 is neither running nor the last one to end'],
  ['run.left', {}, 'You left the page this was running for, so it stopped.'],
  ['run.replaced', {}, 'This run was replaced by a newer one, or stopped, before it started.'],
  ['run.notRunning', {}, 'No program is running: there is no breakpoint to continue from.'],
  ['run.budget', { cost: 512, budget: 256 }, 'This run would reserve 512 MB, more than the 256 MB the server has for all runs: use fewer clients.'],
  ['run.queueFull', { n: 12 }, 'The server is running as many programs as it can and 12 more are waiting; try again in a minute.'],
  ['run.waitedTooLong', { seconds: 30 }, "The server was busy with other learners' programs for 30 s, so yours did not start; press Run again."],
  ['run.poolClosed', {}, 'The sandbox pool is closed.'],
  ['run.poolFull', { max: 8 }, 'The server is running 8 programs already; try again shortly.'],
  ['run.clients', { max: 10, n: 11 }, 'A run has 1 to 10 clients (got 11).'],
  ['run.tooLong', { n: 200001, max: 200000 }, 'The program is too long (200001 characters; at most 200000).'],
  ['run.noSandbox', {}, 'This server runs no learner code (its sandbox is off)'],
  ['run.doesNotCompile', { error: 'SyntaxError: unexpected token' }, 'The program does not compile: SyntaxError: unexpected token'],
  ['run.experimentDoesNotCompile', { error: 'SyntaxError' }, "The experiment's program does not compile: SyntaxError"],
  ['run.yielded', { seconds: 12 }, "Stopped after 12 s to let another learner's program start: the server's run budget was full. Press Run again to run it once there is room."],
  ['run.laneStopped', { action: 'Check my solution' }, 'A run of "Check my solution" was stopped (another run started?), so it stopped. Press "Check my solution" again.'],
  ['run.laneStopped', { action: 'Explore' }, 'A run of "Explore" was stopped (another run started?), so it stopped. Press "Explore" again.'],
  ['lesson.none', { slug: 'nope' }, 'There is no lesson "nope"'],
  ['lesson.notLoaded', { error: 'bad front matter' }, 'The lessons could not be loaded: bad front matter'],
  ['lesson.noScenario', { lesson: 'redlock', scenario: 'x' }, 'Lesson "redlock" has no scenario "x"'],
  ['lesson.noBuiltinDemo', { name: 'x' }, 'There is no built-in demo "x"'],
  ['limit.lab', { ms: 120 }, 'Too many commands on this lab from all its tabs together: wait 120 ms and try again'],
  ['limit.tab', { ms: 120 }, 'Too many lab commands from this tab: wait 120 ms and try again'],
  ['limit.classroom', { ms: 120 }, 'Too many actions from this tab: wait 120 ms and try again'],
  ['limit.flood', { refused: 21, seconds: 10 }, 'This tab kept sending lab commands after being told to slow down (21 refused in 10 s), so the lab server disconnected it. Reload the page to carry on.'],
  ['identity.required', {}, 'This page has not proved it runs in a browser yet, so the lab server did not connect it; reload the page.'],
  ['identity.rejected', {}, 'That proof of work does not hold; reload the page to get a new one.'],
  ['identity.expired', {}, 'That proof of work came too late (its challenge had expired); reload the page.'],
  ['sharedRuns.tooBig', { size: 23, limit: 20 }, 'This run is 23 MB; a shared run may be at most 20 MB. Share a shorter run, or export it as a file.'],
  ['sharedRuns.perBrowserRuns', { limit: 1 }, 'This browser already shares 1 run, as many as it may keep; delete one and share again.'],
  ['sharedRuns.perBrowserRuns', { limit: 50 }, 'This browser already shares 50 runs, as many as it may keep; delete one and share again.'],
  ['sharedRuns.perBrowserBytes', { used: 45, limit: 50 }, "This browser's shared runs already take 45 MB of the 50 MB it may keep; delete one and share again."],
  ['sharedRuns.total', {}, 'The lab server has no room for more shared runs; export this run as a file instead.'],
  ['sharedRuns.notARun', {}, 'What was sent is not a run exported from Lock Lab, so nothing was shared.'],
  ['sharedRuns.badId', {}, 'This is not the link of a shared run: check that the whole link was copied.'],
  ['sharedRuns.gone', {}, 'This shared run is gone: whoever shared it deleted it, or the link is wrong.'],
  ['sharedRuns.notYours', {}, 'Only the browser that shared this run may delete it.'],
  ['sharedRuns.noStore', {}, 'This lab server keeps no shared runs (it runs without a store); export the run as a file instead.'],
  ['sharedRuns.origin', {}, 'A page of another site may not share or delete runs here.'],
  ['lab.waitedTooLong', { max: 66, seconds: 60 }, 'The lab server is full (66 labs) and no lab came free within 60 s. Try again in a few minutes.'],
  ['limit.sockets', { cap: 20 }, 'This browser already has 20 connections to the lab server open; close some Lock Lab tabs and reload this one.'],
  ['classroom.none', { code: 'K7M2Q-9XR4T-HB3WZ' }, 'There is no classroom K7M2Q-9XR4T-HB3WZ (it may have ended)'],
  ['classroom.notAnswering', { code: 'K7M2Q' }, 'The server running classroom K7M2Q is not answering (it may have stopped)'],
  ['classroom.joinFirst', {}, 'Join a classroom first (classroom:join)'],
  ['classroom.onlyInstructor', { action: 'classroom:demo' }, "Only the instructor may use classroom:demo; learners watch the classroom's lab"],
  ['classroom.onlyLearners', {}, 'Only learners report progress'],
  ['classroom.wrongToken', {}, 'That is not the instructor token'],
  ['classroom.full', { max: 60 }, 'This classroom is full: it has its 60 learners. Ask the instructor.'],
  ['classroom.noLearner', {}, 'There is no such learner in this class'],
  ['classroom.removed', {}, 'The instructor removed you from this class; ask them if you should be in it.'],
  ['classroom.notRemembered', {}, 'This browser is not remembered as the instructor: give the instructor token'],
  ['closed.destroyed', {}, 'destroyed'],
  ['closed.failedToStart', {}, 'failed to start'],
  ['closed.madeRoom', {}, 'made room for a new lab'],
  ['closed.reclaimed', {}, 'reclaimed: this browser opened another lab'],
  ['closed.idle', {}, 'closed after being idle with no tab connected'],
  ['closed.yieldedNoTab', {}, 'closed to make room for a learner waiting at a full server: no tab was attached to it'],
  ['closed.yieldedIdle', { seconds: 45 }, 'closed to make room for a learner waiting at a full server: nothing had happened in it for 45 s. Reload the page to get a lab again.'],
  ['closed.checkEnded', {}, 'a check of a solution ended'],
  ['closed.shuttingDown', {}, 'the lab server is shutting down'],
  ['closed.classroomEnded', { code: 'K7M2Q', reason: { words: words('refusals.ended.byInstructor') } }, 'classroom K7M2Q ended: the instructor ended the class'],
  ['ended.notRecorded', {}, 'it could not be recorded'],
  ['ended.shuttingDown', {}, 'its server is shutting down'],
  ['ended.labClosed', {}, 'its lab was closed'],
  ['ended.byInstructor', {}, 'the instructor ended the class'],
  ['ended.expired', {}, 'its record expired'],
  ['ended.idleMinutes', { n: 30 }, 'nothing happened for 30 minutes'],
  ['ended.idleSeconds', { n: 90 }, 'nothing happened for 90 s'],
  ['ended.instructorGoneMinutes', { n: 15 }, 'the instructor left and did not come back within 15 minutes'],
  ['ended.instructorGoneSeconds', { n: 90 }, 'the instructor left and did not come back within 90 s'],
];

describe('the server refusals', () => {
  it.each(REFUSALS)('%s says in English what the server always said', (key, values, english) => {
    const said = refusal(key, values);
    expect(said.message).toBe(english);
    expect(said.words).toEqual({ key: `refusals.${key}`, values });
  });

  describe.each(['ar', 'nb'] as const)('in %s', (locale) => {
    it.each(REFUSALS)('%s renders with its values and none of the English', (key, values, english) => {
      const text = render(words(`refusals.${key}`, values), locale, CATALOGUES[locale]);
      expect(text).not.toBe(english);
      expect(text).not.toMatch(/[{}]/);
      // Every number the English says, the translation says too (counts, limits, waits).
      for (const n of english.match(/\d+/g) ?? []) expect(text).toContain(n);
    });

    it('names a node state in its own words', () => {
      const text = render(words('refusals.node.restartNotDown', { node: { node: 2 }, state: 'paused' }), locale, CATALOGUES[locale]);
      expect(text).not.toContain('paused');
    });
  });

  it('covers every refusal of the catalogue', () => {
    const tested = new Set<string>(REFUSALS.map(([key]) => key));
    const all = Object.entries(catalogue.refusals)
      .filter(([group]) => group !== 'command')
      .flatMap(([group, keys]) => Object.keys(keys).map((k) => `${group}.${k}`))
      .filter((k) => k !== 'link.name' && k !== 'link.replication');
    expect(all.filter((k) => !tested.has(k))).toEqual([]);
  });
});

describe('a LabError with words', () => {
  it('keeps its English message and carries the words (thrown or failed)', () => {
    const said = refusal('node.alreadyDown', { node: { node: 3 } });
    expect(toFailure(new LabOperationError('conflict', said))).toEqual({ ok: false, error: { code: 'conflict', message: 'Node 3 is already down', words: said.words } });
    expect(fail('conflict', said)).toEqual({ ok: false, error: { code: 'conflict', message: 'Node 3 is already down', words: said.words } });
  });

  it('is as before when it has only English', () => {
    expect(new LabOperationError('invalid-input', 'Invalid input: x', [{ path: 'x', message: 'Required' }]).toLabError()).toEqual({
      code: 'invalid-input',
      message: 'Invalid input: x',
      issues: [{ path: 'x', message: 'Required' }],
    });
    expect(fail('internal', 'boom')).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });

  it('a refusal of a fault on the program says the same in both forms', () => {
    const fault = { action: 'client-resume', client: 2 } as const;
    expect(programFaultRefusal(fault, { ended: false, paused: false })).toBe('Client 2 is not paused');
    expect(programFaultRefusalWords(fault, { ended: false, paused: false })?.words.key).toBe('refusals.client.notPaused');
    expect(programFaultRefusal(fault, { ended: false, paused: true })).toBeNull();
  });
});

describe('the built-in demos', () => {
  it.each(Object.values(BUILTIN_DEMO_KEYS))('%s has its title and description in every language', (key) => {
    for (const part of ['title', 'description', 'scenario'] as const) {
      const english = render(words(`demos.builtin.${key}.${part}`), 'en', catalogue);
      for (const locale of ['ar', 'nb'] as const) expect(render(words(`demos.builtin.${key}.${part}`), locale, CATALOGUES[locale])).not.toBe(english);
    }
  });
});

/**
 * The grader's and the run's own sentences as data: the command trace, an expectation not met, "not decided"
 * and the lab's notes in a run's console. The English `message` is the English rendering of the same words
 * (logs and run files read it), and each reads in Arabic and Norwegian with the commands, clients and times
 * written for the language. A note's words survive a run file; a run file without them (or with broken ones)
 * still opens, in English.
 */
import { describe, expect, it } from 'vitest';
import { consoleLines } from '@/components/clients/client-states';
import type { RunData } from '@/components/lab/run-state';
import { parseRunFile, recordRun } from '@/components/workspace/run-file';
import { check, unmetExpectationSaid } from '@/lib/checker';
import { english } from '@/lib/checker/said';
import type { HistoryEvent } from '@/lib/history';
import { keysOf, render, words, type MessageKey, type Words, type WordsCatalogue } from '@/lib/words';
import { missingFollowerSaid, splitCallSaid } from '@/server/grading/command-trace';
import { BUSY_MESSAGE, BUSY_SAID } from '@/server/grading/disturbance';
import { historyCutSaid } from '@/server/runs/history-cut';
import { clampLimits } from '@/server/runs/run-limits';
import { callBegins, callEnds } from '@/server/grading/probe-program';
import { loadAllLessons } from '@/lib/lessons/load';
import { triggerSchema, type ScenarioStep, type Trigger } from '@/lib/scenario';
import { neverFiredWords, stepWords, triggerWords } from '@/lib/scenario-words';
import { describeSchedule, describeSpace, generateSchedule, kindsFor } from '@/lib/schedules';
import { describeScheduleWords } from '@/lib/schedules/describe';
import { learnerDeclarations } from '@/server/grading/learner-declarations';
import { LIMIT_WORDS } from '@/server/sandbox/worker/limit-words';
import { describeSpaceWords } from '@/lib/schedules/space-words';
import { catalogueOf } from './helpers/intl';
import { everyFault, MASTERS, REPLICATED } from './schedules-fixtures';
import { history } from './helpers/history-builder';

const CATALOGUES: Record<'en' | 'ar' | 'nb', WordsCatalogue> = { en: catalogueOf('en'), ar: catalogueOf('ar'), nb: catalogueOf('nb') };
const inAll = (said: Words) => ({ en: render(said, 'en', CATALOGUES.en), ar: render(said, 'ar', CATALOGUES.ar), nb: render(said, 'nb', CATALOGUES.nb) });
/** Arabic isolates a time or a name from code; the tests read the text without the marks. */
const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

let seq = 0;
const ev = (t: number, e: Record<string, unknown>): HistoryEvent => ({ seq: seq++, t, runId: 'r', ...e }) as HistoryEvent;
const log = (t: number, client: number, text: string) => ev(t, { type: 'console', client, level: 'info', text });
const cmd = (t: number, client: number, command: string) => ev(t, { type: 'redis', phase: 'invoke', opId: seq, client, node: 1, command, args: ['lock:x'] });

/** Client 1's release() as `commands`, at 10 ms, 20 ms, … */
function call(commands: string[]): HistoryEvent[] {
  return [log(0, 1, callBegins('release')), ...commands.map((c, i) => cmd(10 * (i + 1), 1, c)), log(1000, 1, callEnds('release'))];
}

describe('the command trace as words', () => {
  it('says the commands of a split call, their times in each language', () => {
    const said = splitCallSaid(call(['GET', 'DEL']), 'release', 0)!;
    expect(said.message).toBe(
      "Client 1's release() was 2 commands: GET at 10 ms, DEL at 20 ms. Between them another client can act on the lock; one command or one Lua script cannot be interleaved.",
    );
    expect(english(said.words)).toBe(said.message);
    const { ar, nb } = inAll(said.words);
    expect(plain(ar)).toContain('release() لدى العميل 1');
    expect(plain(ar)).toContain('أمرين: GET عند 10 ms، DEL عند 20 ms');
    expect(nb).toContain('release() hos Klient 1 var 2 kommandoer: GET ved 10 ms, DEL ved 20 ms.');
  });

  it('writes a time past a second as the lab clock does, with the language\'s decimal mark', () => {
    const events = [log(0, 1, callBegins('release')), cmd(12, 1, 'GET'), cmd(1240, 1, 'DEL'), log(1300, 1, callEnds('release'))];
    const said = splitCallSaid(events, 'release', 0)!;
    expect(said.message).toContain('GET at 12 ms, DEL at 1.24 s.');
    expect(inAll(said.words).nb).toContain('DEL ved 1,24 s.');
  });

  it('quotes four commands and counts the rest, in each language\'s plural', () => {
    const five = splitCallSaid(call(['GET', 'GET', 'GET', 'GET', 'DEL']), 'release', 0)!;
    expect(five.message).toContain('was 5 commands: GET at 10 ms, GET at 20 ms, GET at 30 ms, GET at 40 ms, and 1 more.');
    const seven = splitCallSaid(call(['GET', 'GET', 'GET', 'GET', 'DEL', 'DEL', 'DEL']), 'release', 0)!;
    expect(seven.message).toContain('GET at 40 ms, and 3 more.');
    expect(inAll(five.words).nb).toContain(', og 1 til.');
    expect(inAll(seven.words).nb).toContain(', og 3 til.');
    expect(plain(inAll(five.words).ar)).toContain('، وأمر آخر.');
    expect(plain(inAll(seven.words).ar)).toContain('، و3 أوامر أخرى.');
    // Four commands or fewer: no "more" at all.
    expect(splitCallSaid(call(['GET', 'GET', 'GET', 'DEL']), 'release', 0)!.message).not.toContain('more');
  });

  it('says a command that did not follow, with the lesson\'s why as a sentence or as words', () => {
    const events = [log(0, 1, callBegins('acquire')), cmd(12, 1, 'WAIT'), cmd(13, 1, 'SET'), log(20, 1, callEnds('acquire'))];
    const rule = { after: 'SET', command: 'WAIT', why: 'Send the WAIT after the SET.' };
    const said = missingFollowerSaid(events, 'acquire', 0, rule)!;
    expect(said.message).toBe("Client 1's acquire() sent WAIT at 12 ms, SET at 13 ms: no WAIT after the SET. Send the WAIT after the SET.");
    expect(inAll(said.words).nb).toBe('acquire() hos Klient 1 sendte WAIT ved 12 ms, SET ved 13 ms: ingen WAIT etter SET. Send the WAIT after the SET.');
    // A why already in the page's language is said as it is.
    const localized = missingFollowerSaid(events, 'acquire', 0, { ...rule, why: 'Send WAIT etter SET.' })!;
    expect(inAll(localized.words).nb).toMatch(/ingen WAIT etter SET\. Send WAIT etter SET\.$/);
    // A why as words is rendered in the page's language.
    const asWords = missingFollowerSaid(events, 'acquire', 0, { ...rule, why: words('judging.unmet.noStaleRejected') })!;
    expect(asWords.message).toMatch(/no WAIT after the SET\. no stale write was rejected by the fenced store$/);
    expect(inAll(asWords.words).nb).toMatch(/lageret avviste ingen utdatert skriving$/);
  });
});

describe('an expectation not met, as words', () => {
  const overlap = check(history().at(0).start(1).start(2).at(1000).enter(1).at(1240).enter(2).at(1300).exit(1).at(1350).exit(2).events, { final: true });

  it('says the verdict and the checks that made it, in English as before and in each language', () => {
    const said = unmetExpectationSaid(overlap, { verdict: 'held' })!;
    expect(said.message).toBe('the verdict is violated (mutual-exclusion), not held');
    expect(english(said.words)).toBe(said.message);
    const { ar, nb } = inAll(said.words);
    expect(nb).toBe('dommen er brutt (gjensidig utelukkelse), ikke holdt');
    expect(ar).toBe('الحكم انتُهك (الاستبعاد المتبادل)، لا صمد');
  });

  it('says a missing diagnosis with what was found, and a store that refused nothing', () => {
    const diagnosis = unmetExpectationSaid(overlap, { verdict: 'violated', diagnosis: 'ttl-shorter-than-job' })!;
    expect(diagnosis.message).toMatch(/^no "ttl-shorter-than-job" diagnosis \(found: |^the root cause named is "/);
    expect(english(diagnosis.words)).toBe(diagnosis.message);
    expect(inAll(diagnosis.words).nb).toMatch(/ttl-shorter-than-job/);
    const fenced = unmetExpectationSaid(overlap, { verdict: 'violated', savedByFencing: true })!;
    expect(fenced.message).toBe('no stale write was rejected by the fenced store');
    expect(inAll(fenced.words).ar).toBe('لم يرفض المخزن المسيَّج أي كتابة قديمة');
  });
});

describe('"not decided" as words', () => {
  it('keeps the English answer older pages read, and says it in each language', () => {
    expect(BUSY_MESSAGE).toMatch(/^The server was too busy to judge this fairly: .* Nothing was decided\. Try again in a minute\.$/);
    expect(english(BUSY_SAID.words)).toBe(BUSY_MESSAGE);
    expect(inAll(BUSY_SAID.words).nb).toMatch(/^Serveren var for opptatt/);
    expect(inAll(BUSY_SAID.words).ar).toMatch(/^كان الخادم مشغولًا جدًا/);
  });
});

describe("the lab's notes in a run's console", () => {
  it('says a clamped limit and a history cut as words, the English unchanged', () => {
    const { notes, noteWords } = clampLimits({ wallClockMs: 120_000 }, { wallClockMs: 30_000 } as Parameters<typeof clampLimits>[1]);
    expect(notes[0]).toBe('This run asked for 120000 as its wall-clock time per client (ms); the server allows at most 30000, so it runs with 30000.');
    expect(english(noteWords[0]!)).toBe(notes[0]);
    expect(inAll(noteWords[0]!).nb).toBe('Denne kjøringen ba om 120000 som veggklokketid per klient (ms); serveren tillater høyst 30000, så den kjører med 30000.');
    const cut = historyCutSaid({ events: 50_001, bytes: 1 }, { runEvents: 50_000, runBytes: 8 * 1024 * 1024 });
    expect(cut.message).toBe('This run produced more than 50,000 history events (the limit per run), so it was stopped.');
    expect(inAll(cut.words).nb).toMatch(/^Denne kjøringen laget mer enn 50\s000 hendelser/);
  });

  const ended = words('runNotes.endedEarly', { reason: { words: words('runNotes.crashed') } });
  const limit = words('runNotes.atLine', { limit: { words: words('runNotes.consoleLimit', { client: { client: 2 }, kb: '64' }) }, line: '7' });
  const events: HistoryEvent[] = [
    ev(10, { type: 'client', client: 1, event: 'start' }),
    log(20, 1, 'lab.log: my own line'),
    ev(30, { type: 'console', client: 0, level: 'info', text: english(ended), words: ended }),
    ev(40, { type: 'client', client: 2, event: 'error', detail: english(limit), detailWords: limit }),
    ev(50, { type: 'client', client: 1, event: 'error', detail: 'TypeError: x is not a function' }),
  ];
  const run = { code: 'x', scenario: null, checker: null, info: null, verdict: null, ended: null } as unknown as RunData;

  it('keeps a note\'s words through a run file, and renders them in the page\'s language', () => {
    const file = JSON.stringify(recordRun({ lesson: 'l', run, history: events }));
    const parsed = parseRunFile(file);
    if (!parsed.ok) throw new Error(parsed.message);
    const lines = consoleLines(parsed.run.history);
    expect(lines.map((l) => l.text)).toEqual([
      'lab.log: my own line',
      'The run was ended early: its outcome could no longer change (crashed).',
      'Client 2 printed more than 64 KB of console output, so the run was stopped. It was at line 7.',
      'TypeError: x is not a function',
    ]);
    // The program's own words carry no words: never translated.
    expect(lines[0]!.words).toBeUndefined();
    expect(lines[3]!.words).toBeUndefined();
    expect(render(lines[1]!.words!, 'nb', CATALOGUES.nb)).toBe('Kjøringen ble avsluttet tidlig: utfallet kunne ikke lenger endre seg (krasjet).');
    expect(plain(render(lines[2]!.words!, 'ar', CATALOGUES.ar))).toBe('طبع العميل 2 أكثر من 64 KB من مخرجات وحدة التحكم، فأُوقف التشغيل. كان ذلك في السطر 7.');
    for (const line of lines) if (line.words) for (const key of keysOf(line.words)) expect(() => render(words(key as MessageKey), 'en', CATALOGUES.en), key).not.toThrow(/no message/);
  });

  it('opens a run file without words, or with broken ones, in English', () => {
    const broken = events.map((e) => (e.type === 'console' && e.client === 0 ? { ...e, words: { key: 'runNotes.endedEarly', values: { reason: { time: 'soon' } } } } : e)) as unknown as HistoryEvent[];
    for (const history of [events.map(({ ...e }) => (delete (e as { words?: unknown }).words, e)), broken]) {
      const parsed = parseRunFile(JSON.stringify(recordRun({ lesson: 'l', run, history })));
      if (!parsed.ok) throw new Error(parsed.message);
      const note = consoleLines(parsed.run.history).find((l) => l.client === 0)!;
      expect(note.text).toBe('The run was ended early: its outcome could no longer change (crashed).');
      expect(note.words).toBeUndefined();
    }
  });
});

describe('a step that never fired, as words', () => {
  const lessons = loadAllLessons();
  const steps: ScenarioStep[] = [
    ...lessons.flatMap((l) => [...l.lessonScenarios.map((s) => s.scenario), ...l.adversaries.map((a) => a.scenario)].flatMap((s) => s.steps)),
    // Every fault with each of its optional parts, as a file may write it.
    ...([
      { action: 'node-kill', node: 3 },
      { action: 'node-restart', node: 2, delayMs: 400, persistence: 'none' },
      { action: 'node-restart', node: 2 },
      { action: 'node-pause', node: 1 },
      { action: 'node-resume', node: 1 },
      { action: 'node-clock-jump', node: 4, jumpMs: 1500 },
      { action: 'link-cut', client: 1, node: 2, mode: 'blackhole' },
      { action: 'link-heal', client: 1, node: 2 },
      { action: 'link-delay', client: 2, node: 5, delayMs: 300, jitterMs: 20 },
      { action: 'link-delay', client: 2, node: 5, delayMs: 300 },
      { action: 'replication-hold' },
      { action: 'replication-release' },
      { action: 'replication-delay', delayMs: 250 },
      { action: 'failover' },
      { action: 'client-pause', client: 1, durationMs: 900 },
      { action: 'client-pause', client: 1 },
      { action: 'client-resume', client: 1 },
      { action: 'client-crash', client: 2 },
      { action: 'client-skew', client: 2, offsetMs: -800 },
      { action: 'client-disconnect', client: 1 },
      { action: 'node-kill', node: 3, onAnsweringNode: true, when: { on: 'command-answered', client: 1, command: 'SET', nth: 3 } },
    ].map((s) => ({ at: 0, ...s }) as ScenarioStep)),
  ];
  const triggers: Trigger[] = [
    ...steps.flatMap((s) => (s.when ? [s.when] : [])),
    ...[
      { on: 'client-start' },
      { on: 'client-start', client: 2, nth: 2 },
      { on: 'lock-acquired', client: 1, nth: 11 },
      { on: 'lock-acquired', nth: 21 },
      { on: 'job-enter', client: 1, job: 'report', nth: 22 },
      { on: 'job-exit', nth: 3 },
      { on: 'command-answered', client: 1, command: '*', reply: 'OK', nth: 3, since: 'probe: acquire begins' },
      { on: 'command-answered', command: 'del', node: 4, nth: 1, since: 'x' },
      { on: 'log', client: 3, text: 'took the lock', nth: 113 },
    ].map((t) => triggerSchema.parse(t)),
  ];

  it('says every step and trigger in English from the same catalogue as the other languages', () => {
    expect(steps.length).toBeGreaterThan(25);
    for (const step of steps) expect(english(stepWords(step))).toMatch(/^[a-z]/);
    expect(english(stepWords(steps.find((s) => s.action === 'link-delay' && s.jitterMs > 0)!))).toMatch(/^delay Client \d → Node \d by \d+ ms \(\+ up to \d+ ms\)$/);
    expect(triggers.map((t) => english(triggerWords(t)))).toContain('Client 2 starts for the 2nd time');
    expect(triggers.map((t) => english(triggerWords(t)))).toContain('Client 1 is granted the lock for the 11th time');
    const step = steps.at(-1)!;
    expect(english(neverFiredWords(stepWords(step), step.when!))).toBe(`The scenario's step "${english(stepWords(step))}" never fired: it waits until ${english(triggerWords(step.when!))}, and that did not happen in this run.`);
  });

  it('reads in Arabic and Norwegian', () => {
    const when = triggerSchema.parse({ on: 'command-answered', client: 1, command: 'SET', nth: 3 });
    const step = { at: 0, action: 'node-kill', node: 3, onAnsweringNode: true, when } as ScenarioStep;
    const said = neverFiredWords(stepWords(step), when);
    expect(inAll(said).nb).toBe('Scenariosteget «drepe noden som svarte» ble aldri utløst: det venter til SET fra Klient 1 får svar for 3. gang, og det skjedde ikke i denne kjøringen.');
    expect(inAll(said).ar).toBe('لم تُنفَّذ خطوة السيناريو «قتل العقدة التي أجابت»: إنها تنتظر حتى يُجاب SET من العميل 1 للمرة رقم 3، ولم يحدث ذلك في هذا التشغيل.');
    for (const s of steps) for (const locale of ['ar', 'nb'] as const) expect(() => render(stepWords(s), locale, CATALOGUES[locale])).not.toThrow();
  });
});

describe("Explore's schedule and fault space, as words", () => {
  const spaces = [
    { space: everyFault({ minMs: 200, maxMs: 2_000 }), topology: MASTERS },
    { space: everyFault({ minMs: 50, maxMs: 1_500 }), topology: REPLICATED },
    ...loadAllLessons().map((l) => ({ space: l.explore, topology: l.topology.kind === 'replicated' ? REPLICATED : MASTERS })),
  ];

  it('says every line of a space and of a schedule in English from its words', () => {
    let lines = 0;
    for (const { space, topology } of spaces) {
      const kinds = { ...space, faults: kindsFor(space, topology) };
      expect(describeSpaceWords(kinds).map(english)).toEqual(describeSpace(kinds));
      for (let seed = 1; seed <= 60; seed++) {
        const scenario = generateSchedule(space, topology, seed);
        const said = describeScheduleWords(scenario);
        expect(describeSchedule(scenario)).toEqual(said.map(english));
        lines += said.length;
      }
    }
    expect(lines).toBeGreaterThan(200);
  });

  it('reads in Norwegian with its decimal mark, and in Arabic', () => {
    const space = { ...everyFault({ minMs: 200, maxMs: 1_500 }), faults: [{ kind: 'client-pause' as const, minMs: 200, maxMs: 1_500 }] };
    expect(describeSpaceWords(space).map((w) => inAll(w).nb)[2]).toBe('pauser av en klient, 200 ms–1,5 s');
    const scenario = generateSchedule(everyFault({ minMs: 200, maxMs: 2_000 }), MASTERS, 7);
    for (const w of describeScheduleWords(scenario)) {
      const { ar, nb } = inAll(w);
      expect(ar).toMatch(/[\u0600-\u06FF]/);
      expect(ar).not.toMatch(/\b(at|after|then|later|for|kill|pause|cut)\b/);
      expect(nb).not.toMatch(/\b(after|then|later|kill|cut)\b/);
    }
  });
});

describe("a program the grader cannot probe, as words", () => {
  it('keeps the compiler\'s own message as a value inside a translated sentence', () => {
    const result = learnerDeclarations('function (');
    if (result.ok) throw new Error('compiled');
    expect(result.error).toMatch(/^the program does not (compile|parse): ./);
    expect(english(result.words)).toBe(result.error);
    const compilerSaid = result.error.replace(/^the program does not (compile|parse): /, '');
    const { ar, nb } = inAll(result.words);
    expect(nb).toMatch(/^programmet (kompilerer ikke|kan ikke tolkes): /);
    expect(nb.endsWith(compilerSaid)).toBe(true);
    expect(ar).toMatch(/^البرنامج لا (يُترجَم|يُحلَّل): /);
  });
});

describe("the sandbox's limits, as words", () => {
  it('writes each English sentence as the catalogue renders its words', () => {
    const all = [
      LIMIT_WORDS.consoleLimit(2, 64),
      LIMIT_WORDS.commandRate(1, 2000),
      LIMIT_WORDS.outOfMemory(3, 32),
      LIMIT_WORDS.sliceOverrun(1, 1000),
      LIMIT_WORDS.wallOverrun(1, 10000),
      LIMIT_WORDS.cpuTotal(2, 20000),
      LIMIT_WORDS.storeInFlight(1, 64),
      LIMIT_WORDS.clientWallClock(4, 30000),
      LIMIT_WORDS.atLine(LIMIT_WORDS.commandRate(1, 2000), 12),
      LIMIT_WORDS.connectionsPerClient(2, 16),
      LIMIT_WORDS.connectionsPerRun(3, 128),
      LIMIT_WORDS.serverReserve(2),
      LIMIT_WORDS.connectOptionClamped(1, 'connectTimeout', 600000, 10000),
      LIMIT_WORDS.internalError('Error: boom'),
    ];
    for (const said of all) {
      expect(english(said.words)).toBe(said.message);
      expect(inAll(said.words).nb).not.toBe(said.message);
    }
    expect(inAll(all[8]!.words).nb).toBe('Klient 1 sendte mer enn 2000 Redis-kommandoer på ett sekund, så kjøringen ble stoppet. Det var på linje 12.');
     const perClient = inAll(LIMIT_WORDS.connectionsPerClient(2, 16).words);
    expect(perClient.nb).toBe('Klient 2 har 16 tilkoblinger åpne, labens grense per klient: lukk én (quit()/disconnect()) før du åpner en ny.');
    expect(perClient.ar).toContain('quit()/disconnect()');
    expect(perClient.ar).toContain('16');
  });
});

describe('a job that never ran', () => {
  it('is said as what happened — the job never ran — not as an unknown verdict, in each language', async () => {
    const { neverRanSaid } = await import('@/server/grading/judge');
    const idle = check(history().at(0).start(1).start(2).at(500).push({ type: 'client', client: 1, event: 'exit' }).events, { final: true, expectedExecutions: { 'daily-report': 1 } });
    expect(idle.valid).not.toBe('held');
    const said = neverRanSaid(idle, 'daily-report');
    expect(neverRanSaid(idle)?.message).toContain('no client started a job');
    expect(said?.message).toBe("the job never ran: no client started 'daily-report' in this run, so nothing was done, and there was nothing to check");
    const all = inAll(said!.words!);
    expect(plain(all.nb)).toContain("ingen klient startet 'daily-report'");
    expect(plain(all.ar)).toContain("'daily-report'");
    // A run in which the job began says nothing of the kind.
    const began = check(history().at(0).start(1).at(10).enter(1, 'daily-report').at(300).exit(1, 'daily-report').events, { final: true, expectedExecutions: { 'daily-report': 1 } });
    expect(neverRanSaid(began)).toBeNull();
  });
});

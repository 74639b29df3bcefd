/**
 * The lab's history words as data: what a fault did, why a node changed state and what the node guard did.
 * Each English rendering is the sentence the history always held (tests, logs and run files read `detail` and
 * `reason`), and each key renders in Arabic and Norwegian with its values in place; the timeline, the recent
 * events, the node card and a run file carry them into the page's language.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { english as catalogue } from '@/messages/catalogue';
import { historySaid, type HistoryKey } from '@/lib/history-said';
import { programFaultDone } from '@/lib/faults/client-words';
import { render, words, type WordValue, type Words } from '@/lib/words';
import type { HistoryEvent } from '@/lib/history';
import { layoutTimeline } from '@/components/timeline/layout';
import { layoutWords } from '@/components/timeline/layout-words';
import type { TimelineT } from '@/components/timeline/summary';
import { recentLines, type LabT } from '@/components/lab/history-words';
import { NodeIntervention } from '@/components/cluster/node-intervention';
import { emptyRunData, reduceRunRequested, reduceRunStarted } from '@/components/lab/run-state';
import { parseRunFile, recordRun } from '@/components/workspace/run-file';
import { faultBands } from '@/lib/measurements/faults';
import { catalogueOf, withIntl } from './helpers/intl';

const keeps = (persistence: string): WordValue => ({ words: words('history.nemesis.keeps', { persistence }) });
const busy: WordValue = { words: words('history.guard.busy', { seconds: 0.5 }) };

/** Every sentence of the history, with representative values and the English the history has always held. */
const SENTENCES: [key: HistoryKey, values: Record<string, WordValue>, english: string][] = [
  ['nemesis.nodeKill', { node: { node: 3 } }, 'Node 3 killed with SIGKILL'],
  ['nemesis.keeps', { persistence: 'none' }, 'without persistence: its data is lost'],
  ['nemesis.keeps', { persistence: 'aof-everysec' }, 'with aof-everysec: it reloads its AOF'],
  ['nemesis.nodeRestart', { node: { node: 3 }, keeps: keeps('none') }, 'Node 3 restarted without persistence: its data is lost'],
  ['nemesis.nodeRestartDelayed', { node: { node: 2 }, delayMs: '1500', keeps: keeps('aof-always') }, 'Node 2 came back after its 1500 ms delay, with aof-always: it reloads its AOF'],
  ['nemesis.nodeRestartScheduled', { node: { node: 2 }, delayMs: '1500', keeps: keeps('none') }, 'Node 2 will restart in 1500 ms, without persistence: its data is lost'],
  ['nemesis.nodePause', { node: { node: 4 } }, 'Node 4 paused with SIGSTOP: it accepts connections but answers nothing'],
  ['nemesis.nodeResume', { node: { node: 4 } }, 'Node 4 resumed with SIGCONT'],
  ['nemesis.clockJump', { jumpMs: '30000', node: { node: 1 }, expired: 2, shortened: 1 }, 'Simulated a 30000 ms forward clock jump on Node 1: 2 key(s) expired early, 1 TTL(s) shortened'],
  ['nemesis.clockJump', { jumpMs: '500', node: { node: 1 }, expired: 12345, shortened: 0 }, 'Simulated a 500 ms forward clock jump on Node 1: 12345 key(s) expired early, 0 TTL(s) shortened'],
  ['nemesis.linkCut', { client: { client: 2 }, node: { node: 3 }, mode: 'refuse' }, 'Client 2 → Node 3 cut: connections are refused'],
  ['nemesis.linkCut', { client: { client: 2 }, node: { node: 3 }, mode: 'blackhole' }, 'Client 2 → Node 3 cut: packets vanish (timeouts)'],
  ['nemesis.linkHeal', { client: { client: 2 }, node: { node: 3 } }, 'Client 2 → Node 3 healed'],
  ['nemesis.linkDelay', { client: { client: 1 }, node: { node: 5 }, delayMs: '200' }, 'Client 1 → Node 5 delayed by 200 ms each way'],
  ['nemesis.linkDelayJitter', { client: { client: 1 }, node: { node: 5 }, delayMs: '200', jitterMs: '50' }, 'Client 1 → Node 5 delayed by 200 ms each way (+ up to 50 ms jitter)'],
  ['nemesis.clientDisconnect', { client: { client: 2 } }, "Client 2's connections to every node were reset: commands in flight get no answer; it may reconnect"],
  ['nemesis.replicationHold', { master: { node: 1 }, replica: { node: 2 } }, 'Replication held back: writes to Node 1 no longer reach Node 2'],
  ['nemesis.replicationRelease', { replica: { node: 2 } }, 'Replication released: Node 2 catches up'],
  ['nemesis.replicationDelay', { delayMs: '1200' }, 'Replication lag set to 1200 ms'],
  ['nemesis.failover', { master: { node: 1 }, replica: { node: 2 } }, 'Node 1 killed with replication held back; Node 2 promoted to master without the writes it never received'],
  ['program.pauseFor', { client: { client: 2 }, durationMs: '1500' }, 'Client 2 paused for 1500 ms: none of its code runs; replies and timers wait'],
  ['program.pauseUntilResumed', { client: { client: 2 } }, 'Client 2 paused until resumed: none of its code runs; replies and timers wait'],
  ['program.resume', { client: { client: 2 } }, 'Client 2 resumed: what waited arrives now, late'],
  ['program.crash', { client: { client: 3 } }, 'Client 3 crashed: its connections dropped, nothing released'],
  ['program.skew', { client: { client: 1 }, offset: '+200' }, "Client 1's clock now reads +200 ms off"],
  ['node.started', {}, 'started'],
  ['node.paused', {}, 'paused (SIGSTOP)'],
  ['node.resumed', {}, 'resumed (SIGCONT)'],
  ['node.killed', {}, 'killed (SIGKILL)'],
  ['node.stopped', {}, 'stopped'],
  ['node.exitedSignal', { signal: 'SIGSEGV' }, 'exited unexpectedly (SIGSEGV)'],
  ['node.exitedCode', { code: '1' }, 'exited unexpectedly (code 1)'],
  ['node.withLog', { reason: { words: words('history.node.exitedCode', { code: '1' }) }, log: 'Bad config' }, 'exited unexpectedly (code 1): Bad config'],
  ['node.promoted', {}, 'promoted to master (REPLICAOF NO ONE)'],
  ['node.killedByLab', { why: { words: words('history.guard.whyUnkillable') } }, 'killed by the lab: a script that wrote and did not end'],
  ['node.restartedByLab', { why: { words: words('history.guard.whyMemory', { rssMb: '200', budgetMb: '192' }) } }, 'restarted by the lab (used 200 MB, over its 192 MB memory budget)'],
  ['guard.whyUnkillable', {}, 'a script that wrote and did not end'],
  ['guard.whyMemory', { rssMb: '1024', budgetMb: '192' }, 'used 1024 MB, over its 192 MB memory budget'],
  ['guard.busy', { seconds: 0.5 }, 'it ran over 0.5 s without ending, so the node answered BUSY to everyone'],
  ['guard.stopped', { kind: 'SCRIPT', after: busy }, 'Script stopped: it ran over 0.5 s without ending, so the node answered BUSY to everyone'],
  ['guard.stopped', { kind: 'FUNCTION', after: busy }, 'Function stopped: it ran over 0.5 s without ending, so the node answered BUSY to everyone'],
  ['guard.restartedUnkillable', { after: busy }, 'Restarted: a script wrote, then it ran over 0.5 s without ending, so the node answered BUSY to everyone; a script that wrote cannot be killed'],
  ['guard.restartedMemory', { rssMb: '200', budgetMb: '192' }, 'Restarted: used 200 MB, over its 192 MB budget'],
];

const strip = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe('the history sentences', () => {
  it.each(SENTENCES)('%s says in English what the history always said', (key, values, english) => {
    const said = historySaid(key, values);
    expect(said.message).toBe(english);
    expect(said.words).toEqual({ key: `history.${key}`, values });
  });

  describe.each(['ar', 'nb'] as const)('in %s', (locale) => {
    it.each(SENTENCES)('%s renders with its values and none of the English', (key, values, english) => {
      const text = strip(render(words(`history.${key}`, values), locale, catalogueOf(locale)));
      expect(text).not.toBe(english);
      expect(text).not.toMatch(/[{}]/);
      // Every figure the English says, the translation says too (with Norwegian's decimal comma, grouping aside).
      // (Arabic says a count of one or two in words: "مفتاحين", two keys.)
      const figures = locale === 'ar' && key === 'nemesis.clockJump' ? [] : english.match(/\d+(\.\d+)?/g) ?? [];
      for (const n of figures) {
        const written = locale === 'nb' ? n.replace('.', ',') : n;
        expect(text.replace(/[\s\u00a0\u202f,]/g, (c) => (c === ',' && locale === 'nb' ? c : ''))).toContain(written.replace(/\s/g, ''));
      }
      // Signals and Redis words stay Latin.
      for (const term of english.match(/SIG[A-Z]+|REPLICAOF NO ONE|AOF|BUSY/g) ?? []) expect(text).toContain(term);
    });
  });

  it('counts keys and TTLs in Arabic with the plural the number needs', () => {
    const jump = (expired: number, shortened: number) =>
      strip(render(words('history.nemesis.clockJump', { jumpMs: '500', node: { node: 1 }, expired, shortened }), 'ar', catalogueOf('ar')));
    expect(jump(5, 0)).toContain('انتهت صلاحية 5 مفاتيح مبكرًا');
    expect(jump(11, 1)).toContain('انتهت صلاحية 11 مفتاحًا مبكرًا');
    expect(jump(0, 2)).toContain('لم ينتهِ أي مفتاح مبكرًا');
    expect(jump(0, 2)).toContain('مدتا صلاحية');
  });

  it('covers every sentence of the catalogue', () => {
    const tested = new Set<string>(SENTENCES.map(([key]) => key));
    const all = Object.entries(catalogue.history).flatMap(([group, keys]) => Object.keys(keys).map((k) => `${group}.${k}`));
    expect(all.filter((k) => !tested.has(k))).toEqual([]);
  });

  it("words a program fault as the sandbox and the server always did", () => {
    expect(programFaultDone({ action: 'client-pause', client: 2, durationMs: 1500 }).message).toBe(
      'Client 2 paused for 1500 ms: none of its code runs; replies and timers wait',
    );
    expect(programFaultDone({ action: 'client-pause', client: 2 }).message).toBe('Client 2 paused until resumed: none of its code runs; replies and timers wait');
    expect(programFaultDone({ action: 'client-skew', client: 1, offsetMs: -300 }).message).toBe("Client 1's clock now reads -300 ms off");
    expect(programFaultDone({ action: 'client-skew', client: 1, offsetMs: 300 }).words).toEqual(words('history.program.skew', { client: { client: 1 }, offset: '+300' }));
  });
});

const ar = catalogueOf('ar');
const saidIn = (locale: 'ar' | 'nb') => ({ message, words: data }: { message: string; words?: Words | undefined }) =>
  data ? render(data, locale, catalogueOf(locale)) : message;

const killed = historySaid('nemesis.nodeKill', { node: { node: 3 } });
const down = historySaid('node.killed');
const guard = historySaid('guard.restartedMemory', { rssMb: '200', budgetMb: '192' });
const events: HistoryEvent[] = [
  { seq: 0, t: 100, type: 'nemesis', op: 'node-kill', phase: 'invoke', target: 'Node 3', node: 3, args: {} },
  { seq: 1, t: 120, type: 'nemesis', op: 'node-kill', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: killed.message, detailWords: killed.words },
  { seq: 2, t: 5_000, type: 'node', node: 4, state: 'down', role: 'master', persistence: 'none', reason: down.message, reasonWords: down.words },
  { seq: 3, t: 6_000, type: 'guard', node: 5, action: 'restarted', cause: 'memory', detail: guard.message, detailWords: guard.words },
];

describe('the timeline in Arabic', () => {
  const t = createTranslator({ locale: 'ar', messages: ar, namespace: 'timeline' }) as unknown as TimelineT;

  it('labels a kill, a node going down and the guard in Arabic', () => {
    const { markers } = layoutTimeline(events, { words: layoutWords(t, saidIn('ar')) });
    const labels = markers.map((m) => strip(m.label));
    expect(labels).toContain('قُتلت العقدة 3 بالإشارة SIGKILL');
    expect(labels.find((l) => l.includes('قُتلت (SIGKILL)'))).toBeDefined();
    expect(labels.find((l) => l.includes('أُعيد التشغيل: استهلكت 200 MB'))).toBeDefined();
    expect(labels.join(' ')).not.toMatch(/killed|Restarted/);
  });

  it('keeps the English labels exactly as they were', () => {
    const { markers } = layoutTimeline(events);
    expect(markers.map((m) => m.label)).toEqual([
      'Node 3 killed with SIGKILL',
      'Node 4 down (killed (SIGKILL))',
      'Node 5: Restarted: used 200 MB, over its 192 MB budget',
    ]);
  });

  it('shows the English of a run file from before, which has no words', () => {
    const old = events.map((e) => ({ ...e, detailWords: undefined, reasonWords: undefined })) as HistoryEvent[];
    const { markers } = layoutTimeline(old, { words: layoutWords(t, saidIn('ar')) });
    expect(markers.map((m) => m.label).join(' ')).toContain('Node 3 killed with SIGKILL');
  });
});

describe('the recent events in Norwegian', () => {
  it("tells what the fault did, why the node changed and what the lab did, in the page's language", () => {
    const nb = catalogueOf('nb');
    const t = createTranslator({ locale: 'nb', messages: nb, namespace: 'lab' }) as unknown as LabT;
    const lines = recentLines(events, 10, t, (ms) => `${ms} ms`, saidIn('nb')).map((l) => l.text);
    expect(lines).toContain('Node 3 drept med SIGKILL');
    expect(lines.join('\n')).toContain('drept (SIGKILL)');
    expect(lines.join('\n')).toContain('Startet på nytt: brukte 200 MB');
    // English as always without a page language.
    expect(recentLines(events, 10).map((l) => l.text)).toContain('Node 3 killed with SIGKILL');
  });
});

describe("the measurements' fault bands", () => {
  it('carry the words of what the fault did, for the page to write', () => {
    const [band] = faultBands(events);
    expect(band).toMatchObject({ label: 'Node 3 killed with SIGKILL', labelWords: killed.words });
    expect(faultBands(events.map((e) => ({ ...e, detailWords: undefined })) as HistoryEvent[])[0]).not.toHaveProperty('labelWords');
  });
});

describe("the node card's intervention", () => {
  it("is written in the page's language when it came with words", () => {
    const html = renderToStaticMarkup(
      withIntl(<NodeIntervention intervention={{ t: 1_200, action: 'restarted', cause: 'memory', text: guard.message, words: guard.words }} />, 'ar'),
    );
    expect(strip(html)).toContain('أُعيد التشغيل: استهلكت 200 MB');
  });
});

describe('a run file with the history words', () => {
  const run = reduceRunStarted(reduceRunRequested(emptyRunData(), { code: '', scenario: null, checker: null }), {
    runId: 'run-1', clients: 1, scenario: null, seed: 1, startedAt: 0,
  });

  it('keeps them through export and open', () => {
    const parsed = parseRunFile(JSON.stringify(recordRun({ lesson: 'x', run, history: events })));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.run.history).toEqual(events);
    const { markers } = layoutTimeline(parsed.run.history, { words: layoutWords(createTranslator({ locale: 'ar', messages: ar, namespace: 'timeline' }) as unknown as TimelineT, saidIn('ar')) });
    expect(strip(markers[0]?.label ?? '')).toBe('قُتلت العقدة 3 بالإشارة SIGKILL');
  });

  it('drops malformed words and keeps the event with its English', () => {
    const recorded = recordRun({ lesson: 'x', run, history: events });
    const tampered = { ...recorded, history: recorded.history.map((e) => (e.type === 'node' ? { ...e, reasonWords: 'nonsense' } : e.type === 'guard' ? { ...e, detailWords: { key: 7 } } : e)) };
    const parsed = parseRunFile(JSON.stringify(tampered));
    if (!parsed.ok) throw new Error(parsed.message);
    const node = parsed.run.history.find((e) => e.type === 'node');
    const guarded = parsed.run.history.find((e) => e.type === 'guard');
    expect(node && 'reasonWords' in node).toBe(false);
    expect(node?.type === 'node' && node.reason).toBe('killed (SIGKILL)');
    expect(guarded && 'detailWords' in guarded).toBe(false);
    expect(parsed.run.history.find((e) => e.type === 'nemesis' && e.phase === 'ok')).toMatchObject({ detailWords: killed.words });
  });
});

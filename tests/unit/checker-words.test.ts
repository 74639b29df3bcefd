/**
 * The checker's and the grader's sentences as data: every key they use is in the three catalogues, the English
 * `message` is the English rendering of `words` (so logs, run files and the English page cannot drift), and the
 * same words read naturally in Norwegian and Arabic, with the client and the time written for the language.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, type CheckerOptions, type Verdict } from '@/lib/checker';
import { keysOf, render, type Words, type WordsCatalogue } from '@/lib/words';
import { catalogueOf } from './helpers/intl';
import { EXTEND_SCRIPT, RELEASE_SCRIPT, history } from './helpers/history-builder';

const CATALOGUES: Record<'en' | 'ar' | 'nb', WordsCatalogue> = { en: catalogueOf('en'), ar: catalogueOf('ar'), nb: catalogueOf('nb') };

function failingWaits(h: ReturnType<typeof history>, from: number, to: number): void {
  for (let t = from; t <= to; t += 250) h.at(t).failed(2);
}

/** Histories that make the checker say most of what it can: overlaps, stale writes, duplicates, stuck locks, pauses… */
const SAMPLES: Record<string, { build: () => ReturnType<typeof history>; options?: CheckerOptions; final?: boolean }> = {
  overlap: { build: () => history().at(0).start(1).start(2).at(1000).enter(1).at(1240).enter(2).at(1300).exit(1).at(1350).exit(2) },
  'overlap still running': { build: () => history().at(0).start(1).start(2).at(100).enter(1).at(150).enter(2), final: false },
  'paused holder never resumed': { build: () => history().at(0).start(1).start(2).at(100).enter(1).at(120).pause(1).at(200).enter(2).at(300).exit(2).at(400).crash(1) },
  'paused holder resumed inside': { build: () => history().at(0).acquired(1, 'lock', { ttlMs: 100 }).at(10).enter(1).at(20).pause(1).at(200).acquired(2).at(210).enter(2).at(260).exit(2).at(400).resume(1).at(420).exit(1) },
  'TTL shorter than the job': { build: () => history().at(0).acquired(1, 'lock', { ttlMs: 80 }).at(0).enter(1, 'report').at(150).exit(1, 'report') },
  'stale token accepted, and one refused': {
    build: () =>
      history()
        .at(0).write(1, 'k', 5, { accepted: true, highest: null })
        .at(10).write(2, 'k', 3, { accepted: true, highest: 5 })
        .at(20).write(2, 'k', 2, { accepted: false, highest: 5 }),
  },
  'a job ran twice': { build: () => history().at(0).enter(1, 'report').at(10).exit(1, 'report').at(20).enter(2, 'report').at(30).exit(2, 'report'), options: { expectedExecutions: 1 } },
  'a job cut short': { build: () => history().at(0).enter(1, 'report').at(10).exit(1, 'report').at(20).enter(2, 'report').at(30).crash(2), options: { expectedExecutions: 1 } },
  'a job that never ran': { build: () => history().at(0).enter(1, 'other').at(10).exit(1, 'other'), options: { expectedExecutions: { report: 1, other: 1 } } },
  'a free lock nobody could take': {
    build: () => {
      const h = history().at(0).acquired(1, 'lock', { ttlMs: 1000, votes: [1, 2, 3, 4, 5] }).at(100).released(1);
      for (let t = 1000; t <= 7000; t += 500) h.at(t).failed(2);
      return h;
    },
    options: { livenessBoundMs: 5000 },
  },
  'SETNX then a crash': {
    build: () => {
      const h = history().at(300).redis(1, 1, 'SETNX', ['lock', 'a'], 1).at(812).crash(1);
      failingWaits(h, 900, 4000);
      return h;
    },
    options: { livenessBoundMs: 2000 },
  },
  'a release that deleted another client’s lock': {
    build: () =>
      history()
        .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '50'], 'OK')
        .at(2).enter(1)
        .at(100).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '500'], 'OK')
        .at(102).enter(2)
        .at(150).exit(1)
        .at(151).redis(1, 1, 'DEL', ['lock'], 1)
        .at(300).exit(2)
        .at(301).redis(2, 1, 'EVAL', [RELEASE_SCRIPT, '1', 'lock', 'b'], 0),
  },
  'a check-then-set race': {
    build: () =>
      history()
        .at(0).redis(1, 1, 'GET', ['lock'], null)
        .at(1).redis(2, 1, 'GET', ['lock'], null)
        .at(2).redis(2, 1, 'SET', ['lock', 'b', 'PX', '500'], 'OK')
        .at(3).redis(1, 1, 'SET', ['lock', 'a', 'PX', '500'], 'OK')
        .at(4).enter(1).at(5).enter(2).at(50).exit(1).at(60).exit(2),
  },
  'a watchdog that extends': {
    build: () =>
      history()
        .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '80'], 'OK')
        .at(2).enter(1)
        .at(30).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '80'], 1)
        .at(152).exit(1),
  },
  'a minority grant': { build: () => history().at(0).acquired(1, 'lock', { ttlMs: 1000, votes: [1, 2], quorum: 3 }).at(10).enter(1).at(20).exit(1) },
};

interface Said {
  where: string;
  message: string;
  words: Words | undefined;
}

/** Every sentence a verdict says: counter-examples, diagnoses, summaries, notes. */
function sentencesOf(verdict: Verdict): Said[] {
  const out: Said[] = [];
  for (const result of Object.values(verdict.checks)) {
    out.push({ where: `${result.check} summary`, message: result.summary, words: result.summaryWords });
    result.notes.forEach((message, i) => out.push({ where: `${result.check} note`, message, words: result.noteWords?.[i] }));
    if (result.counterExample) out.push({ where: `${result.check} counter-example`, message: result.counterExample.message, words: result.counterExample.words });
  }
  for (const d of verdict.diagnoses) out.push({ where: d.kind, message: d.message, words: d.words });
  return out;
}

const verdicts = Object.entries(SAMPLES).map(([name, s]) => [name, check(s.build().build(), { ...s.options, final: s.final ?? true })] as const);

function lookup(catalogue: WordsCatalogue, key: string): unknown {
  return key.split('.').reduce<unknown>((at, part) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), catalogue);
}

/** Keys written in the code that says things (a key built at run time would escape this, so the code builds none). */
function keysInSource(): string[] {
  const roots = ['lib/checker', 'server/grading'];
  const keys = new Set<string>();
  for (const root of roots) {
    for (const file of fs.readdirSync(path.join(process.cwd(), root))) {
      if (!file.endsWith('.ts')) continue;
      const text = fs.readFileSync(path.join(process.cwd(), root, file), 'utf8');
      for (const m of text.matchAll(/'((?:checker|grading)\.[A-Za-z.]+)'/g)) keys.add(m[1]!);
    }
  }
  return [...keys].sort();
}

describe('the checker says its sentences as data', () => {
  it('uses only keys every catalogue has (en, ar, nb)', () => {
    const fromSource = keysInSource();
    expect(fromSource.length).toBeGreaterThan(60);
    const fromVerdicts = verdicts.flatMap(([, v]) => sentencesOf(v).flatMap((s) => (s.words ? keysOf(s.words) : [])));
    for (const key of new Set([...fromSource, ...fromVerdicts])) {
      for (const [locale, catalogue] of Object.entries(CATALOGUES)) expect(typeof lookup(catalogue, key), `${locale}: ${key}`).toBe('string');
    }
  });

  it.each(verdicts)('gives every sentence words whose English rendering is its message: %s', (_name, verdict) => {
    const sentences = sentencesOf(verdict);
    expect(sentences.length).toBeGreaterThan(0);
    for (const s of sentences) {
      expect(s.words, s.where).toBeDefined();
      expect(render(s.words!, 'en', CATALOGUES.en), s.where).toBe(s.message);
      // JSON-safe: a run file carries the words as they are.
      expect(JSON.parse(JSON.stringify(s.words))).toEqual(s.words);
      // And every language can say it.
      for (const locale of ['ar', 'nb'] as const) expect(render(s.words!, locale, CATALOGUES[locale]).length, `${locale}: ${s.where}`).toBeGreaterThan(0);
    }
  });

  it('covers counter-examples and diagnoses of every check among the samples', () => {
    const where = new Set(verdicts.flatMap(([, v]) => sentencesOf(v).map((s) => s.where)));
    for (const expected of ['mutual-exclusion counter-example', 'fencing counter-example', 'duplicates counter-example', 'liveness counter-example', 'ttl-shorter-than-job', 'lock-without-ttl-never-frees'])
      expect(where, expected).toContain(expected);
  });
});

describe('a violated history in other languages', () => {
  const verdict = verdicts.find(([name]) => name === 'overlap')![1];
  const example = verdict.counterExample!;

  it('is English in the message, as before', () => {
    expect(example.message).toBe("Client 2 entered job 'job' at 1.24 s while Client 1 was still inside it (entered at 1.00 s, exited at 1.30 s): two clients in the critical section at once.");
  });

  it('writes the client and the time the Norwegian way', () => {
    const said = render(example.words!, 'nb', CATALOGUES.nb);
    expect(said).toBe("Klient 2 gikk inn i jobben 'job' ved 1,24 s mens Klient 1 fortsatt var inne i den (gikk inn ved 1,00 s, gikk ut ved 1,30 s): to klienter i den kritiske seksjonen samtidig.");
  });

  it('writes the client in Arabic, digits 0–9 and the job name as it is', () => {
    const said = render(example.words!, 'ar', CATALOGUES.ar);
    expect(said).toContain('العميل 2');
    expect(said).toContain('العميل 1');
    expect(said).toContain('1.24 s');
    expect(said).toContain("'job'");
    // A time and a name from code are isolated left to right inside the right-to-left sentence.
    expect(said).toContain('\u20661.24 s\u2069');
    expect(said).toContain("\u2066'job'\u2069");
    expect(said).not.toMatch(/Client|entered|while/);
  });

  it('uses the Arabic plural forms in a summary', () => {
    const summary = (n: number) => render({ key: 'checker.mutualExclusion.summaryHeld', values: { n } }, 'ar', CATALOGUES.ar);
    expect(summary(1)).toContain('قسم حرج واحد');
    expect(summary(2)).toContain('قسمان حرجان');
    expect(summary(3)).toContain('3 أقسام حرجة');
    expect(summary(11)).toContain('11 قسمًا حرجًا');
    expect(summary(100)).toContain('100 قسم حرج');
  });

  it('writes a duration as "forever" in the reader\'s language, also after a trip through JSON', () => {
    const words = JSON.parse(JSON.stringify({ key: 'checker.diagnosis.pauseLongerThanValidity', values: { validity: { duration: null } } })) as Words;
    expect(render(words, 'en', CATALOGUES.en)).toBe('longer than its forever validity');
    expect(render(words, 'nb', CATALOGUES.nb)).toBe('lenger enn gyldigheten på for alltid');
  });
});

/**
 * A probe's sentences as data: the `says` templates an adversary holds, what its probe may name, their
 * translations, the sentence the grader writes in English and in the page's language, and the language a
 * check request carries.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CheckerText } from '@/components/verdict/checker-text';
import { parseCommand } from '@/lib/commands';
import { loadAllLessons, LessonFormatError, type Lesson } from '@/lib/lessons/load';
import { localizeLesson, overlaySays } from '@/lib/lessons/localize';
import { probeSaysErrors } from '@/lib/lessons/probe-keys';
import { icuArguments, renderProbeSaid } from '@/lib/lessons/probe-says';
import { adversarySchema } from '@/lib/lessons/schema';
import { LabOperationError } from '@/lib/result';
import { gradingPlan } from '@/server/grading/grading-plan';
import { lessonIn } from '@/server/grading/lesson-words';
import { callBegins, callEnds, MUST_DEFINE, PROBE_MARK } from '@/server/grading/probe-program';
import { probeErrorText, probeReason, withOwnWhy } from '@/server/grading/probe-words';
import { missingFollowerSaid } from '@/server/grading/command-trace';
import type { HistoryEvent } from '@/lib/history';
import { withIntl } from './helpers/intl';

const lessons = loadAllLessons();
const lesson = (folder: string): Lesson => lessons.find((l) => l.folder === folder)!;
const inLanguage = (l: Lesson, locale: 'en' | 'ar' | 'nb'): Lesson => localizeLesson(l, locale).lesson;

const ADVERSARY = {
  id: 'probe-x',
  title: 'a probe',
  hidden: true,
  probe: 'adversaries/probe-x.ts',
  scenario: { id: 'probe-x', title: 'a probe', seed: 1, clients: 1 },
};

describe('an adversary\'s says', () => {
  it('takes ICU templates, and refuses one that does not parse', () => {
    expect(adversarySchema.safeParse({ ...ADVERSARY, says: { ok: 'returned {value, select, none {nothing} other {{value}}}' } }).success).toBe(true);
    const bad = adversarySchema.safeParse({ ...ADVERSARY, says: { broken: 'returned {value' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/ICU/);
    expect(adversarySchema.safeParse({ ...ADVERSARY, says: { 'Not-a-key': 'x' } }).success).toBe(false);
  });

  it('holds the probe to its keys: an unknown key, an unused one, values that are not the template\'s arguments', () => {
    const says = { staleThrew: '{call} threw {error}', unused: 'never said' };
    const errors = probeSaysErrors(
      ["__probe.expect(a, 'staleThrew', () => ({ call: c, error: e }));", "__probe.fail('staleThrow', {});", "__probe.expect(b, 'staleThrew', { call: c });", '__probe.fail(someKey);'].join('\n'),
      says,
    );
    expect(errors).toEqual([
      'line 4: __probe.fail() names its sentence by a literal key of "says"',
      'line 2: the probe says "staleThrow", which "says" lacks',
      'line 3: "staleThrew" is given {call} but its template names {call, error}',
      '"unused" is never said by the probe',
    ]);
  });

  it('every lesson\'s probes name only their keys, and every translation has the English sentence\'s arguments', () => {
    for (const l of lessons) {
      for (const a of l.adversaries) {
        if (a.probeCode) expect(probeSaysErrors(a.probeCode, a.says), `${l.folder}/${a.id}`).toEqual([]);
        for (const locale of ['ar', 'nb'] as const) {
          const own = inLanguage(l, locale).adversaries.find((x) => x.id === a.id)!;
          expect(Object.keys(own.says).sort(), `${l.folder}/${a.id} in ${locale}`).toEqual(Object.keys(a.says).sort());
          for (const [key, template] of Object.entries(a.says)) expect(icuArguments(own.says[key]!), `${l.folder}/${a.id}.${key} in ${locale}`).toEqual(icuArguments(template));
        }
      }
    }
  });

  it('a translation whose arguments differ from the English, or that says a sentence the English lacks, is a format error', () => {
    const english = { staleThrew: '{call} threw {error}' };
    expect(() => overlaySays('x', english, { staleThrew: '{call} kastet {feil}' }, 'texts.json', [])).toThrow(LessonFormatError);
    expect(() => overlaySays('x', english, { other: 'y' }, 'texts.json', [])).toThrow(/no such sentence/);
    const missing: string[] = [];
    expect(overlaySays('x', english, {}, 'texts.json', missing)).toEqual(english);
    expect(missing).toEqual(['texts.json → adversaries.x.says.staleThrew']);
  });
});

describe('a probe\'s failure in words', () => {
  const fencing = lesson('07-fencing-tokens');
  const planned = (locale: 'en' | 'ar' | 'nb') => gradingPlan(fencing, fencing.solution, { locale, lesson: inLanguage(fencing, locale) }).find((p) => p.id === 'fenced-write-property')!;
  const said = { key: 'staleThrew', values: { call: { code: "fencedWrite('probe-invoice', …, 3)" }, error: { code: 'EFENCED: token 3 is older than 5' } } };

  it('is the English sentence for logs, and the page\'s language for the learner', () => {
    const english =
      "fencedWrite('probe-invoice', …, 3) after token 5 threw EFENCED: token 3 is older than 5: a refused write is the store doing its job. Catch the EFENCED error and return false, so the worker stops cleanly instead of crashing.";
    expect(probeReason({ said }, planned('en'))).toEqual({ message: english });
    const nb = probeReason({ said }, planned('nb'));
    expect(nb).toEqual({ message: english, shown: expect.stringContaining("fencedWrite('probe-invoice', …, 3) etter token 5 kastet EFENCED: token 3 is older than 5: en avvist skriving") });
    const ar = probeReason({ said }, planned('ar')) as { message: string; shown: string };
    expect(ar.message).toBe(english);
    // Code stays code, one left-to-right unit inside the Arabic sentence.
    expect(ar.shown).toContain("\u2066fencedWrite('probe-invoice', …, 3)\u2069");
    // Code the template itself writes is isolated too.
    expect(ar.shown).toContain('\u2066EFENCED\u2069');
    expect(ar.shown).toContain('\u2066EFENCED: token 3 is older than 5\u2069');
    expect(ar.shown).toMatch(/^رمى \u2066fencedWrite/);
  });

  it('writes plurals, nested phrases, lists and durations in the language', () => {
    const says = lesson('05-redlock').adversaries.find((a) => a.id === 'quorum-property')!.says;
    const unreachable = { key: 'unreachable', values: { said: { say: 'returned', values: { call: { code: 'quorum(1)' }, q: { code: '3' } } }, n: 1, q: 3, right: 1 } };
    expect(renderProbeSaid(unreachable, says, 'en')).toBe('quorum(1) returned 3: 1 node can never give 3 votes, so nobody could ever take the lock. A quorum is ⌊n/2⌋ + 1 = 1.');
    const minority = inLanguage(lesson('05-redlock'), 'nb').adversaries.find((a) => a.id === 'acquire-minority')!.says;
    const left = { key: 'votesLeft', values: { nodes: { list: [{ say: 'nodeLeft', values: { node: 1, ttl: 'none' } }, { say: 'nodeLeft', values: { node: 2, ttl: 2400 } }] } } };
    expect(renderProbeSaid(left, minority, 'nb')).toContain('på Node 1 (ingen TTL) og Node 2 (2400 ms igjen å leve):');
    const slow = inLanguage(lesson('05-redlock'), 'nb').adversaries.find((a) => a.id === 'acquire-slow-votes')!.says;
    expect(renderProbeSaid({ key: 'staleLock', values: { took: { duration: 3240 }, validity: { code: '1200' }, ttl: 3000 } }, slow, 'nb')).toMatch(/^acquire\(\) brukte 3,2 s/);
  });

  it('the learner\'s timeline reads a probe\'s failure as its English sentence, never its JSON; other errors stay as they are', () => {
    const thrown = `Error: ${PROBE_MARK}${JSON.stringify(said)} (line 80)`;
    const shown = probeErrorText(thrown, planned('nb'));
    expect(shown).toBe(`Error: ${PROBE_MARK}fencedWrite('probe-invoice', …, 3) after token 5 threw EFENCED: token 3 is older than 5: a refused write is the store doing its job. Catch the EFENCED error and return false, so the worker stops cleanly instead of crashing.`);
    expect(shown).not.toContain('{"key"');
    expect(probeErrorText('TypeError: x is not a function', planned('en'))).toBe('TypeError: x is not a function');
  });

  it('a broken command-order rule says its why in the check\'s language inside the trace\'s words; the English stays in message', () => {
    const failover = lesson('04-failover');
    const plannedIn = (locale: 'en' | 'nb') =>
      gradingPlan(failover, failover.solution, { locale, lesson: inLanguage(failover, locale) }).find((p) => Boolean(p.follows))!;
    const events = [
      { seq: 1, t: 0, type: 'console', client: 1, level: 'info', text: callBegins('acquire') },
      { seq: 2, t: 12, type: 'redis', phase: 'invoke', opId: 1, client: 1, node: 1, command: 'wait', args: ['1', '100'] },
      { seq: 3, t: 13, type: 'redis', phase: 'invoke', opId: 2, client: 1, node: 1, command: 'set', args: ['lock', 't', 'NX', 'PX', '1000'] },
      { seq: 4, t: 20, type: 'console', client: 1, level: 'info', text: callEnds('acquire') },
    ] as unknown as HistoryEvent[];
    const en = plannedIn('en');
    const nb = plannedIn('nb');
    const said = missingFollowerSaid(events, 'acquire', 0, en.follows!)!;
    expect(withOwnWhy(said, en)).toBe(said);
    const shown = withOwnWhy(said, nb);
    expect(shown.message).toBe(said.message);
    expect(shown.message).toContain(en.follows!.why);
    expect(shown.words.values.why).toBe(nb.words.followsWhy);
    expect(nb.words.followsWhy).not.toBe(en.follows!.why);
  });

  it('a missing function is the grader\'s own sentence, as catalogue words the page translates', () => {
    const reason = probeReason({ said: { key: MUST_DEFINE, values: { fn: 'fencedWrite' } } }, planned('nb'));
    expect(reason).toMatchObject({ message: 'the program must define the function fencedWrite() — the probe calls it by that name', words: { key: 'grading.probeMustDefine' } });
  });

  it('the failed hidden check\'s title and the hint come in the language; what runs stays the English lesson\'s', async () => {
    const en = gradingPlan(fencing, fencing.solution);
    const nb = gradingPlan(fencing, fencing.solution, { locale: 'nb', lesson: inLanguage(fencing, 'nb') });
    expect(nb.map((p) => [p.id, p.seed, p.scenario, p.program, p.checker, p.expect, p.says])).toEqual(en.map((p) => [p.id, p.seed, p.scenario, p.program, p.checker, p.expect, p.says]));
    expect(planned('nb').words.title).toBe('fencedWrite() med et nyere token, et eldre, et nyere igjen og det samme en gang til');
    expect(inLanguage(fencing, 'nb').hints[0]).not.toBe(fencing.hints[0]);
    expect(await lessonIn(fencing, 'nb')).toBe(await lessonIn(fencing, 'nb')); // localized once
    expect((await lessonIn(fencing, 'nb')).hints).toEqual(inLanguage(fencing, 'nb').hints);
  });

  it('the page shows the server\'s sentence in its language, and the English message in English', () => {
    const failure = { message: 'English sentence', shown: 'Norsk setning' };
    expect(renderToStaticMarkup(withIntl(<CheckerText said={failure} />, 'nb'))).toBe('Norsk setning');
    expect(renderToStaticMarkup(withIntl(<CheckerText said={failure} />, 'en'))).toBe('English sentence');
  });
});

describe('exercise:check carries the page\'s language', () => {
  it('defaults to English, takes the course\'s languages, and refuses any other as invalid input', () => {
    expect(parseCommand('exercise:check', { slug: 'fencing-tokens', code: 'x' }).locale).toBe('en');
    expect(parseCommand('exercise:check', { slug: 'fencing-tokens', code: 'x', locale: 'ar' }).locale).toBe('ar');
    let error: unknown;
    try {
      parseCommand('exercise:check', { slug: 'fencing-tokens', code: 'x', locale: 'fr' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LabOperationError);
    expect((error as LabOperationError).code).toBe('invalid-input');
    expect((error as LabOperationError).message).toContain('locale');
  });
});

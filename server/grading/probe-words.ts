/**
 * A probe's failure and a command-trace rule in words: English for logs, run
 * files and tests (`message`), and in the language the check was asked in
 * (`shown`), from the adversary's `says` and its translation.
 */
import { say } from '@/lib/checker/said';
import type { Said } from '@/lib/words';
import { renderProbeSaid } from '@/lib/lessons/probe-says';
import type { PlannedRun } from './grading-plan';
import { MUST_DEFINE, PROBE_MARK, probeFailure } from './probe-program';

/** Why a run failed, in English, and in the learner's language when the server wrote it (it differs from English). */
export interface ShownReason {
  message: string;
  shown?: string;
}

type ProbeFailed = NonNullable<ReturnType<typeof probeFailure>>;

export function probeReason(failure: ProbeFailed, planned: Pick<PlannedRun, 'says' | 'words'>): ShownReason | ReturnType<typeof say> {
  if ('text' in failure) return { message: failure.text };
  const { said } = failure;
  // The same sentence for every probe: the grader's catalogue, which the page renders in its own language.
  if (said.key === MUST_DEFINE) return say('grading.probeMustDefine', { fn: String(said.values.fn ?? '') });
  let message: string;
  try {
    message = renderProbeSaid(said, planned.says, 'en');
  } catch (error) {
    // The lesson's load checks every key a probe names, so this is a probe changed without its `says`.
    return { message: `the check failed (${said.key}): ${(error as Error).message}` };
  }
  const { locale } = planned.words;
  if (locale === 'en') return { message };
  try {
    return { message, shown: renderProbeSaid(said, planned.words.says, locale) };
  } catch {
    return { message };
  }
}

/**
 * A command-trace rule broken, as words whose `why` (the lesson's sentence) is the check's language's: the page
 * renders the trace in its language around it, and `message` keeps the English why.
 */
export function withOwnWhy(said: Said, planned: Pick<PlannedRun, 'follows' | 'words'>): Said {
  const own = planned.words.followsWhy;
  if (!own || own === planned.follows?.why) return said;
  return { message: said.message, words: { ...said.words, values: { ...said.words.values, why: own } } };
}

/**
 * A client's error as the learner's timeline shows it: a probe's failure by key becomes its English sentence
 * (the JSON it travels as is for the judge); any other error is left as it is.
 */
export function probeErrorText(error: string, planned: Pick<PlannedRun, 'says' | 'words'>): string {
  const failure = probeFailure(error);
  if (failure === null || !('said' in failure)) return error;
  return `${error.slice(0, error.indexOf(PROBE_MARK))}${PROBE_MARK}${probeReason(failure, planned).message}`;
}

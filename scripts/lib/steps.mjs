// A set-up or build step: a foreground command that must succeed.
import { LocklabError } from './log.mjs';
import { exitStatusOf, runForeground } from './processes.mjs';

export async function runStep(description, command, args, options) {
  const outcome = await runForeground(command, args, options);
  if (outcome.interrupted || outcome.signal) {
    throw new LocklabError(`${description}: interrupted.`, exitStatusOf(outcome), { interrupted: true });
  }
  if (outcome.code !== 0) {
    throw new LocklabError(`${description} failed (exit code ${outcome.code}).`, outcome.code ?? 1);
  }
}

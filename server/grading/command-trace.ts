/**
 * The history as evidence: which Redis commands one marked call of a probe
 * sent ("your release is two commands: GET at 812 ms, DEL at 813 ms"). A lock
 * operation that reads in one command and acts in another leaves a gap in
 * which another client can take the lock; seeing the gap named, with times,
 * is what makes the counter-example click.
 */
import type { HistoryEvent } from '@/lib/history';
import { say } from '@/lib/checker/said';
import { words, type Said, type WordValue, type Words } from '@/lib/words';
import { callBegins, callEnds } from './probe-program';

export interface TracedCommand {
  command: string;
  key: string | null;
  /** ms from the run's start. */
  at: number;
  node: number;
}

/** The commands each marked call of `name` sent, per call, for the clients that made one. */
export function tracedCalls(events: readonly HistoryEvent[], name: string, origin: number): { client: number; commands: TracedCommand[] }[] {
  const open = new Map<number, TracedCommand[]>();
  const calls: { client: number; commands: TracedCommand[] }[] = [];
  for (const event of events) {
    if (event.type === 'console' && event.client > 0) {
      if (event.text === callBegins(name)) {
        const commands: TracedCommand[] = [];
        open.set(event.client, commands);
        calls.push({ client: event.client, commands });
      } else if (event.text === callEnds(name)) open.delete(event.client);
      continue;
    }
    if (event.type !== 'redis' || event.phase !== 'invoke') continue;
    const commands = open.get(event.client);
    commands?.push({ command: event.command.toUpperCase(), key: event.args[0] ?? null, at: Math.max(0, Math.round(event.t - origin)), node: event.node });
  }
  return calls;
}

/** The commands of a call as a list value: "GET at 812 ms, DEL at 813 ms" (a command stays as Redis spells it). */
function commandList(commands: readonly TracedCommand[]): WordValue {
  return { list: commands.map((c) => ({ words: words('judging.trace.command', { command: c.command, at: { time: c.at } }) })) };
}

/** How many commands a trace quotes before "and N more". */
const SHOWN = 4;

/**
 * A sentence about a call made of several commands, or null when every call was one command (a script, or
 * one SET): one command is atomic in Redis, and then the trace has nothing to add.
 */
export function splitCallSaid(events: readonly HistoryEvent[], name: string, origin: number): Said | null {
  const split = tracedCalls(events, name, origin).find((call) => atomicSteps(call.commands) > 1);
  if (!split) return null;
  return say('judging.trace.split', {
    client: { client: split.client },
    fn: `${name}()`,
    count: split.commands.length,
    commands: commandList(split.commands.slice(0, SHOWN)),
    more: Math.max(0, split.commands.length - SHOWN),
  });
}

/**
 * How many steps another client could fall between: each command is one, and so is a whole MULTI … EXEC
 * transaction (Redis runs it without interleaving; what it does wrong is not a gap, and saying "another client can
 * act between them" would point at the wrong mistake).
 */
function atomicSteps(commands: readonly TracedCommand[]): number {
  let steps = 0;
  let inTransaction = false;
  for (const { command } of commands) {
    if (inTransaction) {
      if (command === 'EXEC' || command === 'DISCARD') inTransaction = false;
      continue;
    }
    steps++;
    if (command === 'MULTI') inTransaction = true;
  }
  return steps;
}

/** `splitCallSaid` in English. */
export function splitCallWords(events: readonly HistoryEvent[], name: string, origin: number): string | null {
  return splitCallSaid(events, name, origin)?.message ?? null;
}

/** The stretch of the run a probe's failure is about: its marked call (the first one of `name`), else the whole run. */
export function callWindow(events: readonly HistoryEvent[], name: string | null): { from: number; to: number } | null {
  if (events.length === 0) return null;
  const whole = { from: events[0]!.t, to: events.at(-1)!.t };
  if (name === null) return whole;
  const begin = events.find((e) => e.type === 'console' && e.text === callBegins(name));
  if (!begin || !('client' in begin)) return whole;
  const end = events.find((e) => e.seq > begin.seq && e.type === 'console' && e.client === begin.client && e.text === callEnds(name));
  return { from: begin.t, to: (end ?? events.at(-1)!).t };
}

/** Why a command must follow another: the lesson's sentence (already in the page's language), or words. */
export type FollowsWhy = string | Words;

/**
 * The first marked call of `name` in which `after` was sent and `command` did not follow it, in words with the
 * call's commands; null when every call kept the order.
 */
export function missingFollowerSaid(
  events: readonly HistoryEvent[],
  name: string,
  origin: number,
  rule: { after: string; command: string; why: FollowsWhy },
): Said | null {
  for (const call of tracedCalls(events, name, origin)) {
    const at = call.commands.findIndex((c) => c.command === rule.after);
    if (at < 0 || call.commands.slice(at + 1).some((c) => c.command === rule.command)) continue;
    return say('judging.trace.missing', {
      client: { client: call.client },
      fn: `${name}()`,
      commands: commandList(call.commands.slice(0, 6)),
      command: rule.command,
      after: rule.after,
      why: typeof rule.why === 'string' ? rule.why : { words: rule.why },
    });
  }
  return null;
}

/** `missingFollowerSaid` in English. */
export function missingFollower(events: readonly HistoryEvent[], name: string, origin: number, rule: { after: string; command: string; why: FollowsWhy }): string | null {
  return missingFollowerSaid(events, name, origin, rule)?.message ?? null;
}

/**
 * The history as evidence: which Redis commands one marked call of a probe
 * sent ("your release is two commands: GET at 812 ms, DEL at 813 ms"). A lock
 * operation that reads in one command and acts in another leaves a gap in
 * which another client can take the lock; seeing the gap named, with times,
 * is what makes the counter-example click.
 */
import type { HistoryEvent } from '@/lib/history';
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

/**
 * A sentence about a call made of several commands, or null when every call was one command (a script, or
 * one SET): one command is atomic in Redis, and then the trace has nothing to add.
 */
export function splitCallWords(events: readonly HistoryEvent[], name: string, origin: number): string | null {
  const split = tracedCalls(events, name, origin).find((call) => call.commands.length > 1);
  if (!split) return null;
  const shown = split.commands.slice(0, 4).map((c) => `${c.command} at ${c.at} ms`);
  const more = split.commands.length > 4 ? `, and ${split.commands.length - 4} more` : '';
  return (
    `Client ${split.client}'s ${name}() was ${split.commands.length} commands: ${shown.join(', ')}${more}. ` +
    `Between them another client can act on the lock; one command or one Lua script cannot be interleaved.`
  );
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

/**
 * The first marked call of `name` in which `after` was sent and `command` did not follow it, in words with the
 * call's commands; null when every call kept the order.
 */
export function missingFollower(events: readonly HistoryEvent[], name: string, origin: number, rule: { after: string; command: string; why: string }): string | null {
  for (const call of tracedCalls(events, name, origin)) {
    const at = call.commands.findIndex((c) => c.command === rule.after);
    if (at < 0 || call.commands.slice(at + 1).some((c) => c.command === rule.command)) continue;
    const shown = call.commands.slice(0, 6).map((c) => `${c.command} at ${c.at} ms`).join(', ');
    return `Client ${call.client}'s ${name}() sent ${shown}: no ${rule.command} after the ${rule.after}. ${rule.why}`;
  }
  return null;
}

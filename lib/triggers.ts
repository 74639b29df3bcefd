/**
 * A scenario step's trigger (lib/scenario.ts `triggerSchema`): does an event
 * of the run match it (its words are lib/scenario-words.ts). Free of zod, because the sandbox's
 * workers match triggers too (server/sandbox/worker/armed-faults.ts).
 */
import type { HistoryEvent } from './history';
import type { Trigger } from './scenario';

/** Commands whose keys follow the script (or function name) and the number of keys: EVAL script 2 k1 k2 …. */
const SCRIPT_COMMANDS = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);

/** The keys a command names: a script's or function's KEYS, else its first argument. */
export function commandKeys(command: string, args: readonly string[]): string[] {
  if (!SCRIPT_COMMANDS.has(command.toUpperCase())) return args.length > 0 ? [args[0]!] : [];
  const count = Number(args[1]);
  return Number.isInteger(count) && count > 0 ? args.slice(2, 2 + count) : [];
}

/**
 * Whether a run's event is the kind a trigger waits for (the run and the count are the runner's business).
 * `keys`: for an answered command, the keys its invocation named (a completion does not repeat its arguments).
 */
export function matchesTrigger(trigger: Trigger, event: HistoryEvent, keys: readonly string[] = []): boolean {
  if (!('client' in event) || event.client === 0) return false;
  if (trigger.client !== undefined && event.client !== trigger.client) return false;
  switch (trigger.on) {
    case 'client-start':
      return event.type === 'client' && event.event === 'start';
    case 'lock-acquired':
      return event.type === 'lock' && event.event === 'acquired';
    case 'job-enter':
    case 'job-exit':
      return event.type === 'job' && event.phase === (trigger.on === 'job-enter' ? 'enter' : 'exit') && (!trigger.job || event.job === trigger.job);
    case 'command-answered':
      return (
        event.type === 'redis' &&
        event.phase === 'ok' &&
        (trigger.command === '*' || event.command.toUpperCase() === trigger.command.toUpperCase()) &&
        (trigger.node === undefined || event.node === trigger.node) &&
        (trigger.reply === undefined || event.reply === trigger.reply) &&
        (trigger.key === undefined || keys.includes(trigger.key))
      );
    case 'log':
      return event.type === 'console' && event.text.includes(trigger.text);
  }
}

/** Whether this event is the log line a trigger's `since` waits for. */
function opensCount(trigger: Trigger, event: HistoryEvent): boolean {
  if (trigger.since === undefined) return true;
  if (event.type !== 'console' || event.client === 0) return false;
  return (trigger.client === undefined || event.client === trigger.client) && event.text.includes(trigger.since);
}

/**
 * Steps waiting for their moment, fed the run's events in order. The server's scenario runner and the
 * sandbox's armed faults both use it, so "the second time" and "300 ms after" mean the same in both.
 */
export class TriggerWatch<T> {
  private readonly waiting: { item: T; when: Trigger; at: number; seen: number; open: boolean }[] = [];
  /** While a step waits for a command on a key: the keys of each command sent and not yet answered, by client and opId. */
  private readonly pendingKeys = new Map<string, string[]>();
  private watchesKeys = false;

  add(item: T, when: Trigger, at: number): void {
    this.waiting.push({ item, when, at, seen: 0, open: when.since === undefined });
    if (when.on === 'command-answered' && when.key !== undefined) this.watchesKeys = true;
  }

  /** The keys of the command a completion answers (remembered from its invocation), when a step cares. */
  private keysOf(event: HistoryEvent): readonly string[] {
    if (!this.watchesKeys || event.type !== 'redis') return [];
    const id = `${event.client}:${event.opId}`;
    if (event.phase === 'invoke') {
      this.pendingKeys.set(id, commandKeys(event.command, event.args));
      return [];
    }
    const keys = this.pendingKeys.get(id) ?? [];
    this.pendingKeys.delete(id);
    return keys;
  }

  get size(): number {
    return this.waiting.length;
  }

  /**
   * The items this event makes due, each with the lab time it is due: the event's own time plus its `at`, so a
   * watcher that sees the event late delays the step only by that lateness, never by it twice.
   */
  observe(event: HistoryEvent): { item: T; due: number; event: HistoryEvent }[] {
    const due: { item: T; due: number; event: HistoryEvent }[] = [];
    const keys = this.keysOf(event);
    for (let i = 0; i < this.waiting.length; ) {
      const w = this.waiting[i]!;
      if (!w.open) {
        // The line that opens the count is not itself counted: "after it logs" means after.
        w.open = opensCount(w.when, event);
        i++;
        continue;
      }
      if (w.when.since !== undefined && opensCount(w.when, event)) {
        // The line again (a probe calling the function once more): the count starts over, so "the 3rd vote
        // after acquire begins" is the 3rd of this call, not of all the calls together.
        w.seen = 0;
        i++;
        continue;
      }
      if (!matchesTrigger(w.when, event, keys) || ++w.seen < w.when.nth) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      due.push({ item: w.item, due: event.t + w.at, event });
    }
    return due;
  }

  /** The items still waiting, with their triggers; the watch is empty after. */
  drain(): { item: T; when: Trigger }[] {
    return this.waiting.splice(0).map(({ item, when }) => ({ item, when }));
  }
}

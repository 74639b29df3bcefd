/**
 * A scenario step's trigger (lib/scenario.ts `triggerSchema`): does an event
 * of the run match it, and how it reads. Free of zod, because the sandbox's
 * workers match triggers too (server/sandbox/worker/armed-faults.ts).
 */
import type { HistoryEvent } from './history';
import type { Trigger } from './scenario';

/** A trigger in words: "Client 1 enters its job". */
export function describeTrigger(trigger: Trigger): string {
  const who = trigger.client === undefined ? 'a client' : `Client ${trigger.client}`;
  const nthTime = trigger.nth > 1 ? ` (time ${trigger.nth})` : '';
  switch (trigger.on) {
    case 'lock-acquired':
      return `${who} is granted the lock${nthTime}`;
    case 'job-enter':
      return `${who} enters ${trigger.job ? `the job "${trigger.job}"` : 'its job'}${nthTime}`;
    case 'job-exit':
      return `${who} leaves ${trigger.job ? `the job "${trigger.job}"` : 'its job'}${nthTime}`;
    case 'command-answered':
      return `${who}'s ${trigger.command.toUpperCase()} is answered${trigger.node ? ` by Node ${trigger.node}` : ''}${nthTime}`;
    case 'log':
      return `${who} logs "${trigger.text}"${nthTime}`;
  }
}

/** Whether a run's event is the kind a trigger waits for (the run and the count are the runner's business). */
export function matchesTrigger(trigger: Trigger, event: HistoryEvent): boolean {
  if (!('client' in event) || event.client === 0) return false;
  if (trigger.client !== undefined && event.client !== trigger.client) return false;
  switch (trigger.on) {
    case 'lock-acquired':
      return event.type === 'lock' && event.event === 'acquired';
    case 'job-enter':
    case 'job-exit':
      return event.type === 'job' && event.phase === (trigger.on === 'job-enter' ? 'enter' : 'exit') && (!trigger.job || event.job === trigger.job);
    case 'command-answered':
      return (
        event.type === 'redis' &&
        event.phase === 'ok' &&
        event.command.toUpperCase() === trigger.command.toUpperCase() &&
        (trigger.node === undefined || event.node === trigger.node)
      );
    case 'log':
      return event.type === 'console' && event.text.includes(trigger.text);
  }
}


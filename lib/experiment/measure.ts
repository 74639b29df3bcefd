/**
 * A variant's row of the table, from its run: acquire latencies read from the
 * run's history, duplicates as the checker counted them. Pure, so a run
 * opened from a file gives the same row.
 */
import type { Verdict } from '../checker/types';
import type { HistoryEvent } from '../history';
import { readAcquires } from '../measurements/acquires';
import { summarizeLatencies } from '../measurements/latency';
import type { RunEnded } from '../run';
import { CALENDAR, type ExperimentRow, type ExperimentVariant } from './design';
import { JOB_PREFIX } from './program';

export interface AcquireTimes {
  /** Each acquire attempt's latency, ms, in the order they ended. */
  latencies: number[];
  /** Attempts that did not get the lock. */
  refused: number;
}

/**
 * How long each acquire attempt took, as its client saw it: what the Measurements view counts as an acquire
 * (`lib/measurements/acquires.ts`: a Redlock attempt from its `attempt` event to its answer, one round on the
 * nodes; a single node's `SET … NX` from its sending to its reply). An attempt with no answer is left out.
 */
export function acquireTimes(events: readonly HistoryEvent[]): AcquireTimes {
  const answered = readAcquires(events).acquires.filter((a) => a.latencyMs !== null);
  return { latencies: answered.map((a) => a.latencyMs!), refused: answered.filter((a) => a.outcome !== 'granted').length };
}

/** The days a run's jobs cover, from the checker's tallies: executions, and days the job ran at all. */
function jobDays(verdict: Verdict): { daysRun: number; executions: number } {
  let daysRun = 0;
  let executions = 0;
  for (const job of verdict.stats.jobs) {
    if (!job.job.startsWith(JOB_PREFIX)) continue;
    executions += job.completed;
    if (job.completed > 0) daysRun++;
  }
  return { daysRun, executions };
}

/** The most any worker got through: the day of the latest job that ran, from the history (a stopped run covers fewer). */
function daysCovered(events: readonly HistoryEvent[]): number {
  let last = 0;
  for (const event of events) {
    if (event.type !== 'job' || !event.job.startsWith(JOB_PREFIX)) continue;
    const day = Number(event.job.slice(JOB_PREFIX.length));
    if (Number.isInteger(day) && day > last) last = day;
  }
  return last;
}

export function experimentRow(variant: ExperimentVariant, events: readonly HistoryEvent[], ended: RunEnded): ExperimentRow {
  const { latencies, refused } = acquireTimes(events);
  const { daysRun, executions } = jobDays(ended.verdict);
  const complete = ended.outcome.status === 'completed' && ended.outcome.clients.every((c) => c.status === 'exited');
  const note = complete ? null : incompleteWhy(ended);
  return {
    variant: variant.id,
    runId: ended.runId,
    status: complete ? 'complete' : 'incomplete',
    note,
    acquire: variant.lock === 'none' ? null : summarizeLatencies(latencies),
    refused,
    days: complete ? CALENDAR.days : daysCovered(events),
    daysRun,
    executions,
    duplicates: ended.verdict.checks.duplicates.violations,
    cpuWaitMs: typeof ended.cpuWaitMs === 'number' && Number.isFinite(ended.cpuWaitMs) ? ended.cpuWaitMs : null,
  };
}

/** Why a run did not see every worker through its days, in words: the run's own reason, else the first worker's. */
function incompleteWhy(ended: RunEnded): string {
  if (ended.outcome.error) return ended.outcome.error;
  const client = ended.outcome.clients.find((c) => c.status !== 'exited');
  if (client) return `Client ${client.client} ${client.status === 'error' ? `stopped: ${client.error ?? 'an error'}` : `ended: ${client.status}`}`;
  return `the run ended: ${ended.outcome.status}`;
}

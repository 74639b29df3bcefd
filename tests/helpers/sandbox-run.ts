/** Runs a learner program in a sandbox pool against test redis-servers and records what it did. */
import type { HistoryInput } from '@/lib/history';
import type { Diagnostic, RunHandle, RunOutcome, SandboxPool, StartRunOptions } from '@/server/sandbox';
import { LEARNER, type TestRedisCluster } from './redis-server';

export interface RecordedRun {
  handle: RunHandle;
  events: HistoryInput[];
  diagnostics: Diagnostic[];
  done: Promise<RunOutcome>;
  /** Resolves with the first event that matches. */
  waitFor(match: (e: HistoryInput) => boolean): Promise<HistoryInput>;
  console(client?: number): string[];
}

let runCounter = 0;

export function startProgram(
  pool: SandboxPool,
  cluster: TestRedisCluster,
  code: string,
  options: Partial<Omit<StartRunOptions, 'code' | 'onEvent' | 'onDiagnostic'>> = {},
): RecordedRun {
  const events: HistoryInput[] = [];
  const diagnostics: Diagnostic[] = [];
  const waiters: { match: (e: HistoryInput) => boolean; resolve: (e: HistoryInput) => void }[] = [];
  const handle = pool.startRun({
    runId: options.runId ?? `test-${++runCounter}`,
    code,
    clients: options.clients ?? 1,
    nodes: options.nodes ?? cluster.nodes.map((_, i) => i + 1),
    linkPort: options.linkPort ?? ((_client, node) => cluster.nodes[node - 1]?.port ?? null),
    credentials: options.credentials ?? LEARNER,
    clock: options.clock ?? { originEpochMs: performance.timeOrigin + performance.now() },
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.startDelaysMs ? { startDelaysMs: options.startDelaysMs } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.armed ? { armed: options.armed } : {}),
    onEvent: (e) => {
      events.push(e);
      for (const w of [...waiters]) {
        if (w.match(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    },
    onDiagnostic: (d) => diagnostics.push(d),
  });
  return {
    handle,
    events,
    diagnostics,
    done: handle.done,
    waitFor: (match) => {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    console: (client) =>
      events.flatMap((e) => (e.type === 'console' && (client === undefined || e.client === client) ? [e.text] : [])),
  };
}

/** Largest event-loop stall of the main thread while `work` runs, measured with a 10 ms interval. */
export async function measureLag<T>(work: () => Promise<T>): Promise<{ result: T; maxLagMs: number }> {
  let last = performance.now();
  let maxLagMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 10);
    last = now;
  }, 10);
  try {
    const result = await work();
    return { result, maxLagMs };
  } finally {
    clearInterval(probe);
  }
}

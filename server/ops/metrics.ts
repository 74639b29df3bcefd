/**
 * Prometheus metrics for operators (`GET /metrics`). One registry per
 * process: counters are incremented where a limit is hit, gauges are read at
 * scrape time from every lab server living in this process (tests start
 * several), so nothing here holds a reference that outlives its server.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { log } from './log';

export const registry = new Registry();
// Process RSS, heap, open file descriptors and event-loop lag (p50/p90/p99) come with the defaults.
collectDefaultMetrics({ register: registry, prefix: 'locklab_', eventLoopMonitoringPrecision: 10 });

/** What one lab server in this process reports when scraped. */
export interface MetricsSource {
  labs(): number;
  runs(): number;
  /** redis-server processes alive. */
  nodes(): number;
  /** Sandbox workers (running and spare). */
  workers(): number;
  /** Bytes of history kept in memory over all labs. */
  historyBytes(): number;
  /** Runs waiting for room in the run budget. */
  queuedRuns(): number;
  sockets(): number;
}

const sources = new Set<MetricsSource>();

/** Registers a server's gauges; the returned function removes them (on close). */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

const gauges: [name: string, help: string, read: (s: MetricsSource) => number][] = [
  ['locklab_labs', 'Labs alive (own labs and classroom labs, not the warm reserve)', (s) => s.labs()],
  ['locklab_runs', 'Learner programs running', (s) => s.runs()],
  ['locklab_runs_queued', 'Learner programs waiting for room in the run budget', (s) => s.queuedRuns()],
  ['locklab_nodes', 'redis-server processes alive', (s) => s.nodes()],
  ['locklab_sandbox_workers', 'Sandbox worker threads (running and spare)', (s) => s.workers()],
  ['locklab_history_bytes', 'Bytes of run history kept in memory, all labs', (s) => s.historyBytes()],
  ['locklab_sockets', 'Browser sockets connected', (s) => s.sockets()],
];
for (const [name, help, read] of gauges) {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      let total = 0;
      for (const source of sources) total += read(source);
      this.set(total);
    },
  });
}

/** Every refusal and limit hit, by reason (the reasons are listed in refusals.ts). */
export const refusalsTotal = new Counter({
  name: 'locklab_refusals_total',
  help: 'Requests refused or runs ended because a limit was hit, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** Labs handed to a tab (fresh or from the warm reserve); a tab moving between pages keeps its lab and adds none. */
export const labsCreatedTotal = new Counter({
  name: 'locklab_labs_created_total',
  help: 'Labs handed to a tab or a classroom (fresh or from the warm reserve)',
  registers: [registry],
});

/** Node interventions: a script killed, a node restarted over its memory budget. */
export const nodeInterventionsTotal = new Counter({
  name: 'locklab_node_interventions_total',
  help: 'Times the lab stepped in on a node (busy script killed, node restarted), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Every store query and transaction, timed where the store wraps its database (server/store/timed-sql.ts). */
export const storeQuerySeconds = new Histogram({
  name: 'locklab_store_query_seconds',
  help: 'Store queries and whole transactions, by database (pglite, postgres) and kind (query, transaction)',
  labelNames: ['store', 'kind'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

/** What a server's store holds, read when scraped. */
export interface StoreMetricsSource {
  kind: 'pglite' | 'postgres';
  size(): Promise<{ sharedRuns: number; sharedRunBytes: number }>;
}

const storeSources = new Set<StoreMetricsSource>();

/** Registers a server's store; the returned function removes it (on close). */
export function addStoreMetricsSource(source: StoreMetricsSource): () => void {
  storeSources.add(source);
  return () => storeSources.delete(source);
}

const storeGauges: [name: string, help: string, read: (size: Awaited<ReturnType<StoreMetricsSource['size']>>) => number][] = [
  ['locklab_store_shared_runs', 'Shared runs the store keeps, by database', (size) => size.sharedRuns],
  ['locklab_store_shared_run_bytes', 'Bytes of shared runs the store keeps (the bound LOCKLAB_SHARED_MB_TOTAL counts these), by database', (size) => size.sharedRunBytes],
];
for (const [name, help, read] of storeGauges) {
  new Gauge({
    name,
    help,
    labelNames: ['store'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const source of storeSources) {
        try {
          this.set({ store: source.kind }, read(await source.size()));
        } catch (error) {
          // A store that cannot answer leaves its figure out of this scrape (the rest still serve), and says why.
          log.warn({ event: 'metrics-store', store: source.kind, err: (error as Error).message }, 'the store did not answer a metrics scrape');
        }
      }
    },
  });
}

export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

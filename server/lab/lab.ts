/**
 * A Lab is one isolated world: its nodes, links, monitor and history. It
 * owns their lifecycle and turns their events into views; it knows nothing
 * of sockets (realtime subscribes to it) or of fault semantics (the nemesis
 * drives it).
 */
import { EventEmitter } from 'node:events';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LabSnapshot, LinkView, NodeIntervention, NodeView, ReplicationView, Topology } from '@/lib/cluster';
import { nodeLabel } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import { LabOperationError, type ErrorText } from '@/lib/result';
import type { Words } from '@/lib/words';
import { onLinkSocketsRefused, openLink } from '../cluster/link-host';
import type { Link } from '../cluster/link-proxy';
import { LinkTable } from '../cluster/links';
import { DEFAULT_NODE_GUARD, NodeGuard, type Intervention, type NodeGuardOptions } from '../cluster/node-guard';
import { NodeMonitor, type KeySample } from '../cluster/node-monitor';
import type { NodeCredentials } from '../cluster/redis-config';
import { takeLabUser, type LabUser } from '../cluster/lab-users';
import { RedisNode } from '../cluster/redis-node';
import { resetNodeInPlace } from '../cluster/node-reset';
import { log } from '../ops/log';
import { nodeInterventionsTotal } from '../ops/metrics';
import { refuse } from '../ops/refusals';
import { HistoryLog, type HistoryBudget } from './history-log';
import { refusal } from '@/lib/refusal-words';
import { historySaid } from '@/lib/history-said';

export interface LabOptions {
  id?: string;
  topology: Topology;
  clients: number;
  /** The folder this lab may write in (one subfolder per node). */
  dir: string;
  /** How the lab polices its nodes; DEFAULT_NODE_GUARD when left out. */
  nodeGuard?: NodeGuardOptions;
  /** The history's budget (defaults: DEFAULT_HISTORY_BUDGET). */
  history?: Partial<HistoryBudget>;
}

interface Events {
  /** Some node views changed (state, role, keys, pending restart); `urgent` for a state change (up/down/paused). */
  nodes: [ids: number[], urgent?: boolean];
  links: [];
  /** The lab was rebuilt (restore): viewers need a full snapshot. */
  reset: [];
  history: [HistoryEvent];
  /** Why, in English and (when the server words it) as data for the page. */
  closed: [reason: string, words?: Words];
  /** Connections to this lab's links were refused: it holds `held` sockets there, its share (lab-sockets.ts). */
  linkSocketsFull: [held: number, perLab: number];
}

const randomSecret = () => crypto.randomBytes(18).toString('base64url');
export const newLabId = () => crypto.randomBytes(16).toString('base64url');

export class Lab extends EventEmitter<Events> {
  readonly id: string;
  readonly dir: string;
  readonly credentials: NodeCredentials;
  readonly history: HistoryLog;
  readonly links: LinkTable;
  topology: Topology;
  clients: number;
  nodes: RedisNode[] = [];
  /** Node 1 → Node 2 for the replicated topology; null once failed over. */
  replication: { link: Link; master: number; replica: number } | null = null;
  /** Per node: a pending delayed restart (timer and due time). */
  readonly pendingRestarts = new Map<number, { timer: NodeJS.Timeout; dueAt: number }>();
  readonly clockJumps = new Map<number, number>();
  private readonly monitors = new Map<number, NodeMonitor>();
  private readonly guards = new Map<number, NodeGuard>();
  private readonly guardOptions: NodeGuardOptions;
  /** Per node: the guard's latest intervention, shown on its card until the lab is restored. */
  private readonly interventions = new Map<number, NodeIntervention>();
  private readonly origin = performance.now();
  private labTail: Promise<unknown> = Promise.resolve();
  private readonly scopeTails = new Map<string, Promise<unknown>>();
  private _closed = false;
  readonly createdAt = Date.now();

  constructor(options: LabOptions) {
    super();
    this.setMaxListeners(50);
    this.id = options.id ?? newLabId();
    this.topology = options.topology;
    this.clients = options.clients;
    this.dir = options.dir;
    this.guardOptions = options.nodeGuard ?? DEFAULT_NODE_GUARD;
    this.credentials = {
      control: { username: 'control', password: randomSecret() },
      learner: { username: 'learner', password: randomSecret() },
    };
    this.history = new HistoryLog(() => this.now(), options.history);
    this.labUser = takeLabUser();
    this.history.subscribe((event) => this.emit('history', event));
    this.links = new LinkTable((node) => ({ port: () => this.reachablePort(node) }), this.id);
    this.stopHearingLinks = onLinkSocketsRefused(this.id, ({ held, perLab }) => this.emit('linkSocketsFull', held, perLab));
  }

  private readonly stopHearingLinks: () => void;

  /** The lab clock: ms since the lab was created, monotonic. */
  now(): number {
    return performance.now() - this.origin;
  }

  /** Absolute origin of the lab clock in epoch ms (workers compute the same clock from it). */
  get clockOrigin(): number {
    return performance.timeOrigin + this.origin;
  }

  get closed(): boolean {
    return this._closed;
  }

  private reachablePort(node: number): number | null {
    const n = this.nodes[node - 1];
    return n && n.state !== 'down' ? n.port : null;
  }

  node(id: number): RedisNode {
    const node = this.nodes[id - 1];
    if (!node) throw new LabOperationError('not-found', refusal('lab.noNode', { node: { node: id }, n: this.nodes.length }));
    return node;
  }

  /**
   * Runs lab-changing operations in arrival order. An operation with a
   * `scope` (one node, one link, one client) waits only for earlier
   * operations on the same scope and for lab-wide ones, so restarting Node 1
   * (a spawn, tens of ms) does not hold up a kill of Node 2; an operation
   * without a scope (failover, restore) waits for everything before it, and
   * everything after waits for it.
   */
  serial<T>(operation: () => Promise<T>, scope?: string): Promise<T> {
    const settled = (p: Promise<unknown>) => p.then(
      () => undefined,
      () => undefined,
    );
    const before = scope ? [this.labTail, this.scopeTails.get(scope) ?? this.labTail] : [this.labTail, ...this.scopeTails.values()];
    const run = Promise.all(before.map(settled)).then(operation);
    const tail = settled(run);
    if (scope) this.scopeTails.set(scope, tail);
    else {
      this.labTail = tail;
      this.scopeTails.clear();
    }
    return run;
  }

  /** The uid this lab's nodes run as, its own (lab-users.ts); given back once they are gone. */
  private readonly labUser: LabUser;

  /** Runs going in this lab (one, but a stopped run's end may come after the next one's start). */
  private runsGoing = 0;

  /**
   * A run starts: the nodes keep time for it (RUN_HZ, see redis-config.ts)
   * until the function returned is called, once, when it ends.
   */
  async runStarting(): Promise<() => void> {
    this.runsGoing += 1;
    if (this.runsGoing === 1) await Promise.all(this.nodes.map((node) => node.setBusy(true)));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.runsGoing -= 1;
      if (this.runsGoing === 0 && !this._closed) void Promise.all(this.nodes.map((node) => node.setBusy(false)));
    };
  }

  /** Spawns every node and resolves when all answer PING. */
  async start(): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const { kind, nodes: count, persistence } = this.topology;
    this.nodes = Array.from(
      { length: count },
      (_, i) =>
        new RedisNode(
          i + 1,
          path.join(this.dir, `node-${i + 1}`),
          persistence,
          kind === 'replicated' && i === 1 ? 'replica' : 'master',
          this.credentials,
          null,
          this.labUser.user,
        ),
    );
    for (const node of this.nodes) this.watch(node);
    // Fresh nodes of a lab rebuilt for a run start at the run's housekeeping rate (a down node only takes the flag).
    if (this.runsGoing > 0) await Promise.all(this.nodes.map((node) => node.setBusy(true)));
    try {
      if (kind === 'replicated') {
        const [master, replica] = this.nodes as [RedisNode, RedisNode];
        await master.start();
        const link = openLink(`${nodeLabel(1)} → ${nodeLabel(2)} replication`, { port: () => this.reachablePort(1) }, this.id);
        this.replication = { link, master: 1, replica: 2 };
        replica.replicaOf = { host: '127.0.0.1', port: await link.start(), node: 1 };
        await replica.start();
        await replicaInSync(replica);
      } else {
        await Promise.all(this.nodes.map((node) => node.start()));
      }
    } catch (error) {
      await this.destroy(refusal('closed.failedToStart'));
      throw error;
    }
  }

  /**
   * A clean start for a run: every node of `topology` up with no data, every
   * link healed with no delay, no clock jumps, replication flowing. Old nodes
   * are stopped quietly (a restore is not a crash the history should show).
   */
  async restore(topology: Topology = this.topology): Promise<void> {
    return this.serial(async () => {
      if (this._closed) throw new LabOperationError('not-found', refusal('lab.closed'));
      if (await this.emptyInPlace(topology)) {
        this.emit('reset');
        return;
      }
      for (const { timer } of this.pendingRestarts.values()) clearTimeout(timer);
      this.pendingRestarts.clear();
      for (const monitor of this.monitors.values()) monitor.dispose();
      this.monitors.clear();
      this.disposeGuards();
      this.interventions.clear();
      for (const node of this.nodes) node.removeAllListeners('state');
      await Promise.all([...this.nodes.map((node) => node.stop()), this.replication?.link.close() ?? Promise.resolve()]);
      this.replication = null;
      await this.links.resetFaults();
      for (const node of this.nodes) fs.rmSync(node.dir, { recursive: true, force: true });
      this.clockJumps.clear();
      this.topology = topology;
      await this.start();
      this.emit('reset');
    });
  }

  /**
   * The cheap restore: when every node is up, as it was started, in a
   * topology whose nodes hold nothing but their data (independent masters,
   * no persistence: nothing on disk, no replication stream), emptying each
   * node in place (node-reset.ts) is the same fresh start to the learner's
   * program as new processes, at a fraction of the cost — restores were most
   * of a check's time. Anything else — a node down, paused, about to
   * restart, a replica, files on disk, a node that refuses the reset (a
   * script still running) — gets new processes. Links are healed either way.
   * Returns whether the lab is now fresh.
   */
  private async emptyInPlace(topology: Topology): Promise<boolean> {
    const same = topology.kind === this.topology.kind && topology.nodes === this.topology.nodes && topology.persistence === this.topology.persistence;
    if (!same || topology.kind !== 'masters' || topology.persistence !== 'none' || this.pendingRestarts.size > 0) return false;
    const controls = this.nodes.map((node) => (node.isStopping ? null : node.controlClient));
    if (controls.some((control) => control === null || control.status !== 'ready')) return false;
    await this.links.resetFaults();
    const answers = await Promise.all(controls.map((control) => resetNodeInPlace(control!, this.credentials.learner.username)));
    const refused = answers.find((answer) => answer.refused !== null);
    if (refused) {
      log.info({ labId: this.id, refused: refused.refused }, 'a node refused to be emptied in place; the lab starts new nodes instead');
      return false;
    }
    this.clockJumps.clear();
    this.interventions.clear();
    // FLUSHALL sends no keyspace event per key: the cards learn the keys are gone from a sample.
    for (const monitor of this.monitors.values()) monitor.sampleSoon();
    return true;
  }

  private watch(node: RedisNode): void {
    const monitor = new NodeMonitor(node, this.credentials, () => this.now(), (_sample: KeySample) => this.emit('nodes', [node.id]));
    this.monitors.set(node.id, monitor);
    node.on('state', ({ state, reason, reasonWords }) => {
      if (this._closed) return;
      // Before anyone hears of it: a client reconnecting at once must reach the node where it now is.
      this.links.refreshTargets();
      this.replication?.link.refreshTarget();
      this.history.append({ type: 'node', node: node.id, state, role: node.role, persistence: node.persistence, reason, reasonWords });
      this.emit('nodes', [node.id], true);
    });
    this.guards.set(
      node.id,
      new NodeGuard(node, this.guardOptions, {
        restart: (target, pid, why) => this.restartForGuard(target, pid, why),
        record: (target, intervention) => this.recordIntervention(target, intervention),
      }),
    );
  }

  private disposeGuards(): void {
    for (const guard of this.guards.values()) guard.dispose();
    this.guards.clear();
  }

  /**
   * The guard's restart, done as the nemesis restarts a node (SIGKILL, the
   * data dropped when it has no persistence, start on the same port and
   * folder), in the node's turn of the queue so it never interleaves with a
   * fault on that node. When its turn comes the node must still be process
   * `pid` and up with no restart pending: a node the learner killed, paused
   * or restarted meanwhile is the learner's, not ours.
   */
  private restartForGuard(node: RedisNode, pid: number, why: Words): Promise<boolean> {
    return this.serial(async () => {
      if (this._closed || node.isStopping || node.state !== 'up' || node.pid !== pid || this.pendingRestarts.has(node.id)) return false;
      await node.kill(historySaid('node.killedByLab', { why: { words: why } }));
      if (node.persistence === 'none') node.wipeData();
      await node.start(historySaid('node.restartedByLab', { why: { words: why } }));
      return true;
    }, nodeLabel(node.id));
  }

  private recordIntervention(node: RedisNode, intervention: Intervention): void {
    if (this._closed) return;
    const { action, cause, detail, detailWords } = intervention;
    const event = this.history.append({ type: 'guard', node: node.id, action, cause, detail, detailWords });
    this.interventions.set(node.id, { t: event.t, action, cause, text: detail, words: detailWords });
    nodeInterventionsTotal.inc({ kind: `${action}:${cause}` });
    // refuse() counts the limit hit and logs it (lab, node, what) with `log`; never the script, which the guard never sees.
    refuse(cause === 'memory' ? 'node-memory' : 'node-busy-script', {
      labId: this.id,
      detail: { node: node.id, action, cause, ...(intervention.rssMb !== undefined ? { rssMb: intervention.rssMb, budgetMb: intervention.budgetMb ?? 0 } : {}) },
    }, `${node.label}: ${detail}`);
    this.emit('nodes', [node.id]);
  }

  monitor(id: number): NodeMonitor {
    const monitor = this.monitors.get(id);
    if (!monitor) throw new LabOperationError('not-found', refusal('lab.noMonitor', { node: { node: id } }));
    return monitor;
  }

  nodeView(id: number): NodeView {
    const node = this.node(id);
    const sample = this.monitors.get(id)?.current ?? { keys: [], truncated: false };
    return {
      id,
      label: node.label,
      port: node.port,
      state: node.state,
      role: node.role,
      replicaOf: node.replicaOf?.node ?? null,
      persistence: node.persistence,
      restartDueAt: this.pendingRestarts.get(id)?.dueAt ?? null,
      keys: node.state === 'down' ? [] : sample.keys,
      keysTruncated: node.state === 'down' ? false : sample.truncated,
      clockJumpMs: this.clockJumps.get(id) ?? 0,
      intervention: this.interventions.get(id) ?? null,
    };
  }

  replicationView(): ReplicationView | null {
    const r = this.replication;
    return r ? { master: r.master, replica: r.replica, held: r.link.cut !== null, delayMs: r.link.delayMs } : null;
  }

  linkViews(): LinkView[] {
    return this.links.views(this.clients, this.nodes.length);
  }

  snapshot(): LabSnapshot {
    return {
      labId: this.id,
      topology: this.topology,
      clients: this.clients,
      nodes: this.nodes.map((n) => this.nodeView(n.id)),
      links: this.linkViews(),
      replication: this.replicationView(),
      now: this.now(),
    };
  }

  /** Stops every node and link, removes the lab's folder. Safe to call twice. */
  async destroy(reason: ErrorText = refusal('closed.destroyed')): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    this.stopHearingLinks();
    for (const { timer } of this.pendingRestarts.values()) clearTimeout(timer);
    this.pendingRestarts.clear();
    for (const monitor of this.monitors.values()) monitor.dispose();
    this.disposeGuards();
    await Promise.all([
      ...this.nodes.map((node) => node.stop()),
      this.links.closeAll(),
      this.replication?.link.close() ?? Promise.resolve(),
    ]);
    fs.rmSync(this.dir, { recursive: true, force: true });
    this.labUser.release();
    if (typeof reason === 'string') this.emit('closed', reason);
    else this.emit('closed', reason.message, reason.words);
  }
}

/** How long a fresh replica may take to finish its first sync before the lab starts anyway. */
const SYNC_WAIT_MS = 5_000;

/**
 * Waits until a fresh replica has finished its first sync with its master ("replication flowing"). Until
 * then it answers reads from its empty dataset while WAIT may already count it, so a run started at once
 * could see a lock WAIT confirmed that the replica does not have yet. A replica that does not get there in
 * SYNC_WAIT_MS is left to catch up (the run's history shows what it did).
 */
async function replicaInSync(replica: RedisNode): Promise<void> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  while (Date.now() < deadline) {
    const info = await replica.controlClient?.info('replication').catch(() => '');
    if (info && /master_link_status:up/.test(info) && /master_sync_in_progress:0/.test(info)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}


/** The vocabulary of a lab's cluster, shared by server and browser. */
import type { Words } from './words';

export const PERSISTENCE_MODES = ['none', 'aof-everysec', 'aof-always'] as const;
export type Persistence = (typeof PERSISTENCE_MODES)[number];

export const NODE_STATES = ['up', 'down', 'paused'] as const;
export type NodeState = (typeof NODE_STATES)[number];

export type NodeRole = 'master' | 'replica';

export const TOPOLOGY_KINDS = ['masters', 'replicated'] as const;
/**
 * `masters`: N independent masters (Redlock's setting, default N = 5).
 * `replicated`: Node 1 is a master, Node 2 its asynchronous replica (the failover lesson).
 */
export type TopologyKind = (typeof TOPOLOGY_KINDS)[number];

export const MIN_NODES = 1;
export const MAX_NODES = 7;
export const MAX_CLIENTS = 16;
/** Clients a lab and a run have when nobody says otherwise. */
export const DEFAULT_CLIENTS = 3;

export interface Topology {
  kind: TopologyKind;
  nodes: number;
  persistence: Persistence;
}

export const DEFAULT_TOPOLOGY: Topology = { kind: 'masters', nodes: 5, persistence: 'none' };

/** Two labs of the same shape: same kind, node count and persistence. */
export const sameTopology = (a: Topology, b: Topology): boolean => a.kind === b.kind && a.nodes === b.nodes && a.persistence === b.persistence;

export interface LockKeyView {
  key: string;
  /** The value stored under the key: for a lock, its holder's token. */
  value: string | null;
  /** Remaining TTL in ms when sampled; -1 = no expiry (a lock that never frees). */
  pttl: number;
  /** Lab clock (ms) when `pttl` was read, so a view can count down between samples. */
  sampledAt: number;
}

/** What the lab did to a node a learner's code was harming (the node guard). */
export type InterventionAction = 'script-killed' | 'restarted';
/** `busy-script`: a script past the busy threshold; `unkillable-script`: one that wrote, so only a restart stops it; `memory`: over the RSS budget. */
export type InterventionCause = 'busy-script' | 'unkillable-script' | 'memory';

export interface NodeIntervention {
  /** Lab clock, ms. */
  t: number;
  action: InterventionAction;
  cause: InterventionCause;
  /** In a learner's words: "Script stopped: it ran over 0.5 s without ending…", "Restarted: used 200 MB, over its 192 MB budget". */
  text: string;
  /** `text` as data: the card writes it in the page's language. */
  words?: Words;
}

export interface NodeView {
  id: number;
  label: string; // "Node 1"
  port: number;
  state: NodeState;
  role: NodeRole;
  /** For a replica: the node it copies from. */
  replicaOf: number | null;
  persistence: Persistence;
  /** Set while a delayed restart is pending: the lab-clock time it is due. */
  restartDueAt: number | null;
  /** Keys on the node (capped; `keysTruncated` says so), sorted by name. */
  keys: LockKeyView[];
  keysTruncated: boolean;
  /** Simulated clock offset applied by clock jumps, ms (sum of jumps). */
  clockJumpMs: number;
  /** The lab's latest intervention on this node since the lab was (re)started, or null. */
  intervention: NodeIntervention | null;
}

export const LINK_CUT_MODES = ['refuse', 'blackhole'] as const;
/**
 * `refuse`: the port stops listening and open connections are reset — the client sees ECONNREFUSED at once.
 * `blackhole`: connections are accepted and bytes vanish — the client sees a timeout, like a real partition.
 */
export type LinkCutMode = (typeof LINK_CUT_MODES)[number];

export interface LinkView {
  client: number;
  node: number;
  cut: LinkCutMode | null;
  delayMs: number;
  jitterMs: number;
}

export interface ReplicationView {
  master: number;
  replica: number;
  held: boolean; // replication stream black-holed by the nemesis
  delayMs: number;
}

export interface LabSnapshot {
  labId: string;
  topology: Topology;
  /** Client slots shown in the link grid (a run of N clients uses 1..N). */
  clients: number;
  nodes: NodeView[];
  links: LinkView[];
  replication: ReplicationView | null;
  /** Lab clock now (ms since the lab started), to line up `sampledAt` and history times. */
  now: number;
  /** The first history seq this view shows: events before it belong to a page the tab has left (absent: 0). */
  historyFrom?: number;
}

export const nodeLabel = (id: number): string => `Node ${id}`;
export const clientLabel = (id: number): string => `Client ${id}`;

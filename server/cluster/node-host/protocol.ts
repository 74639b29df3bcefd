/**
 * Messages between the lab server and its node host process (over the
 * child's IPC channel, which keeps their order). Nodes are named by a number
 * the server hands out for each process it asks for.
 */

/** One redis-server to start: the whole command (setpriv and its user included), its folder and its config. */
export interface NodeSpawnRequest {
  command: string;
  args: string[];
  cwd: string;
  /** A redis.conf's text, handed over on the node's stdin (it holds the lab's control password: never on disk). */
  config: string;
  /** Where its PID goes, for the next start's clean-up (run-dir.ts). */
  pidFile: string;
  /** The node's nice value (ops/priority.ts). */
  nice: number;
}

export interface NodeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines redis printed, to explain an unexpected exit. */
  log: string[];
}

export type ToNodeHost = { type: 'spawn'; id: number } & NodeSpawnRequest;

export type FromNodeHost =
  | { type: 'ready' }
  | { type: 'spawned'; id: number; pid: number; niceError?: string }
  | { type: 'listening'; id: number }
  | ({ type: 'exit'; id: number } & NodeExit)
  | { type: 'settled'; id: number; log: string[] };

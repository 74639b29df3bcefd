/**
 * Builds a node's redis.conf. Two ACL users: `control` (the lab itself:
 * monitoring, clock jumps, failover, SCRIPT KILL from the node guard) and
 * `learner` (the learner's code: any key, but nothing from @admin or
 * @dangerous — no CONFIG, DEBUG, SHUTDOWN, REPLICAOF, FLUSHALL, MONITOR,
 * KEYS — and no SCRIPT FLUSH / FUNCTION FLUSH, which would empty the script
 * cache other clients of the lab rely on). The default user is off, so a
 * stray unauthenticated connection can do nothing.
 *
 * The limits bound what one learner can make a node hold, since a lab
 * server is shared: memory Redis counts (maxmemory, client buffers) is
 * capped here; what it does not count (Lua's heap) is policed from outside
 * by the node guard, which reads the process's RSS.
 */
import type { Persistence } from '@/lib/cluster';
import { NODE_MAXMEMORY_MB } from '../capacity';

export interface NodeCredentials {
  control: { username: 'control'; password: string };
  learner: { username: 'learner'; password: string };
}

export interface RedisConfigInput {
  port: number;
  persistence: Persistence;
  credentials: NodeCredentials;
  /** For a replica: where its master is reached (through the replication link). */
  replicaOf?: { host: string; port: number };
  /** Whether a run is going in the node's lab: see RUN_HZ. */
  busy?: boolean;
}

/**
 * How often a node does its housekeeping (serverCron: active expiry, client
 * timeouts …). While a run goes, Redis's default 10: a lock key's `expired`
 * event (and so the timeline's expiry) comes within ~100 ms of its TTL, as it
 * always has. With no run, nothing needs that: 1 cuts an idle node's CPU from
 * 2.3 to 0.4 ms a second (measured here), which for 100 idle labs (500 nodes)
 * is most of a core. A key that expires meanwhile is still expired the moment
 * anything reads it. The lab switches with CONFIG SET (RedisNode.setBusy).
 */
export const RUN_HZ = 10;
export const IDLE_HZ = 1;

/**
 * The pub/sub channels a learner may use: every one but the keyspace and
 * keyevent channels (`__key…`). The node monitor reads those on the web
 * server's loop as the truth about the lab's keys, so a learner who could
 * PUBLISH there (a Lua loop of them) could flood that loop and forge what the
 * timeline shows. ACLs only list what is allowed, so "all but `__key`" is
 * spelled as the channels that differ from it at some character, and the
 * shorter ones it starts with. (Patterns for PSUBSCRIBE must match one of
 * these literally; the lessons use none.)
 */
export const LEARNER_CHANNELS = ['&[^_]*', '&_[^_]*', '&__[^k]*', '&__k[^e]*', '&__ke[^y]*', '&_', '&__', '&__k', '&__ke'].join(' ');

/** How long a script runs before the node answers BUSY (and the node guard steps in). */
export const BUSY_REPLY_THRESHOLD_MS = 500;

export function redisConfig(input: RedisConfigInput): string {
  const { port, persistence, credentials, replicaOf, busy = false } = input;
  const lines = [
    `port ${port}`,
    'bind 127.0.0.1',
    // ACLs guard the node; protected-mode would only refuse our own loopback clients.
    'protected-mode no',
    'daemonize no',
    // Relative: the node runs in its folder, and may not be allowed to walk to it from the root.
    'dir "./"',
    'logfile ""',
    'loglevel notice',
    // Persistence is only what the mode says: no RDB snapshots, so `none` really loses data on a crash.
    'save ""',
    `appendonly ${persistence === 'none' ? 'no' : 'yes'}`,
    `appendfsync ${persistence === 'aof-always' ? 'always' : 'everysec'}`,
    // Keyspace events feed the monitor: K = keyspace channel, A = every class of event (writes, expiry, eviction).
    'notify-keyspace-events KA',
    'databases 1',
    `hz ${busy ? RUN_HZ : IDLE_HZ}`,
    // What a learner can fill with plain SETs; server/capacity.ts sizes the lab cap from it.
    `maxmemory ${NODE_MAXMEMORY_MB}mb`,
    'maxmemory-policy noeviction',
    // Past this, a running script makes the node answer BUSY to everyone else. The node guard
    // (node-guard.ts) sees that BUSY on its probe and sends SCRIPT KILL, or restarts the node if the
    // script wrote (UNKILLABLE); 500 ms keeps the whole intervention within about a second.
    `busy-reply-threshold ${BUSY_REPLY_THRESHOLD_MS}`,
    // A run has at most 16 clients; each may open a few connections per node (its client, a
    // subscriber, Redlock's own, a reconnect overlapping a dead socket): 16 × 8 = 128, plus the lab's
    // control and monitor connections and a replica, doubled for headroom. Beyond that a learner's
    // connection loop gets "max number of clients reached" instead of eating file descriptors.
    'maxclients 256',
    // Client buffers (query and output) all together, evicting the biggest clients past it,
    // so many connections with big buffers cannot grow the node outside maxmemory.
    'maxmemory-clients 32mb',
    // A reply the client does not read (or a huge one) closes that connection at 16 MB, or when it stays
    // over 8 MB for 10 s, instead of growing the node.
    'client-output-buffer-limit normal 16mb 8mb 10',
    // One argument of at most 4 MB (a lock value is a few bytes), one pending query of at most 16 MB.
    'proto-max-bulk-len 4mb',
    'client-query-buffer-limit 16mb',
    'repl-diskless-sync yes',
    'repl-diskless-sync-delay 0',
    'user default off',
    `user ${credentials.control.username} on >${credentials.control.password} ~* &* +@all`,
    `user ${credentials.learner.username} on >${credentials.learner.password} ~* ${LEARNER_CHANNELS} +@all -@admin -@dangerous -script|flush -function|flush`,
  ];
  if (replicaOf) {
    lines.push(
      `replicaof ${replicaOf.host} ${replicaOf.port}`,
      `masteruser ${credentials.control.username}`,
      `masterauth ${credentials.control.password}`,
      'replica-read-only yes',
    );
  }
  return lines.join('\n') + '\n';
}

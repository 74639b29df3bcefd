/**
 * Builds a node's redis.conf. Two ACL users: `control` (the lab itself:
 * monitoring, clock jumps, failover) and `learner` (the learner's code: any
 * key, but nothing from @admin or @dangerous — no CONFIG, DEBUG, SHUTDOWN,
 * REPLICAOF, FLUSHALL, MONITOR, KEYS). The default user is off, so a stray
 * unauthenticated connection can do nothing.
 */
import type { Persistence } from '@/lib/cluster';

export interface NodeCredentials {
  control: { username: 'control'; password: string };
  learner: { username: 'learner'; password: string };
}

export interface RedisConfigInput {
  port: number;
  dir: string;
  persistence: Persistence;
  credentials: NodeCredentials;
  /** For a replica: where its master is reached (through the replication link). */
  replicaOf?: { host: string; port: number };
}

export function redisConfig(input: RedisConfigInput): string {
  const { port, dir, persistence, credentials, replicaOf } = input;
  const lines = [
    `port ${port}`,
    'bind 127.0.0.1',
    // ACLs guard the node; protected-mode would only refuse our own loopback clients.
    'protected-mode no',
    'daemonize no',
    `dir "${dir}"`,
    'logfile ""',
    'loglevel notice',
    // Persistence is only what the mode says: no RDB snapshots, so `none` really loses data on a crash.
    'save ""',
    `appendonly ${persistence === 'none' ? 'no' : 'yes'}`,
    `appendfsync ${persistence === 'aof-always' ? 'always' : 'everysec'}`,
    // Keyspace events feed the monitor: K = keyspace channel, A = every class of event (writes, expiry, eviction).
    'notify-keyspace-events KA',
    'databases 1',
    'maxmemory 64mb',
    'maxmemory-policy noeviction',
    // A learner's endless Lua script is stopped by SCRIPT KILL after 1 s instead of 5.
    'busy-reply-threshold 1000',
    'repl-diskless-sync yes',
    'repl-diskless-sync-delay 0',
    'user default off',
    `user ${credentials.control.username} on >${credentials.control.password} ~* &* +@all`,
    `user ${credentials.learner.username} on >${credentials.learner.password} ~* &* +@all -@admin -@dangerous`,
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

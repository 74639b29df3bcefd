/**
 * Diagnosis: a node restarted without persistence forgot a live lock, then
 * granted that key to another client while the first holder's TTL had not
 * run out.
 */
import type { NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { KeyEntry, KeyspaceObserver } from './keyspace';
import type { LockSignals } from './lock-signals';
import { client as clientValue, code, duration, node as nodeValue } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A node lost a live lock key in a restart without persistence and then granted it to another client. */
export const RESTART_WITHOUT_PERSISTENCE = { kind: 'restart-without-persistence', grades: 'explains' } as const satisfies DiagnosisSpec;

interface Forgotten {
  entry: KeyEntry;
  /** The node's `up` event that lost it. */
  seq: number;
  t: number;
}

export class RestartWithoutPersistence implements KeyspaceObserver {
  /** Per node, the lock keys it lost in its last restart, live when it went down; each waits for the next write of its key. */
  private readonly forgotten = new Map<number, Map<string, Forgotten>>();

  constructor(
    private readonly log: DiagnosisLog,
    private readonly locks: Pick<LockSignals, 'isLockKey'>,
  ) {}

  restarted(node: number, lost: ReadonlyMap<string, KeyEntry>, downAt: number, up: NodeStateEvent): void {
    const forgotten = new Map<string, Forgotten>();
    for (const [key, entry] of lost) {
      if (entry.expiresAt > downAt && this.locks.isLockKey(key)) forgotten.set(key, { entry, seq: up.seq, t: up.t });
    }
    this.forgotten.set(node, forgotten);
  }

  wrote(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void {
    const { client, node } = invoke;
    const lost = this.forgotten.get(node)?.get(key);
    if (!lost) return;
    // Only the first write after the restart can be the regrant.
    this.forgotten.get(node)?.delete(key);
    const { entry } = lost;
    if (entry.setter === null || entry.setter === client || entry.expiresAt <= done.t) return;
    this.log.add({
      kind: RESTART_WITHOUT_PERSISTENCE.kind,
      check: 'mutual-exclusion',
      subject: `${node}|${key}`,
      words: words('checker.diagnosis.restartWithoutPersistence', {
        node: nodeValue(node),
        setter: clientValue(entry.setter),
        key: code(key),
        left: duration(entry.expiresAt - lost.t),
        client: clientValue(client),
      }),
      seqs: [entry.setSeq, lost.seq, done.seq],
      window: { from: lost.t, to: done.t },
      clients: [entry.setter, client],
    });
  }
}

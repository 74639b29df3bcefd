/**
 * Diagnosis: a release (a plain DEL, a GETDEL, or a script that did not
 * check the token) deleted a lock key that held another client's token:
 * the releaser's own lock had expired (or been deleted) and someone else had
 * taken it, or someone had overwritten its token (a SET without NX). The words
 * say which, so a lock without a TTL is never said to have expired.
 */
import type { RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { KeyEntry, KeyspaceObserver, ParsedSet } from './keyspace';
import type { LockSignals } from './lock-signals';
import { client as clientValue, code, node as nodeValue } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A DEL (or a release script) removed a lock key that held another client's token. */
export const RELEASE_DELETED_FOREIGN_LOCK = { kind: 'release-deleted-foreign-lock', grades: 'explains' } as const satisfies DiagnosisSpec;

export class ReleaseDeletedForeignLock implements KeyspaceObserver {
  /** Per `node|key`, the clients whose live token a later SET overwrote since the key was last free. */
  private readonly overwritten = new Map<string, Set<number>>();

  constructor(
    private readonly log: DiagnosisLog,
    private readonly locks: Pick<LockSignals, 'isLockKey'>,
  ) {}

  set(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet, took: boolean, replaced: KeyEntry | undefined): void {
    if (!took) return;
    const at = `${invoke.node}|${set.key}`;
    if (!replaced) {
      this.overwritten.delete(at);
      return;
    }
    if (replaced.setter === null || replaced.setter === invoke.client) return;
    const victims = this.overwritten.get(at) ?? new Set<number>();
    victims.add(replaced.setter);
    this.overwritten.set(at, victims);
  }

  removed(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry, offeredToken: string | null): void {
    const { client, node } = invoke;
    // The key is free again: whose tokens were overwritten starts over.
    const wasOverwritten = this.overwritten.get(`${node}|${key}`)?.has(client) ?? false;
    this.overwritten.delete(`${node}|${key}`);
    if (!this.locks.isLockKey(key)) return;
    // An uncertain key, one whose writer we do not know, or the client's own: nothing proven.
    if (entry.uncertain || entry.setter === null || entry.setter === client) return;
    // It held the token the script was given (a token-checked release always does): the right lock went.
    if (offeredToken !== null && entry.value === offeredToken) return;
    const command = invoke.command.toUpperCase();
    const how = command === 'DEL' || command === 'UNLINK' ? 'del' : command === 'GETDEL' ? 'getdel' : 'script';
    this.log.add({
      kind: RELEASE_DELETED_FOREIGN_LOCK.kind,
      check: 'mutual-exclusion',
      subject: key,
      words: words('checker.diagnosis.releaseDeletedForeignLock', {
        client: clientValue(client),
        how,
        key: code(key),
        node: nodeValue(node),
        setter: clientValue(entry.setter),
        overwritten: wasOverwritten ? 'yes' : 'no',
      }),
      seqs: [entry.setSeq, invoke.seq, done.seq],
      window: { from: entry.setT, to: done.t },
      clients: [client, entry.setter],
    });
  }
}

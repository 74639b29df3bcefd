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
import { clientLabel, nodeLabel, quote } from './format';

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
    const how = command === 'DEL' || command === 'UNLINK' ? 'a plain DEL' : command === 'GETDEL' ? 'a GETDEL' : 'a release script';
    const why = wasOverwritten
      ? 'its own token had been overwritten by a SET without NX'
      : `its own lock was already gone (expired, or deleted by another client) and ${clientLabel(entry.setter)} had taken it`;
    this.log.add({
      kind: 'release-deleted-foreign-lock',
      check: 'mutual-exclusion',
      subject: key,
      message:
        `${clientLabel(client)}'s release (${how}) deleted ${quote(key)} on ${nodeLabel(node)} while it held ` +
        `${clientLabel(entry.setter)}'s token: ${why}. Release only if the value is still your token (a Lua check-and-delete).`,
      seqs: [entry.setSeq, invoke.seq, done.seq],
      window: { from: entry.setT, to: done.t },
      clients: [client, entry.setter],
    });
  }
}

/**
 * Diagnosis: a release (a plain DEL, a GETDEL, or a script that did not
 * check the token) deleted a lock key that held another client's token, typically
 * because the releaser's own lock had expired and someone else had taken it.
 */
import type { RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { KeyEntry, KeyspaceObserver } from './keyspace';
import type { LockSignals } from './lock-signals';
import { clientLabel, nodeLabel, quote } from './format';

export class ReleaseDeletedForeignLock implements KeyspaceObserver {
  constructor(
    private readonly log: DiagnosisLog,
    private readonly locks: Pick<LockSignals, 'isLockKey'>,
  ) {}

  removed(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry, offeredToken: string | null): void {
    if (!this.locks.isLockKey(key)) return;
    const { client, node } = invoke;
    // An uncertain key, one whose writer we do not know, or the client's own: nothing proven.
    if (entry.uncertain || entry.setter === null || entry.setter === client) return;
    // It held the token the script was given (a token-checked release always does): the right lock went.
    if (offeredToken !== null && entry.value === offeredToken) return;
    const command = invoke.command.toUpperCase();
    const how = command === 'DEL' || command === 'UNLINK' ? 'a plain DEL' : command === 'GETDEL' ? 'a GETDEL' : 'a release script';
    this.log.add({
      kind: 'release-deleted-foreign-lock',
      check: 'mutual-exclusion',
      subject: `${client}|${key}`,
      message:
        `${clientLabel(client)}'s release (${how}) deleted ${quote(key)} on ${nodeLabel(node)} while it held ` +
        `${clientLabel(entry.setter)}'s token: its own lock had expired; release only if the value is still your token (a Lua check-and-delete).`,
      seqs: [entry.setSeq, invoke.seq, done.seq],
      window: { from: entry.setT, to: done.t },
      clients: [client, entry.setter],
    });
  }
}

/**
 * Diagnosis: a client read the lock key as free (GET → nil), then SET it
 * without NX after another client had taken it in between. Drawn only from a
 * definite write: an uncertain key proves nothing.
 */
import type { RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import type { KeyEntry, KeyspaceObserver, ParsedSet } from './keyspace';
import { client as clientValue, code, node as nodeValue } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A client read the key as free (GET) and then SET it without NX after someone else had. */
export const CHECK_THEN_SET_RACE = { kind: 'check-then-set-race', grades: 'fatal' } as const satisfies DiagnosisSpec;

export class CheckThenSetRace implements KeyspaceObserver {
  constructor(private readonly log: DiagnosisLog) {}

  set(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet, _took: boolean, replaced: KeyEntry | undefined, _ttlMs: number | null | undefined, readFreeAt: number | undefined): void {
    if (!replaced || readFreeAt === undefined || set.nx) return;
    const { client, node } = invoke;
    // Taken by someone else after this client's read, not by a write we are unsure of.
    if (replaced.setter === null || replaced.setter === client || !(replaced.setT > readFreeAt) || replaced.uncertain) return;
    this.log.add({
      kind: CHECK_THEN_SET_RACE.kind,
      check: 'mutual-exclusion',
      subject: set.key,
      words: words('checker.diagnosis.checkThenSetRace', { client: clientValue(client), key: code(set.key), node: nodeValue(node), other: clientValue(replaced.setter) }),
      seqs: [replaced.setSeq, invoke.seq, done.seq],
      window: { from: readFreeAt, to: done.t },
      clients: [client, replaced.setter],
    });
  }
}

/**
 * Who a lab's nodes run as. A learner's Lua runs inside redis-server: should
 * it ever break out, it must hold no right over the server — nor over another
 * learner's lab. So under a root server each lab takes a uid of its own from
 * a range (a number is all the kernel needs: no passwd entry), for its nodes
 * and their folders. Then one lab's process can neither read another's data,
 * nor its /proc entries that matter (cwd, environ, fd, mem: the kernel's
 * ptrace check compares uids), nor signal it; with one shared uid it could do
 * all three. The link process runs as 65534, which no lab has.
 *
 * A server that is not root, or without setpriv (which keeps the
 * parent-death signal across the change of user), runs nodes as itself.
 */
import { withParentDeathSignal } from './redis-process';

export interface NodeUser {
  uid: number;
  gid: number;
}

/**
 * Above the ids distributions hand out (users from 1000, subordinate ranges
 * for containers from 100000 in blocks of 65536), below 2^31.
 */
export const LAB_UID_BASE = uidFromEnv('LOCKLAB_LAB_UID_BASE', 2_000_000);
/** Far more than labs one server holds at once (see capacity.ts); a uid is reused once its lab is gone. */
export const LAB_UID_COUNT = uidFromEnv('LOCKLAB_LAB_UID_COUNT', 4_096);

/** A uid setting from the environment: an integer from 1 to 2^31 - 1, or the server stops saying which setting is wrong. */
export function uidFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) throw new Error(`${name} must be an integer from 1 to 2^31 - 1 (got "${raw}")`);
  return value;
}

const taken = new Set<number>();
/** Where the search for a free uid starts: just after the last one taken, so a uid freed a moment ago is not handed out at once. */
let cursor = 0;

/** A lab's uid, held until `release()`; `user` is null when nodes run as the server's own user. */
export interface LabUser {
  readonly user: NodeUser | null;
  release(): void;
}

/** Takes a uid for a new lab. Throws when every uid of the range is held (a range smaller than the labs a server holds). */
export function takeLabUser(): LabUser {
  if (process.getuid?.() !== 0 || !withParentDeathSignal()) return { user: null, release: () => undefined };
  for (let i = 0; i < LAB_UID_COUNT; i++) {
    const slot = (cursor + i) % LAB_UID_COUNT;
    if (taken.has(slot)) continue;
    taken.add(slot);
    cursor = slot + 1;
    const uid = LAB_UID_BASE + slot;
    let held = true;
    return {
      user: { uid, gid: uid },
      release: () => {
        if (held) taken.delete(slot);
        held = false;
      },
    };
  }
  throw new Error(`every lab uid from ${LAB_UID_BASE} to ${LAB_UID_BASE + LAB_UID_COUNT - 1} is in use (LOCKLAB_LAB_UID_COUNT)`);
}
